"""The per-recipient e-mail quota counts in the shared cache for an hour, then starts again, even when its counter
expired between the add and the increment (Redis' INCR then re-creates the key with no expiry)."""

from datetime import timedelta

import pytest
from django.core.cache.backends.locmem import LocMemCache
from freezegun import freeze_time

from studio import ratelimit


class ExpiringBetweenAddAndIncr(LocMemCache):
    """A cache whose counter expires just before the first increment, as a Redis key can: INCR then makes a new key
    worth 1 and with no expiry."""

    raced = False

    def incr(self, key, delta=1, version=None):
        if not self.raced:
            self.raced = True
            self.set(key, delta, timeout=None, version=version)
            return delta
        return super().incr(key, delta, version)


@pytest.fixture
def racing_cache(monkeypatch, settings):
    settings.EMAILS_PER_RECIPIENT_PER_HOUR = 1
    cache = ExpiringBetweenAddAndIncr("quota-race", {})
    monkeypatch.setattr(ratelimit, "cache", cache)
    return cache


def test_a_counter_recreated_by_the_increment_still_expires_after_the_hour(racing_cache):
    with freeze_time("2026-12-01 10:00:00") as clock:
        assert ratelimit.recipient_quota_take("a@example.fr")  # 1st this hour
        clock.tick(timedelta(minutes=59, seconds=59))
        assert ratelimit.recipient_quota_take("a@example.fr")  # the counter expires between its add and its incr
        assert not ratelimit.recipient_quota_take("a@example.fr")  # 2nd in that hour: over the cap of 1
        clock.tick(timedelta(minutes=61))
        assert ratelimit.recipient_quota_take("a@example.fr")  # the hour is over: allowed again, never blocked for good
