"""Per-member values every logged-in request reads, kept in the shared cache under a version per member.

A logged-in request used to fetch its user row from the database (Django's ModelBackend.get_user) and, on every
page, count the member's unread messages. Both are now read from the cache, in one round trip after the session's,
and rebuilt only when that member's data changed:

- `cached_per_member(name, member_id, builder)`: the value is stored with the member's version, read together with
  it (`get_many`, one MGET on Redis) and used only if it was built under the current one. The version is read
  *before* the database, so a change committed meanwhile bumps it past the entry being built: never a stale hit.
- `bump_member(member_id)`: that member's entries, the user row included, are rebuilt at their next read. Every
  save or delete of a user bumps (signals, below); code that writes users with `QuerySet.update()` (no signals)
  calls it itself.
- `bump_member_data(member_id)`: the same for every entry but the user row, which has a version of its own
  (ROW_VERSION_KEY). Other apps call it for the values they cache here from their own tables (messaging's unread
  count; passes, subscriptions, invoices and reminder switches on the profile page): a payment no longer costs the
  member's next request a read of their user row.
- `CachedModelBackend`: Django's ModelBackend whose `get_user` reads the cached row; the session's password hash
  and `is_active` are still checked on every request, against the cached row.
- `read_with_user(name, owner=None)`: a value every page shows (messaging's unread count) is read in the same round
  trip as the user row and kept for the rest of that request only; `bump_member` drops it at once, so a request
  that changes the member's data and then renders reads it afresh.

- `cached_per_member(..., local=True)`: a large value one page shows (the member's own profile, accounts/views.py)
  is also kept in this process (`_local`, at most LOCAL_MAX_ENTRIES, least recently used out) and used without a
  round trip while the member's version *read with this request's user row* is the one it was built under, and until
  the shared entry's own expiry (stored in it). A change through another worker bumps the shared version, which the
  next request reads with the user row: the copy is dropped exactly when the shared entry would be.

Only with a cache every worker shares (`MEMBER_CACHE_SECONDS` > 0, the default when `REDIS_URL` is set): a
per-process memory cache would keep serving a row another worker changed. Entries also expire after
`MEMBER_CACHE_SECONDS`, a bound on what a write that bypassed both signals and `bump_member` (raw SQL) could leave.
"""

import secrets
import threading
import time
from collections import OrderedDict
from contextvars import ContextVar
from functools import partial

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.db import transaction

VERSION_KEY = "member:{id}:version"
ROW_VERSION_KEY = "member:{id}:row-version"  # the user row's own (bump_member bumps both)
ENTRY_KEY = "member:{id}:{name}"
ROW = "user"  # the name of the user row's entry


def enabled() -> bool:
    return getattr(settings, "MEMBER_CACHE_SECONDS", 0) > 0


# (owner, name) of the values read with the user row: owner None is the user themself, else a fixed owner.
_WITH_USER: list[tuple[str | None, str]] = []
# This request's values read with its user row, {(owner, name): value}; reset as each request starts.
_read_ahead: ContextVar[dict | None] = ContextVar("member_values_read_ahead", default=None)
# {member id: version} read with this request's user row (get_user); reset as each request starts, and a member's
# dropped when this request bumps it.
_versions_read: ContextVar[dict | None] = ContextVar("member_versions_read", default=None)
_MISSING = object()

LOCAL_MAX_ENTRIES = 256
# (member id, name) -> (version, value, expires at): copies of shared entries, this process only.
_local: OrderedDict = OrderedDict()
_local_lock = threading.Lock()


def _new_version() -> int:
    # Random rather than the time: a process's copy (`local`) must not match a version made again after an eviction,
    # even at the same instant (a frozen clock in tests, two workers).
    return secrets.randbits(62)


def forget_local() -> None:
    with _local_lock:
        _local.clear()


def _local_get(member_id: str, name: str):
    versions = _versions_read.get()
    version = versions.get(member_id) if versions else None
    if version is None:
        return _MISSING
    with _local_lock:
        entry = _local.get((member_id, name))
        if entry is None or entry[0] != version or entry[2] <= time.time():
            return _MISSING
        _local.move_to_end((member_id, name))
        return entry[1]


def _local_keep(member_id: str, name: str, entry: tuple) -> None:
    with _local_lock:
        _local[(member_id, name)] = entry
        _local.move_to_end((member_id, name))
        while len(_local) > LOCAL_MAX_ENTRIES:
            _local.popitem(last=False)


def read_with_user(name: str, owner: str | None = None) -> None:
    """Read `cached_per_member(name, owner or the user's id, ...)`'s entry in the user row's round trip (called from
    an app's ready())."""
    if (owner, name) not in _WITH_USER:
        _WITH_USER.append((owner, name))


