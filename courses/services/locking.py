"""The row lock of a course session: lock 5 of the project's lock order (docs/architecture.md, "Lock order").

Every write that counts or changes a session's seats, and every staff write of a session (places, times,
deletion), takes this lock first, after only the payment rows (payments/services/locking.py) and before any pass or
reservation (bookings/services/locking.py). It lives with the model so that courses' own writes take it without
reaching up to bookings; bookings' seat writes take the same helper.
"""

from ..models import CourseSession


def lock_session(session_id: int, *, with_course: bool = False) -> CourseSession | None:
    """The session row, locked (the first lock of every seat write), or None when it does not exist. `with_course`
    reads its course in the same query (only the session's row is locked)."""
    sessions = CourseSession.objects.filter(pk=session_id)
    if with_course:
        sessions = sessions.select_related("course").select_for_update(of=("self",))
    else:
        sessions = sessions.select_for_update()
    return sessions.first()
