"""What an instructor account reaches: the classes of the instructor record linked to it, and their
attendance sheets. Staff reach every sheet; an instructor only their own, and only while their record is active."""

from datetime import datetime, timedelta

from accounts.models import Role
from courses.models import CourseSession, Instructor

from .sessions import sessions_with_seats

# Said to an account linked to no active instructor, by the pages and the API alike.
MSG_NOT_AN_INSTRUCTOR = "Votre compte n'est lié à aucun professeur actif : demandez-le à l'équipe du studio."

# The list shows the classes of the last week (attendance is marked after the class too) and the coming ones.
RECENT_DAYS = 7
MAX_LISTED = 60
LISTED_FIELDS = ("start", "end", "status", "max_attendees", "instructor_id", "course__title")


def teaching_instructor(user) -> Instructor | None:
    """The active instructor record an account teaches as: an instructor account's, or a staff member's who also
    teaches. None for anyone else (a member linked to a record has no access until an admin gives the role)."""
    if not (user and user.is_authenticated and (user.is_instructor or user.is_studio_staff)):
        return None
    return Instructor.objects.filter(user=user, active=True).first()


def instructor_sessions(*, instructor: Instructor, now: datetime) -> list[CourseSession]:
    """Their classes from a week ago on, soonest first, with seats taken: three queries whatever their number.

    The list (page and API) shows each class's course by its title alone: the course's other columns (description,
    pictures) are not read, and the instructor is the one given."""
    sessions = list(
        CourseSession.objects.filter(instructor=instructor, start__gte=now - timedelta(days=RECENT_DAYS))
        .select_related("course")
        .only(*LISTED_FIELDS)
        .order_by("start", "id")[:MAX_LISTED]
    )
    for session in sessions:
        session.instructor = instructor
    return sessions_with_seats(sessions, now=now)


def user_reaches_session_sheet(*, user, session_id: int) -> bool:
    """Staff: every session. An instructor account: the sessions of its own active instructor record."""
    if user.is_studio_staff:
        return True
    return CourseSession.objects.filter(
        pk=session_id, instructor__user=user, instructor__active=True, instructor__user__role=Role.INSTRUCTOR
    ).exists()
