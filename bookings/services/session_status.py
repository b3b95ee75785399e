"""A class the studio cancelled (docs/decisions.md 27) is shown "Annulé" in the calendar and never booked again:
every booking path checks it under the session lock (locking.py's request checks, the confirmation)."""

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
