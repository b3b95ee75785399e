"""Course sessions (staff): create, update, delete.

These writes change `courses.CourseSession`, but they live in bookings because they need its seat counts (a session
cannot drop below the places already reserved, nor be deleted once reserved) and its lock order (locking.py):
courses knows nothing of reservations (payments → bookings → courses). The API validates and types the payload
(bookings/apis/sessions.py); these functions take typed values and keep the rules that need the database.
"""

from datetime import datetime, timedelta
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from courses.models import Course, CourseSession, Instructor, Level
from studio.cache import bump_public_cache
from studio.errors import BAD_REQUEST, CONFLICT
from studio.queue import enqueue_after_commit

from .availability import session_seats_taken
from .common import (
    SessionError,
)
from .locking import lock_session
from .waitlist import waitlist_offer_session

MSG_SESSION_ADDED = "Session ajoutée avec succès !"
MSG_SESSION_UPDATED = "Session modifiée avec succès !"
MSG_SESSION_DELETED = "Session supprimée avec succès !"
# A session's instructor is a person of the instructors list, named by id.
MSG_INSTRUCTOR_UNKNOWN = "Ce professeur n'existe pas : choisissez-le dans la liste des professeurs."
MSG_INSTRUCTOR_INACTIVE = "Ce professeur n'est plus actif : choisissez-en un autre dans la liste."

__all__ = [
    "MSG_INSTRUCTOR_INACTIVE",
    "MSG_INSTRUCTOR_UNKNOWN",
    "MSG_SESSION_ADDED",
    "MSG_SESSION_DELETED",
    "MSG_SESSION_UPDATED",
    "course_session_create",
    "course_session_delete",
    "course_session_update",
    "session_instructor",
]


def session_instructor(*, instructor_id: int, keeps: int | None = None) -> Instructor:
    """The instructor a session names: unknown id -> 400; an inactive one only if the session already had them
    (`keeps`: its instructor's id), so editing an old class does not force a new teacher on it."""
    instructor = Instructor.objects.filter(pk=instructor_id).first()
    if instructor is None:
        raise SessionError(MSG_INSTRUCTOR_UNKNOWN, code="instructor_unknown", status=BAD_REQUEST, field="instructor_id")
    if not instructor.active and instructor.pk != keeps:
        raise SessionError(MSG_INSTRUCTOR_INACTIVE, code="instructor_inactive", status=CONFLICT, field="instructor_id")
    return instructor


def _session_fields(
    *,
    course_id: int,
    start: datetime,
    instructor_id: int,
    level: str,
    max_attendees: int,
    details: str,
    end: datetime | None,
    price_per_participant: Decimal | None,
    keeps_instructor: int | None = None,
) -> dict:
    """The rules the payload's types cannot say: the course and the instructor exist, the session ends after it
    starts."""
    course = Course.objects.filter(pk=course_id).first()
    if course is None:
        raise SessionError.of("course_not_found", field="course_id")
    if timezone.is_naive(start):
        start = timezone.make_aware(start, timezone.get_default_timezone())
    if end is not None and timezone.is_naive(end):
        end = timezone.make_aware(end, timezone.get_default_timezone())
    try:
        end = end or start + timedelta(minutes=course.duration or 60)
    except OverflowError:  # a start at the end of year 9999
        raise SessionError.of("session_date_invalid", field="date") from None
    if end <= start:
        raise SessionError.of("session_end_before_start", field="end_date")
    if level and level not in Level.values:
        raise SessionError.of("level_invalid", field="level")
    if max_attendees < 1:
        raise SessionError.of("max_attendees_min", field="max_attendees")
    instructor = session_instructor(instructor_id=instructor_id, keeps=keeps_instructor)
    fields = {
        "course": course,
        "start": start,
        "end": end,
        "instructor": instructor,
        "level": level,
        "max_attendees": max_attendees,
        "details": details or "",
    }
    if price_per_participant is not None:
        if price_per_participant < 0:
            raise SessionError.of("price_invalid", field="price_per_participant")
        fields["price_per_participant"] = price_per_participant.quantize(Decimal("0.01"))
    return fields


@transaction.atomic
def course_session_create(
    *,
    course_id: int,
    start: datetime,
    instructor_id: int,
    level: str = "",
    max_attendees: int = 10,
    details: str = "",
    end: datetime | None = None,
    price_per_participant: Decimal | None = None,
) -> CourseSession:
    fields = _session_fields(
        course_id=course_id,
        start=start,
        instructor_id=instructor_id,
        level=level,
        max_attendees=max_attendees,
        details=details,
        end=end,
        price_per_participant=price_per_participant,
    )
    session = CourseSession.objects.create(**fields)
    bump_public_cache()
    return session


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
    """Change a session. Places cannot drop below the seats already taken (checked under the session lock)."""
    session = lock_session(session_id)
    if session is None:
        raise SessionError.of("session_not_found")
    fields = _session_fields(
        course_id=course_id,
        start=start,
        instructor_id=instructor_id,
        level=level,
        max_attendees=max_attendees,
        details=session.details if details is None else details,
        end=end,
        price_per_participant=price_per_participant,
        keeps_instructor=session.instructor_id,
    )
    taken = session_seats_taken(session=session)
    if fields["max_attendees"] < taken:
        raise SessionError.of("max_below_taken", field="max_attendees", taken=taken)
    for name, value in fields.items():
        setattr(session, name, value)
    session.save()
    enqueue_after_commit(waitlist_offer_session, session_id=session.pk)  # raised places go to the waiting list
    bump_public_cache()
    return session


@transaction.atomic
def course_session_delete(*, session_id: int) -> None:
    """Delete a session that nobody ever reserved; reservations are booking records and are kept."""
    session = lock_session(session_id)
    if session is None:
        raise SessionError.of("session_not_found")
    if session.reservations.exists():
        raise SessionError.of("session_has_reservations")
    session.delete()
    bump_public_cache()
