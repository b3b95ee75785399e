"""Public entries (pages, the calendar feed's bytes) live in the shared cache with the versions they were built
under: a change made through any worker bumps a version, and every worker's next read rebuilds the entry."""

import pytest
from django.core.cache import cache
from freezegun import freeze_time

from studio import cache as public_cache
from studio.cache import bump_versions, cached_public


@pytest.fixture(autouse=True)
def empty():
    cache.clear()
    yield
    cache.clear()


def test_a_hit_is_served_without_building_again():
    built = []
    value = cached_public("feed-json:x", lambda: built.append(1) or b"x" * 1000, depends_on=["week:1"])
    assert cached_public("feed-json:x", lambda: built.append(1) or b"y", depends_on=["week:1"]) == value
    assert built == [1]


def test_another_workers_change_is_seen_at_once():
    assert cached_public("feed-json:x", lambda: b"old", depends_on=["week:1"]) == b"old"
    bump_versions("week:1")  # as another worker does after a hold
    assert cached_public("feed-json:x", lambda: b"new", depends_on=["week:1"]) == b"new"
    # a third worker built it under the current versions: this worker takes the shared copy
    bump_versions("week:1")
    versions = public_cache.cache_versions(["week:1"])
    public_cache._write("feed-json:x", versions, b"from another worker", 30)
    assert cached_public("feed-json:x", lambda: b"rebuilt", depends_on=["week:1"]) == b"from another worker"


def test_an_entry_of_another_week_is_kept_when_one_week_changes():
    cached_public("feed-json:a", lambda: b"week 1", depends_on=["week:1"])
    cached_public("feed-json:b", lambda: b"week 2", depends_on=["week:2"])
    bump_versions("week:1")
    assert cached_public("feed-json:a", lambda: b"week 1 again", depends_on=["week:1"]) == b"week 1 again"
    assert cached_public("feed-json:b", lambda: b"rebuilt", depends_on=["week:2"]) == b"week 2"


def test_an_entry_past_its_time_is_rebuilt_once_while_the_others_get_the_last_copy():
    """When a timed entry lapses, the first request rebuilds it; requests arriving during that rebuild are answered
    the copy it replaces instead of all rebuilding it together (ten visitors at once on a seven-week feed)."""
    with freeze_time("2026-11-23 10:00:00") as clock:
        cached_public("feed-json:x", lambda: b"first", timeout=30, depends_on=["week:1"])
        clock.tick(31)
        during = []

        def rebuild():
            during.append(cached_public("feed-json:x", lambda: b"built twice", timeout=30, depends_on=["week:1"]))
            return b"second"

        assert cached_public("feed-json:x", rebuild, timeout=30, depends_on=["week:1"]) == b"second"
        assert during == [b"first"]
        assert cached_public("feed-json:x", lambda: b"third", timeout=30, depends_on=["week:1"]) == b"second"


def test_a_changed_entry_is_never_answered_from_the_last_copy():
    """The last copy is only for an entry that lapsed with time: after a change, every request sees the change."""
    with freeze_time("2026-11-23 10:00:00") as clock:
        cached_public("feed-json:x", lambda: b"first", timeout=30, depends_on=["week:1"])
        clock.tick(31)
        bump_versions("week:1")
        during = []

        def rebuild():
            during.append(cached_public("feed-json:x", lambda: b"changed", timeout=30, depends_on=["week:1"]))
            return b"changed"

        assert cached_public("feed-json:x", rebuild, timeout=30, depends_on=["week:1"]) == b"changed"
        assert during == [b"changed"]


def test_a_lapsed_entry_whose_rebuild_failed_is_rebuilt_by_a_later_request():
    with freeze_time("2026-11-23 10:00:00") as clock:
        cached_public("feed-json:x", lambda: b"first", timeout=30)
        clock.tick(31)

        def failing():
            raise RuntimeError("database gone")

        with pytest.raises(RuntimeError):
            cached_public("feed-json:x", failing, timeout=30)
        assert cached_public("feed-json:x", lambda: b"second", timeout=30) == b"second"
