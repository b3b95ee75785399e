"""Course sessions (staff): create, change, delete one session of the timetable.

Two rules concern the seats, which bookings (above courses) holds, and courses may not read them:

- Deletion: a reservation points to its session with `on_delete=PROTECT`, so a session anybody ever reserved is
  refused by Django's collector and the database's foreign key alike; that refusal is answered here in French.
- Places never drop below the seats taken. The change is made under the session's row lock (locking.py, lock 5),
  and the caller that can count seats reads them under that same lock and passes them in (`places_taken`):
  bookings/services/session_places.py, which the staff endpoints call.

The APIs validate and type the payload; these functions take typed values and keep the rules that need the database.
"""

from datetime import datetime, timedelta
from decimal import Decimal

from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone

from studio.cache import bump_public_cache
from studio.errors import BAD_REQUEST, CONFLICT, NOT_FOUND, ApplicationError

from ..models import Course, CourseSession, Instructor, Level
from .locking import lock_session

MSG_SESSION_ADDED = "Session ajoutée avec succès !"
MSG_SESSION_UPDATED = "Session modifiée avec succès !"
MSG_SESSION_DELETED = "Session supprimée avec succès !"
MSG_SESSION_NOT_FOUND = "Cette session n'existe pas."
# The staff session form: course, date and instructor required.
MSG_SESSION_FIELDS_REQUIRED = "Veuillez renseigner le cours, la date et le professeur."
MSG_COURSE_NOT_FOUND = "Ce cours n'existe pas."
MSG_SESSION_DATE_INVALID = "La date doit être au format AAAA-MM-JJ HH:MM:SS."
MSG_SESSION_END_BEFORE_START = "La fin de la session doit être après son début."
MSG_MAX_ATTENDEES_MIN = "Le nombre de places doit être d'au moins 1."
MSG_MAX_ATTENDEES_MAX = "Le nombre de places ne peut pas dépasser {max}."
MSG_MAX_BELOW_TAKEN = "Impossible de descendre sous {taken} place(s) : elles sont déjà réservées."
MSG_LEVEL_INVALID = "Le niveau doit être Débutant, Intermédiaire, Avancé ou Tous niveaux."
MSG_PRICE_INVALID = "Le prix par participant doit être un montant positif."
MSG_SESSION_HAS_RESERVATIONS = (
    "Impossible de supprimer cette session : elle a déjà des réservations. Pour ne pas la donner, utilisez "
    "« Annuler le cours » : les inscrits sont prévenus, remboursés ou recrédités."
)
# A session's instructor is a person of the instructors list, named by id.
MSG_INSTRUCTOR_UNKNOWN = "Ce professeur n'existe pas : choisissez-le dans la liste des professeurs."
MSG_INSTRUCTOR_INACTIVE = "Ce professeur n'est plus actif : choisissez-en un autre dans la liste."


class SessionWriteError(ApplicationError):
    """A staff write of a session refused with a French message (404 for what does not exist, 409 for a conflict
    with the seats or two dates that contradict each other)."""

    messages = {
        "session_fields_required": MSG_SESSION_FIELDS_REQUIRED,
        "course_not_found": MSG_COURSE_NOT_FOUND,
        "session_date_invalid": MSG_SESSION_DATE_INVALID,
        "session_end_before_start": MSG_SESSION_END_BEFORE_START,
        "max_attendees_min": MSG_MAX_ATTENDEES_MIN,
        "max_below_taken": MSG_MAX_BELOW_TAKEN,
        "level_invalid": MSG_LEVEL_INVALID,
        "price_invalid": MSG_PRICE_INVALID,
        "session_has_reservations": MSG_SESSION_HAS_RESERVATIONS,
        "session_not_found": MSG_SESSION_NOT_FOUND,
    }
    statuses = {
        "course_not_found": NOT_FOUND,
        # Two dates that each are valid but contradict each other (a schema cannot say it): a conflict.
        "session_end_before_start": CONFLICT,
        "max_below_taken": CONFLICT,
        "session_has_reservations": CONFLICT,
        "session_not_found": NOT_FOUND,
    }


def session_instructor(*, instructor_id: int, keeps: int | None = None) -> Instructor:
    """The instructor a session names: unknown id -> 400; an inactive one only if the session already had them
    (`keeps`: its instructor's id), so editing an old class does not force a new teacher on it."""
    instructor = Instructor.objects.filter(pk=instructor_id).first()
    if instructor is None:
        raise SessionWriteError(
            MSG_INSTRUCTOR_UNKNOWN, code="instructor_unknown", status=BAD_REQUEST, field="instructor_id"
        )
    if not instructor.active and instructor.pk != keeps:
        raise SessionWriteError(
            MSG_INSTRUCTOR_INACTIVE, code="instructor_inactive", status=CONFLICT, field="instructor_id"
        )
    return instructor


def session_fields(
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
    """The model fields of a session, with the rules the payload's types cannot say: the course and the instructor
    exist, the session ends after it starts (Paris time when no offset is given). Shared with series.py."""
    course = Course.objects.filter(pk=course_id).first()
    if course is None:
        raise SessionWriteError.of("course_not_found", field="course_id")
    if timezone.is_naive(start):
        start = timezone.make_aware(start, timezone.get_default_timezone())
    if end is not None and timezone.is_naive(end):
        end = timezone.make_aware(end, timezone.get_default_timezone())
    try:
        end = end or start + timedelta(minutes=course.duration or 60)
    except OverflowError:  # a start at the end of year 9999
        raise SessionWriteError.of("session_date_invalid", field="date") from None
    if end <= start:
        raise SessionWriteError.of("session_end_before_start", field="end_date")
    if level and level not in Level.values:
        raise SessionWriteError.of("level_invalid", field="level")
    if max_attendees < 1:
        raise SessionWriteError.of("max_attendees_min", field="max_attendees")
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
            raise SessionWriteError.of("price_invalid", field="price_per_participant")
        fields["price_per_participant"] = price_per_participant.quantize(Decimal("0.01"))
    return fields


def course_session_locked(*, session_id: int) -> CourseSession:
    """The session row under its lock (lock 5: call it before any pass or reservation lock); 404 when there is none."""
    session = lock_session(session_id)
    if session is None:
        raise SessionWriteError.of("session_not_found")
    return session


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
    fields = session_fields(
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
    session: CourseSession,
    places_taken: int,
    course_id: int,
    start: datetime,
    instructor_id: int,
    level: str = "",
    max_attendees: int = 10,
    details: str | None = None,
    end: datetime | None = None,
    price_per_participant: Decimal | None = None,
) -> CourseSession:
    """Change a session the caller holds locked (`course_session_locked`), its places never below `places_taken`,
    the seats the caller counted under that same lock (bookings/services/session_places.py)."""
    fields = session_fields(
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
    if fields["max_attendees"] < places_taken:
        raise SessionWriteError.of("max_below_taken", field="max_attendees", taken=places_taken)
    for name, value in fields.items():
        setattr(session, name, value)
    session.save()
    bump_public_cache()
    return session


@transaction.atomic
def course_session_delete(*, session_id: int) -> None:
    """Delete a session that nobody ever reserved, under its lock. Reservations are booking records and are kept:
    they protect their session (`on_delete=PROTECT`, the only relation that does), so the deletion is refused."""
    session = course_session_locked(session_id=session_id)
    try:
        session.delete()
    except ProtectedError as exc:
        raise SessionWriteError.of("session_has_reservations") from exc
    bump_public_cache()
