"""Course sessions (staff): create, update, delete."""

from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils import timezone

from courses.models import Course, CourseSession, Level
from studio.cache import bump_public_cache

from .availability import session_seats_taken
from .common import MSG_SESSION_NOT_FOUND, SessionError

# --- Staff session form (SPEC.md 5, 7, 8) ---
MSG_SESSION_FIELDS_REQUIRED = "Veuillez renseigner le cours, la date et le professeur."
MSG_COURSE_NOT_FOUND = "Ce cours n'existe pas."
MSG_SESSION_DATE_INVALID = "La date doit être au format AAAA-MM-JJ HH:MM:SS."
MSG_SESSION_END_BEFORE_START = "La fin de la session doit être après son début."
MSG_MAX_ATTENDEES_MIN = "Le nombre de places doit être d'au moins 1."
MSG_MAX_BELOW_TAKEN = "Impossible de descendre sous {taken} place(s) : elles sont déjà réservées."
MSG_LEVEL_INVALID = "Le niveau doit être Débutant, Intermédiaire, Avancé ou Tous niveaux."
MSG_PRICE_INVALID = "Le prix par participant doit être un montant positif."
MSG_SESSION_HAS_RESERVATIONS = (
    "Impossible de supprimer cette session : elle a déjà des réservations. Modifiez-la plutôt."
)
MSG_SESSION_ADDED = "Session ajoutée avec succès !"
MSG_SESSION_UPDATED = "Session modifiée avec succès !"
MSG_SESSION_DELETED = "Session supprimée avec succès !"


def parse_paris_datetime(value) -> datetime:
    """'YYYY-MM-DD HH:MM:SS' (SPEC.md 7) read as Europe/Paris; also accepts 'YYYY-MM-DDTHH:MM' and ISO with offset."""
    if isinstance(value, datetime):
        parsed = value
    else:
        text = str(value or "").strip()
        if not text:
            raise SessionError(MSG_SESSION_FIELDS_REQUIRED)
        try:
            parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            raise SessionError(MSG_SESSION_DATE_INVALID) from None
    if timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed, timezone.get_default_timezone())
    return parsed


def _session_fields(*, course_id, start, instructor, level, max_attendees, details, end, price_per_participant) -> dict:
    instructor = (instructor or "").strip()
    if not course_id or not start or not instructor:
        raise SessionError(MSG_SESSION_FIELDS_REQUIRED)
    try:
        course = Course.objects.get(pk=int(course_id))
    except (Course.DoesNotExist, TypeError, ValueError):
        raise SessionError(MSG_COURSE_NOT_FOUND) from None
    start = parse_paris_datetime(start)
    end = parse_paris_datetime(end) if end else start + timedelta(minutes=course.duration or 60)
    if end <= start:
        raise SessionError(MSG_SESSION_END_BEFORE_START)
    level = (level or "").strip()
    if level and level not in Level.values:
        raise SessionError(MSG_LEVEL_INVALID)
    if max_attendees in (None, ""):
        max_attendees = 10
    try:
        max_attendees = int(max_attendees)
    except (TypeError, ValueError):
        raise SessionError(MSG_MAX_ATTENDEES_MIN) from None
    if max_attendees < 1:
        raise SessionError(MSG_MAX_ATTENDEES_MIN)
    fields = {
        "course": course,
        "start": start,
        "end": end,
        "instructor": instructor[:150],
        "level": level,
        "max_attendees": max_attendees,
        "details": details or "",
    }
    if price_per_participant not in (None, ""):
        try:
            price = Decimal(str(price_per_participant)).quantize(Decimal("0.01"))
        except (InvalidOperation, ValueError):
            raise SessionError(MSG_PRICE_INVALID) from None
        if price < 0:
            raise SessionError(MSG_PRICE_INVALID)
        fields["price_per_participant"] = price
    return fields


@transaction.atomic
def course_session_create(
    *,
    course_id: int,
    start,
    instructor: str,
    level: str = "",
    max_attendees: int | None = 10,
    details: str = "",
    end=None,
    price_per_participant=None,
) -> CourseSession:
    fields = _session_fields(
        course_id=course_id,
        start=start,
        instructor=instructor,
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
    start,
    instructor: str,
    level: str = "",
    max_attendees: int | None = 10,
    details: str | None = None,
    end=None,
    price_per_participant=None,
) -> CourseSession:
    """Change a session. Places cannot drop below the seats already taken (checked under the session lock)."""
    try:
        session = CourseSession.objects.select_for_update().get(pk=session_id)
    except CourseSession.DoesNotExist:
        raise SessionError(MSG_SESSION_NOT_FOUND) from None
    fields = _session_fields(
        course_id=course_id,
        start=start,
        instructor=instructor,
        level=level,
        max_attendees=max_attendees,
        details=session.details if details is None else details,
        end=end,
        price_per_participant=price_per_participant,
    )
    taken = session_seats_taken(session=session)
    if fields["max_attendees"] < taken:
        raise SessionError(MSG_MAX_BELOW_TAKEN.format(taken=taken))
    for name, value in fields.items():
        setattr(session, name, value)
    session.save()
    bump_public_cache()
    return session


@transaction.atomic
def course_session_delete(*, session_id: int) -> None:
    """Delete a session that nobody ever reserved; reservations are booking records and are kept."""
    try:
        session = CourseSession.objects.select_for_update().get(pk=session_id)
    except CourseSession.DoesNotExist:
        raise SessionError(MSG_SESSION_NOT_FOUND) from None
    if session.reservations.exists():
        raise SessionError(MSG_SESSION_HAS_RESERVATIONS)
    session.delete()
    bump_public_cache()


# --- EVJF / EVG ---
