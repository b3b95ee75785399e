"""The production cache backend: Django's Redis cache with one client per pool, not one per operation.
Runs against the Redis on 127.0.0.1:6379 (database 14), skipped where there is none."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import redis

from studio.redis_cache import StudioRedisCache

REDIS_URL = os.environ.get("TEST_CACHE_REDIS_URL", "redis://127.0.0.1:6379/14")
ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture
def backend():
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip(f"needs Redis at {REDIS_URL}")
    cache = StudioRedisCache(REDIS_URL, {"KEY_PREFIX": "test-redis-cache"})
    cache.clear()
    yield cache
    cache.clear()


def test_every_operation_reuses_one_client(backend, monkeypatch):
    built = []
    original = redis.Redis.__init__

    def counting_init(self, *args, **kwargs):
        built.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "__init__", counting_init)
    backend.set("a", 1)
    backend.get("a")
    backend.get_many(["a", "b"])
    backend.incr("a")
    backend.add("c", 3)
    backend.delete("c")
    assert built == []  # the client made for the fixture's clear() served them all (Django's makes one per call)
    assert backend._cache.get_client() is backend._cache.get_client(write=True)


def test_values_round_trip_as_with_djangos_backend(backend):
    backend.set("page", (200, b"<html>", [("Content-Type", "text/html")]), 60)
    backend.set("version", 7, None)
    assert backend.get_many(["version", "page", "absent"]) == {
        "version": 7,
        "page": (200, b"<html>", [("Content-Type", "text/html")]),
    }
    assert backend.incr("version") == 8
    assert backend.add("version", 1) is False
    backend.delete("page")
    assert backend.get("page", "gone") == "gone"


def test_one_client_serves_several_threads(backend):
    errors = []

    def work(n):
        try:
            for i in range(50):
                backend.set(f"k{n}-{i}", i)
                assert backend.get(f"k{n}-{i}") == i
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_the_settings_use_it_when_redis_is_configured():
    code = "from django.conf import settings; print(settings.CACHES['default']['BACKEND'])"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "studio.settings.base", "REDIS_URL": REDIS_URL}
    out = subprocess.run([sys.executable, "-c", f"import django; django.setup(); {code}"], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)  # fmt: skip
    assert out.stdout.strip() == "studio.redis_cache.StudioRedisCache"


def test_incr_is_one_round_trip_and_keeps_djangos_contract(backend, monkeypatch):
    backend.set("version", 41)
    backend.incr("version")  # the script is loaded on first use
    commands = []
    original = redis.Redis.execute_command
    monkeypatch.setattr(
        redis.Redis,
        "execute_command",
        lambda self, *args, **kw: commands.append(args[0]) or original(self, *args, **kw),
    )
    assert backend.incr("version") == 43
    assert backend.incr("version", 5) == 48
    assert commands == ["EVALSHA", "EVALSHA"]  # Django's backend: EXISTS then INCRBY, each a round trip
    assert backend.get("version") == 48

    with pytest.raises(ValueError):
        backend.incr("missing")
    assert backend.get("missing") is None  # not created by the attempt


def test_incr_works_after_the_server_forgot_its_scripts(backend):
    backend.set("version", 1)
    assert backend.incr("version") == 2
    redis.Redis.from_url(REDIS_URL).script_flush()
    assert backend.incr("version") == 3
