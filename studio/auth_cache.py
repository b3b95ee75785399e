"""Per-member values every logged-in request reads, kept in the shared cache under a version per member (issue 18).

A logged-in request used to fetch its user row from the database (Django's ModelBackend.get_user) and, on every
page, count the member's unread messages. Both are now read from the cache with the session, in one round trip
each, and rebuilt only when that member's data changed:

- `cached_per_member(name, member_id, builder)`: the value is stored with the member's version, read together with
  it (`get_many`, one MGET on Redis) and used only if it was built under the current one. The version is read
  *before* the database, so a change committed meanwhile bumps it past the entry being built: never a stale hit.
- `bump_member(member_id)`: that member's entries are rebuilt at their next read. Every save or delete of a user
  bumps (signals, below); code that writes users with `QuerySet.update()` (no signals) calls it itself, and other
  apps call it for the values they cache here (messaging's unread count).
- `CachedModelBackend`: Django's ModelBackend whose `get_user` reads the cached row; the session's password hash
  and `is_active` are still checked on every request, against the cached row.

Only with a cache every worker shares (`MEMBER_CACHE_SECONDS` > 0, the default when `REDIS_URL` is set): a
per-process memory cache would keep serving a row another worker changed. Entries also expire after
`MEMBER_CACHE_SECONDS`, a bound on what a write that bypassed both signals and `bump_member` (raw SQL) could leave.
"""

import time
from functools import partial

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.db import transaction

VERSION_KEY = "member:{id}:version"
ENTRY_KEY = "member:{id}:{name}"


def enabled() -> bool:
    return getattr(settings, "MEMBER_CACHE_SECONDS", 0) > 0


def cached_per_member(name: str, member_id, builder):
    """`builder()` for this member, from the cache while the member's version is unchanged."""
    if not enabled() or member_id is None:
        return builder()
    version_key, entry_key = VERSION_KEY.format(id=member_id), ENTRY_KEY.format(id=member_id, name=name)
    found = cache.get_many([version_key, entry_key])
    version = found.get(version_key)
    if version is None:
        # Not 1: after an eviction a fresh version must not match an entry built under an older one.
        cache.add(version_key, time.time_ns() // 1000, timeout=None)
        version = cache.get(version_key)
    entry = found.get(entry_key)
    if entry is not None and entry[0] == version:
        return entry[1]
    value = builder()
    cache.set(entry_key, (version, value), settings.MEMBER_CACHE_SECONDS)
    return value


def _bump(key: str) -> None:
    try:
        cache.incr(key)
    except ValueError:  # no version yet (or evicted): nothing cached under one
        cache.add(key, time.time_ns() // 1000, timeout=None)


def bump_member(member_id) -> None:
    """Every value cached for this member is rebuilt at its next read. Bumped at once and again when the current
    transaction commits: another request may read the row between the change and its commit (it still sees the old
    row, under the version bumped at once), and the second bump makes that entry unusable."""
    if member_id is None:
        return
    key = VERSION_KEY.format(id=member_id)
    _bump(key)
    transaction.on_commit(partial(_bump, key))


def bump_saved_user(sender, instance, **_kwargs) -> None:
    """post_save / post_delete of the user model (connected in studio.apps)."""
    bump_member(instance.pk)


class CachedModelBackend(ModelBackend):
    """ModelBackend whose per-request user lookup is read from the shared cache (see the module's docstring)."""

    def get_user(self, user_id):
        if not enabled():
            return super().get_user(user_id)

        def fetch():
            from django.contrib.auth import get_user_model

            model = get_user_model()
            try:
                return model._default_manager.get(pk=user_id)
            except (model.DoesNotExist, ValueError, TypeError):
                return None

        user = cached_per_member("user", user_id, fetch)
        return user if user is not None and self.user_can_authenticate(user) else None
