"""A class the studio cancelled (docs/decisions.md 27) is shown "Annulé" in the calendar and never booked again:
every booking path checks it under the session lock (locking.py's request checks, the confirmation)."""

from courses.booking_windows import moment_text, session_booking_opens_at
from courses.models import CourseSession, SessionStatus
from studio.errors import CONFLICT

from .common import ReservationError

MSG_SESSION_IS_CANCELLED = "Ce cours est annulé par le studio : il ne peut plus être réservé."


class CancelledClassError(ReservationError):
    """A booking of a class the studio cancelled (409)."""

    messages = {"session_cancelled": MSG_SESSION_IS_CANCELLED}
    statuses = {"session_cancelled": CONFLICT}


def refuse_if_cancelled(session: CourseSession) -> None:
    """Under the session lock: refuse any booking of a cancelled class."""
    if session.status == SessionStatus.CANCELLED:
        raise CancelledClassError.of("session_cancelled")


# docs/decisions.md 45: a session opens for booking some days before it starts; before that every member booking
# path (a hold, a booking with a pass, a waiting-list join, a hold resumed) refuses it under the session lock.
MSG_BOOKING_NOT_OPEN = "Les réservations de ce cours ne sont pas encore ouvertes : réservations à partir du {when}."


class BookingNotOpenError(ReservationError):
    """A member booking before the session opens for booking (409)."""

    messages = {"booking_not_open": MSG_BOOKING_NOT_OPEN}
    statuses = {"booking_not_open": CONFLICT}


def refuse_if_not_open(session: CourseSession, now) -> None:
    """Under the session lock (its course read with it): refuse a member's booking before booking opens."""
    opens_at = session_booking_opens_at(session)
    if now < opens_at:
        raise BookingNotOpenError.of("booking_not_open", when=moment_text(opens_at))
