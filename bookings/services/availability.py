"""Seat counting: which reservations take seats, seats taken and left, lapsed holds released."""

from django.db.models import Q, Sum
from django.utils import timezone

from courses.models import CourseSession

from ..models import (
    CancelReason,
    Reservation,
    ReservationStatus,
)
from .common import ReservationError, session_full


def active_reservations_q(now=None, prefix: str = "") -> Q:
    """Reservations that take seats: confirmed ones and holds that have not expired.

    `prefix` lets a session query filter its related reservations (prefix="reservations__").
    """
    now = now or timezone.now()
    return Q(**{f"{prefix}status": ReservationStatus.CONFIRMED}) | Q(
        **{f"{prefix}status": ReservationStatus.HELD, f"{prefix}hold_expires_at__gt": now}
    )


def session_seats_taken(*, session: CourseSession, now=None) -> int:
    """The participants of the session's confirmed reservations and live holds (every hold and confirmation counts
    them under the session's lock)."""
    taken = Reservation.objects.filter(active_reservations_q(now), session_id=session.pk).aggregate(
        total=Sum("participants")
    )["total"]
    return taken or 0


def session_seats_left(*, session: CourseSession, now=None) -> int:
    return max(session.max_attendees - session_seats_taken(session=session, now=now), 0)


def reservations_release_expired(*, session_id: int | None = None, now=None) -> int:
    """Mark lapsed holds EXPIRED so their seats are free. Returns how many were released.

    Confirmed reservations are never touched: only HELD rows whose hold has passed.
    """
    now = now or timezone.now()
    lapsed = Reservation.objects.filter(status=ReservationStatus.HELD, hold_expires_at__lte=now)
    if session_id is not None:
        lapsed = lapsed.filter(session_id=session_id)
    return lapsed.update(status=ReservationStatus.EXPIRED, cancel_reason=CancelReason.EXPIRED)


def _check_seats(
    *, session: CourseSession, existing: Reservation | None, participants: int, now, taken: int | None = None
) -> None:
    """Under the session lock: the seats left (plus the member's own live reservation) must fit `participants`.
    `taken`: the seats taken, when the caller counted them already (under the same lock)."""
    if taken is None:
        taken = session_seats_taken(session=session, now=now)
    seats_left = max(session.max_attendees - taken, 0) + (existing.participants if existing else 0)
    if seats_left <= 0:
        raise session_full(session, now)
    if participants > seats_left:
        raise ReservationError.of("not_enough_seats", field="participants", seats=seats_left)
