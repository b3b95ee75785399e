"""Locking: the lock order every bookings write follows, and the checks done under the session lock.

Every write that checks seats locks the session row first (STYLE.md 3). Lock order is always:

    session  →  pass  →  reservation

(a payment capture locks its PaymentOrder before all three). A hold, a booking paid with a pass, a confirmation and
a cancellation on the same session therefore never deadlock, and a pass's credits are read and changed only under
its row lock, so a credit is never spent twice. Staff adjustments lock the pass alone.

What is confirmed equals what was paid (issue 16): a card order for a hold is recorded under the session and
reservation locks (payments), and while one is open the hold's participants and price cannot change and no pass may
pay it (both read the reservation's open orders under the session lock). The capture confirms only a reservation
whose participants and amount are the order's (`reservation_confirm_for_payment`); otherwise payments refunds.
"""

from courses.models import CourseSession

from ..models import (
    Reservation,
    ReservationStatus,
)
from .availability import _check_seats, reservations_release_expired
from .common import (
    MSG_ALREADY_RESERVED,
    MSG_PARTICIPANTS_MIN,
    MSG_RESERVATION_REQUIRED,
    MSG_SESSION_NOT_FOUND,
    MSG_SESSION_PAST,
    OPEN_PAYMENT_STATUSES,
    ReservationError,
    _as_id,
)


def _parse_participants(value) -> int:
    """SPEC.md 5: participants min 1; a non-numeric value falls back to 1."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return 1
    except OverflowError:  # a JSON number such as 1e400 is read as infinity: more than any session holds
        return 2**31


def _checked_request_on_locked_session(*, session_id, participants, first_name, last_name, email, now):
    """The checks every reservation request passes, in SPEC.md's order, then the session row locked (first lock).

    Returns the cleaned names, e-mail and participant count, and the locked session.
    """
    first_name, last_name, email = (first_name or "").strip(), (last_name or "").strip(), (email or "").strip()
    if not (first_name and last_name and email):
        raise ReservationError(MSG_RESERVATION_REQUIRED)
    participants = _parse_participants(participants)
    if participants < 1:
        raise ReservationError(MSG_PARTICIPANTS_MIN)
    session = CourseSession.objects.select_for_update().filter(pk=_as_id(session_id) or 0).first()
    if session is None:
        raise ReservationError(MSG_SESSION_NOT_FOUND)
    if session.start <= now:
        raise ReservationError(MSG_SESSION_PAST)
    return first_name, last_name, email, participants, session


def _payment_open_on(reservation: Reservation | None) -> bool:
    """Whether a card payment order is being paid for this hold (read under the session lock, which order creation
    takes too, so none can appear meanwhile)."""
    return reservation is not None and reservation.payment_orders.filter(status__in=OPEN_PAYMENT_STATUSES).exists()


def _member_hold_with_seats_checked(*, session: CourseSession, user, participants: int, now) -> Reservation | None:
    """Under the session lock: free lapsed holds, refuse a second confirmed reservation, check the seats.

    Returns the member's unpaid hold on this session, which the caller updates instead of creating another.
    """
    reservations_release_expired(session_id=session.pk, now=now)
    existing = (
        session.reservations.select_for_update()
        .filter(user=user, status__in=[ReservationStatus.HELD, ReservationStatus.CONFIRMED])
        .first()
    )
    if existing is not None and existing.status == ReservationStatus.CONFIRMED:
        raise ReservationError(MSG_ALREADY_RESERVED)
    _check_seats(session=session, existing=existing, participants=participants, now=now)
    return existing
