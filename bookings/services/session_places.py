"""A session's places as the staff change them: never below the seats already taken, and places raised go to the
waiting list.

The session and its series are courses' (courses/services/sessions.py, series.py), but the seats are bookings':
courses sits below bookings and cannot count them. So the change is composed here, at the layer that sees both: the
session is locked first (lock 5 of the lock order, courses/services/locking.py), its seats are counted under that
lock, and courses' write refuses places below that count. The staff endpoints that change places (PUT/PATCH of a
session, "this and the following" of a series) call these functions; creating or deleting a session touches no seat
and goes to courses directly (a reserved session is protected by `Reservation.session`'s `on_delete=PROTECT`).
"""

from datetime import datetime, time
from decimal import Decimal

from django.db import transaction

from courses.models import CourseSession
from courses.services import sessions
from courses.services.series import series_following, series_moved
from studio.queue import enqueue_after_commit

from .availability import session_seats_taken
from .waitlist import waitlist_offer_session


@transaction.atomic
def course_session_update(
    *,
    session_id: int,
    course_id: int,
    start: datetime,
    instructor_id: int,
    level: str = "",
    max_attendees: int = 10,
    details: str | None = None,
    end: datetime | None = None,
    price_per_participant: Decimal | None = None,
) -> CourseSession:
    """Change a session (courses' rules), its places never below the seats taken, counted under the session lock."""
    session = sessions.course_session_locked(session_id=session_id)
    session = sessions.course_session_update(
        session=session,
        places_taken=session_seats_taken(session=session),
        course_id=course_id,
        start=start,
        instructor_id=instructor_id,
        level=level,
        max_attendees=max_attendees,
        details=details,
        end=end,
        price_per_participant=price_per_participant,
    )
    enqueue_after_commit(waitlist_offer_session, session_id=session.pk)  # raised places go to the waiting list
    return session


@transaction.atomic
def course_session_series_update_following(
    *,
    session_id: int,
    instructor_id: int,
    max_attendees: int,
    level: str = "",
    details: str = "",
    price_per_participant: Decimal | None = None,
    start_time: time | None = None,
) -> int:
    """Edit "this and the following" sessions of a series (not the cancelled ones): each is changed like one session
    (places never below its seats taken), all or none. `start_time` moves each to that Paris time, same length."""
    ids = series_following(session_id=session_id)
    for pk in ids:  # sessions locked one by one in id order
        session = sessions.course_session_locked(session_id=pk)
        start, end = series_moved(session, start_time)
        course_session_update(
            session_id=pk,
            course_id=session.course_id,
            start=start,
            end=end,
            instructor_id=instructor_id,
            level=level,
            max_attendees=max_attendees,
            details=details,
            price_per_participant=price_per_participant,
        )
    return len(ids)
