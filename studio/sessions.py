"""Sessions read from the shared cache, written through to the database (Django's cached_db), with the logged-in
member's cached values read in the same round trip.

A logged-in request used to make two round trips to Redis before its view ran: the session, then the member's user
row and menu count (studio/auth_cache.py), whose keys depend on the member id the session holds. Each process
remembers which member a session key belongs to (`_hints`, at most MAX_HINTS, least recently used out) and reads
that member's entries (`auth_cache.member_keys`) in the session's MGET. The hint only chooses what to read along:
the session just read says who is logged in, and the entries are offered to `get_user` only when it names the
same member; otherwise, and for a session not seen yet, the reads are made separately. The entries carry
their versions, read in that same round trip, so they are exactly as current as a separate read. The versions a
cached public entry of the request will be checked against (the member's calendar feed, studio/cache.py) come along
too.

SESSION_ENGINE = "studio.sessions" (with a shared cache and MEMBER_CACHE_SECONDS > 0).
"""

import threading
from collections import OrderedDict

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore

from . import auth_cache
from . import cache as public_cache

MAX_HINTS = 4096
_hints: OrderedDict = OrderedDict()  # session key -> the member id its session holds
_lock = threading.Lock()


def forget_hints() -> None:
    with _lock:
        _hints.clear()


def _remember(session_key, data: dict) -> None:
    member_id = data.get(SESSION_KEY) if session_key else None
    with _lock:
        if member_id is None:
            _hints.pop(session_key, None)
            return
        _hints[session_key] = str(member_id)
        _hints.move_to_end(session_key)
        while len(_hints) > MAX_HINTS:
            _hints.popitem(last=False)


class SessionStore(CachedDBStore):
    def load(self):
        with _lock:
            member_id = _hints.get(self.session_key)
        if member_id is None or not auth_cache.enabled():
            data = super().load()
            _remember(self.session_key, data)
            return data
        ahead = public_cache.versions_ahead_keys() if settings.SESSION_CACHE_ALIAS == "default" else []
        try:
            found = self._cache.get_many([self.cache_key, *auth_cache.member_keys(member_id), *ahead])
        except Exception:  # as cached_db: a key the cache refuses is a session to read from the database
            found = {}
        else:
            if ahead:
                public_cache.offer_versions(found)
        data = found.pop(self.cache_key, None)
        if data is None:
            data = super().load()
        elif str(data.get(SESSION_KEY)) == member_id:
            auth_cache.offer_member_values(member_id, found)
        _remember(self.session_key, data)
        return data
