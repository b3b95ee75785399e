"""A session's seat state as the full-class answer reads it, kept in the shared cache between its changes.

At a class opening hundreds of members ask within the same second for a class that is already full. The answer
(`plainly_full_for`, in locking.py) needs the session's start, status, capacity and price, its held and confirmed
reservations, and whether members wait for it. Read from the database, that is a query PostgreSQL plans anew for
each of them; here it is one cache read, the same for everyone, until something changes.

The state is stored with the version it was read under, and a save or delete of the session, one of its
reservations or one of its waiting-list entries bumps that version (bookings/receivers.py), once at the change and
again once it is committed, like the cached sessions feed. The version is read before the database, so a state read
while a change commits is stored under the old version and never used. Holds that lapse need no change: the state
keeps each hold's expiry and the seat count is taken at the reader's `now`.

The cache only ever serves a refusal that the committed state gave a moment earlier; a seat is still only given
under the session lock. `SEAT_STATE_CACHE = False` reads the database every time (a test compares both).
"""

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.conf import settings
from django.core.cache import cache
from django.db.models import Exists, OuterRef

from courses.models import CourseSession
from studio.cache import bump_versions, cache_versions

from ..models import ACTIVE_STATUSES, Reservation, ReservationStatus
from ..models_operations import WaitlistEntry, WaitlistStatus

VERSION_KEY = "seats:version:{session_id}"
STATE_KEY = "seats:state:{session_id}"
STATE_TIMEOUT_S = 300


@dataclass(frozen=True)
class SeatState:
    """What the full-class answer reads of a session; `live` holds (user_id, status, hold_expires_at, participants)
    for each held or confirmed reservation."""

    start: datetime
    status: str
    max_attendees: int
    price_per_participant: Decimal
    live: tuple[tuple[int | None, str, datetime | None, int], ...]
    waiting: bool

    def seats_taken(self, now) -> int:
        """As `availability.active_reservations_q`: confirmed reservations and holds not yet lapsed."""
        return sum(
            participants
            for _user, status, expires, participants in self.live
            if status == ReservationStatus.CONFIRMED
            or (status == ReservationStatus.HELD and expires is not None and expires > now)
        )

    def held_or_confirmed_by(self, user_id) -> bool:
        return any(user == user_id for user, *_rest in self.live)


def seat_state(session_id: int) -> SeatState | None:
    """The session's seat state, None when there is no such session."""
    if not settings.SEAT_STATE_CACHE:
        return _read(session_id)
    version_key, state_key = VERSION_KEY.format(session_id=session_id), STATE_KEY.format(session_id=session_id)
    found = cache.get_many([version_key, state_key])
    version = found.get(version_key)
    if version is None:
        version = cache_versions([version_key])[1]  # created, as every version of the shared cache
    stored = found.get(state_key)
    if stored is not None and stored[0] == version:
        return stored[1]
    state = _read(session_id)
    if state is not None and version is not None:
        cache.set(state_key, (version, state), timeout=STATE_TIMEOUT_S)
    return state


def forget_seat_state(session_id: int) -> None:
    """The session's seats, capacity, start, price or waiting list changed: the next reader reads the database."""
    bump_versions(VERSION_KEY.format(session_id=session_id))


def _read(session_id: int) -> SeatState | None:
    waiting = WaitlistEntry.objects.filter(session_id=OuterRef("pk"), status=WaitlistStatus.WAITING)
    session = (
        CourseSession.objects.filter(pk=session_id)
        .annotate(waiting=Exists(waiting))
        .values_list("start", "status", "max_attendees", "price_per_participant", "waiting")
        .first()
    )
    if session is None:
        return None
    *fields, waiting = session
    live = Reservation.objects.filter(session_id=session_id, status__in=ACTIVE_STATUSES).values_list(
        "user_id", "status", "hold_expires_at", "participants"
    )
    return SeatState(*fields, live=tuple(live), waiting=waiting)