def forget_read_ahead(**_kwargs) -> None:
    """request_started: what a request read ahead is never served to the next one."""
    _read_ahead.set(None)
    _versions_read.set(None)


def _owned(user_id) -> list[tuple[str, str]]:
    return [(str(user_id) if owner is None else owner, name) for owner, name in _WITH_USER]


def member_keys(user_id) -> list[str]:
    """The cache keys `get_user` reads for this member: the versions, the user row, the values read with it."""
    owned = _owned(user_id)
    owners = dict.fromkeys([str(user_id), *(owner for owner, _name in owned)])
    keys = [ROW_VERSION_KEY.format(id=user_id), *(VERSION_KEY.format(id=owner) for owner in owners)]
    return keys + [ENTRY_KEY.format(id=owner, name=name) for owner, name in [(str(user_id), ROW), *owned]]


def _current(found: dict, owner, name: str):
    """The entry's value if it was built under the owner's current version (both in `found`), else _MISSING."""
    version = found.get(VERSION_KEY.format(id=owner))
    entry = found.get(ENTRY_KEY.format(id=owner, name=name))
    if version is not None and entry is not None and entry[0] == version:
        return entry[1]
    return _MISSING


def cached_per_member(name: str, member_id, builder, *, found: dict | None = None, local: bool = False):
    """`builder()` for this member, from the cache while the member's version is unchanged. `found`: the entries
    already read in this round trip (get_user's). `local`: also kept in this process (the module's docstring)."""
    if not enabled() or member_id is None:
        return builder()
    ahead = _read_ahead.get()
    if ahead:
        value = ahead.pop((str(member_id), name), _MISSING)
        if value is not _MISSING:
            return value
    if local:
        value = _local_get(str(member_id), name)
        if value is not _MISSING:
            return value
    version_key = (ROW_VERSION_KEY if name == ROW else VERSION_KEY).format(id=member_id)
    entry_key = ENTRY_KEY.format(id=member_id, name=name)
    if found is None:
        found = cache.get_many([version_key, entry_key])
    version = found.get(version_key)
    if version is None:
        # Not 1: after an eviction a fresh version must not match an entry built under an older one.
        cache.add(version_key, _new_version(), timeout=None)
        version = cache.get(version_key)
    entry = found.get(entry_key)
    if entry is not None and entry[0] == version:
        if local and len(entry) > 2:
            _local_keep(str(member_id), name, entry)
        return entry[1]
    value = builder()
    # The entry's expiry travels with it: a process's copy lasts no longer than the shared entry.
    entry = (version, value, time.time() + settings.MEMBER_CACHE_SECONDS)
    cache.set(entry_key, entry, settings.MEMBER_CACHE_SECONDS)
    if local:
        _local_keep(str(member_id), name, entry)
    return value


def _bump(key: str) -> None:
    try:
        cache.incr(key)
    except ValueError:  # no version yet (or evicted): nothing cached under one
        cache.add(key, _new_version(), timeout=None)


def bump_member(member_id) -> None:
    """Every value cached for this member, the user row included, is rebuilt at its next read. Bumped at once and
    again when the current transaction commits: another request may read the row between the change and its commit
    (it still sees the old row, under the version bumped at once), and the second bump makes that entry unusable."""
    if member_id is None:
        return
    key = ROW_VERSION_KEY.format(id=member_id)
    _bump(key)
    transaction.on_commit(partial(_bump, key))
    bump_member_data(member_id)


def bump_member_data(member_id) -> None:
    """Every value cached for this member but the user row is rebuilt at its next read (as bump_member): for a
    change to another table than the user's."""
    if member_id is None:
        return
    ahead = _read_ahead.get()
    if ahead:
        for owner_name in [k for k in ahead if k[0] == str(member_id)]:
            del ahead[owner_name]
    versions = _versions_read.get()
    if versions:
        versions.pop(str(member_id), None)
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

        # One round trip: the user row, and the values every page shows (read_with_user), under their versions.
        found = cache.get_many(member_keys(user_id))
        ahead = {}
        for owner, name in _owned(user_id):
            value = _current(found, owner, name)
            if value is not _MISSING:
                ahead[(owner, name)] = value
        _read_ahead.set(ahead)
        # The member's version as read with the user row: a process's copy built under it is current (`local`).
        version = found.get(VERSION_KEY.format(id=user_id))
        _versions_read.set(None if version is None else {str(user_id): version})
        user = cached_per_member(ROW, user_id, fetch, found=found)
        return user if user is not None and self.user_can_authenticate(user) else None
