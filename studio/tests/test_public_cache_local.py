"""The public entries (pages, the calendar feed's bytes) are also kept in each process, in front of the shared
cache: a hit reads only the versions from Redis, not the entry (a month's feed is 165 KB to transfer
and unpickle per request). The local copy is used only under the same versions as the shared entry it copies and
expires with it, so a change made through another worker is seen at once."""

import pytest
from django.core.cache import cache, caches

from studio import cache as public_cache
from studio.cache import bump_versions, cached_public


class Reads:
    """The keys each round trip to the shared cache asked for."""

    def __init__(self, monkeypatch):
        self.calls = []
        backend = caches["default"]
        original = backend.get_many

        def get_many(keys, *args, **kwargs):
            self.calls.append(list(keys))
            return original(keys, *args, **kwargs)

        monkeypatch.setattr(backend, "get_many", get_many)


@pytest.fixture(autouse=True)
def empty():
    cache.clear()
    public_cache.forget_local()
    yield
    cache.clear()
    public_cache.forget_local()


def test_a_hit_reads_the_versions_alone(monkeypatch):
    built = []
    value = cached_public("feed-json:x", lambda: built.append(1) or b"x" * 1000, depends_on=["week:1"])
    reads = Reads(monkeypatch)
    assert cached_public("feed-json:x", lambda: built.append(1) or b"y", depends_on=["week:1"]) == value
    assert built == [1]
    assert reads.calls == [[public_cache.VERSION_KEY, "week:1"]]  # one round trip, no entry


def test_another_workers_change_is_seen_at_once(monkeypatch):
    assert cached_public("feed-json:x", lambda: b"old", depends_on=["week:1"]) == b"old"
    bump_versions("week:1")  # as another worker does after a hold
    assert cached_public("feed-json:x", lambda: b"new", depends_on=["week:1"]) == b"new"
    # a third worker built it under the current versions: this process takes the shared copy, not its old one
    bump_versions("week:1")
    versions = public_cache.cache_versions(["week:1"])
    public_cache._write("feed-json:x", versions, b"from another worker", 30)
    assert cached_public("feed-json:x", lambda: b"rebuilt", depends_on=["week:1"]) == b"from another worker"


def test_the_local_copy_expires_with_the_shared_entry(monkeypatch):
    clock = [1_000_000.0]
    monkeypatch.setattr(public_cache, "_now", lambda: clock[0])
    assert cached_public("feed-json:x", lambda: b"first", timeout=30) == b"first"
    clock[0] += 29
    assert cached_public("feed-json:x", lambda: b"second", timeout=30) == b"first"
    clock[0] += 2  # past the 30 s the shared entry lives: both are gone (the shared one is dropped as Redis would)
    cache.delete(public_cache._entry_key("feed-json:x"))
    assert cached_public("feed-json:x", lambda: b"second", timeout=30) == b"second"


def test_the_local_layer_is_bounded():
    for index in range(public_cache.LOCAL_MAX_ENTRIES + 10):
        cached_public(f"page:/p{index}", lambda: b"page")
    assert len(public_cache._local) == public_cache.LOCAL_MAX_ENTRIES
