"""Seat holds, reservations, course sessions, party requests and feedback.

Every write that checks seats locks the session row first (STYLE.md 3). Lock order is always session, then
reservation, so a hold and a confirmation on the same session never deadlock.
"""

import logging
from datetime import date as date_type
from datetime import datetime, timedelta
from datetime import time as time_type
from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone

from courses.models import Course, CourseSession, Level
from studio.cache import bump_public_cache

from .models import CourseFeedback, PartyEventType, PartyReservation, Reservation, ReservationStatus

logger = logging.getLogger(__name__)

# --- Reservation rules (SPEC.md 2.9, 5, 8; DECISIONS.md 12-13) ---
MSG_SESSION_PAST = "Erreur - La date et l'heure sélectionnées sont déjà passées."
MSG_SESSION_FULL = "Cette session est complète."
MSG_NOT_ENOUGH_SEATS = "Il ne reste que {seats} place(s) pour cette session."
MSG_ALREADY_RESERVED = "Vous avez déjà une réservation pour cette session."
MSG_SESSION_NOT_FOUND = "Cette session n'existe pas."
MSG_HOLD_LOST = "Le délai de réservation est dépassé et la session est désormais complète."
MSG_RESERVATION_NOT_FOUND = "Cette réservation n'existe pas."
MSG_RESERVATION_REQUIRED = "❌ Veuillez renseigner tous les champs obligatoires."
MSG_PARTICIPANTS_MIN = "Le nombre de participants doit être au moins 1."
MSG_AMOUNT_MISMATCH = "Le montant ne correspond pas au tarif de la session : {expected} €."
MSG_RESERVATION_SENT = "✅ Réservation envoyée avec succès !"

# --- Staff session form (SPEC.md 5, 7, 8) ---
MSG_SESSION_FIELDS_REQUIRED = "Veuillez renseigner le cours, la date et le professeur."
MSG_COURSE_NOT_FOUND = "Ce cours n'existe pas."
MSG_SESSION_DATE_INVALID = "La date doit être au format AAAA-MM-JJ HH:MM:SS."
MSG_SESSION_END_BEFORE_START = "La fin de la session doit être après son début."
MSG_MAX_ATTENDEES_MIN = "Le nombre de places doit être d'au moins 1."
MSG_MAX_BELOW_TAKEN = "Impossible de descendre sous {taken} place(s) : elles sont déjà réservées."
MSG_LEVEL_INVALID = "Le niveau doit être Débutant, Intermédiaire ou Avancé."
MSG_PRICE_INVALID = "Le prix par participant doit être un montant positif."
MSG_SESSION_HAS_RESERVATIONS = (
    "Impossible de supprimer cette session : elle a déjà des réservations. Modifiez-la plutôt."
)
MSG_SESSION_ADDED = "Session ajoutée avec succès !"
MSG_SESSION_UPDATED = "Session modifiée avec succès !"
MSG_SESSION_DELETED = "Session supprimée avec succès !"

# --- EVJF/EVG (SPEC.md 2.7, 5, 8) ---
MSG_PARTY_REQUIRED = "Veuillez remplir tous les champs requis."
MSG_PARTY_LOGIN_REQUIRED = "Vous devez être connecté pour réserver."
MSG_PARTY_SUCCESS = "Réservation effectuée avec succès ! 🎉"
MSG_PARTY_EVENT_TYPE_INVALID = "Le type d'événement doit être EVJF ou EVG."
MSG_PARTY_DATE_PAST = "La date choisie est déjà passée."

# --- Feedback (SPEC.md 2.19, 5, 8) ---
MSG_FEEDBACK_REQUIRED = "Veuillez remplir tous les champs pour le feedback"
MSG_FEEDBACK_RATING_RANGE = "La note doit être comprise entre 1 et 5."
MSG_FEEDBACK_NOT_FOLLOWED = "Vous ne pouvez donner votre avis que sur un cours que vous avez suivi."
MSG_FEEDBACK_SAVED = "Feedback enregistré avec succès"


class ReservationError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class SessionError(ReservationError):
    """A staff session write refused with a French message."""


class PartyReservationError(ReservationError):
    pass


class FeedbackError(ReservationError):
    pass


def active_reservations_q(now=None, prefix: str = "") -> Q:
    """Reservations that take seats: confirmed ones and holds that have not expired.

    `prefix` lets a session query filter its related reservations (prefix="reservations__").
    """
    now = now or timezone.now()
    return Q(**{f"{prefix}status": ReservationStatus.CONFIRMED}) | Q(
        **{f"{prefix}status": ReservationStatus.HELD, f"{prefix}hold_expires_at__gt": now}
    )


def session_seats_taken(*, session: CourseSession, now=None) -> int:
    taken = session.reservations.filter(active_reservations_q(now)).aggregate(total=Sum("participants"))["total"]
    return taken or 0


def session_seats_left(*, session: CourseSession, now=None) -> int:
    return max(session.max_attendees - session_seats_taken(session=session, now=now), 0)


def reservations_release_expired(*, session_id: int | None = None, now=None) -> int:
    """Mark lapsed holds EXPIRED so their seats are free. Returns how many were released.

    Confirmed reservations are never touched: only HELD rows whose hold has passed.
    """
    now = now or timezone.now()
    qs = Reservation.objects.filter(status=ReservationStatus.HELD, hold_expires_at__lte=now)
    if session_id is not None:
        qs = qs.filter(session_id=session_id)
    return qs.update(status=ReservationStatus.EXPIRED)


def _parse_participants(value) -> int:
    """SPEC.md 5: participants min 1; a non-numeric value falls back to 1."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return 1


@transaction.atomic
def reservation_hold(
    *,
    user,
    session_id: int,
    participants: int,
    first_name: str,
    last_name: str,
    email: str,
    message: str = "",
    expected_total: Decimal | None = None,
) -> Reservation:
    """Hold `participants` seats on a session for SEAT_HOLD_MINUTES, or raise ReservationError.

    A member who already holds (unpaid) seats on the session gets that same reservation back, updated and with a
    fresh hold, so closing the popup and trying again works. A confirmed reservation is refused as a duplicate.
    `expected_total`, when the browser sends one, must equal the server's price (DECISIONS.md 12).
    """
    first_name, last_name, email = (first_name or "").strip(), (last_name or "").strip(), (email or "").strip()
    if not (first_name and last_name and email):
        raise ReservationError(MSG_RESERVATION_REQUIRED)
    participants = _parse_participants(participants)
    if participants < 1:
        raise ReservationError(MSG_PARTICIPANTS_MIN)
    now = timezone.now()
    try:
        session = CourseSession.objects.select_for_update().get(pk=session_id)
    except (CourseSession.DoesNotExist, ValueError, TypeError):
        raise ReservationError(MSG_SESSION_NOT_FOUND) from None
    if session.start <= now:
        raise ReservationError(MSG_SESSION_PAST)
    if expected_total is not None:
        expected = (session.price_per_participant * participants).quantize(Decimal("0.01"))
        if Decimal(expected_total).quantize(Decimal("0.01")) != expected:
            raise ReservationError(MSG_AMOUNT_MISMATCH.format(expected=expected))
    reservations_release_expired(session_id=session.pk, now=now)
    existing = (
        session.reservations.select_for_update()
        .filter(user=user, status__in=[ReservationStatus.HELD, ReservationStatus.CONFIRMED])
        .first()
    )
    if existing is not None and existing.status == ReservationStatus.CONFIRMED:
        raise ReservationError(MSG_ALREADY_RESERVED)
    seats_left = session_seats_left(session=session, now=now) + (existing.participants if existing else 0)
    if seats_left <= 0:
        raise ReservationError(MSG_SESSION_FULL)
    if participants > seats_left:
        raise ReservationError(MSG_NOT_ENOUGH_SEATS.format(seats=seats_left))
    fields = {
        "participants": participants,
        "unit_price": session.price_per_participant,
        "first_name": first_name,
        "last_name": last_name,
        "email": email,
        "message": message or "",
        "status": ReservationStatus.HELD,
        "hold_expires_at": now + timedelta(minutes=settings.SEAT_HOLD_MINUTES),
    }
    if existing is not None:
        for name, value in fields.items():
            setattr(existing, name, value)
        existing.save(update_fields=list(fields))
        return existing
    return Reservation.objects.create(session=session, user=user, **fields)


@transaction.atomic
def reservation_confirm(*, reservation_id: int) -> Reservation:
    """Confirm a held reservation. Idempotent: confirming a confirmed reservation returns it unchanged.

    A hold that lapsed is confirmed only if its seats are still free. The French confirmation e-mail with its
    .ics goes out once, after the commit of the transition.
    """
    session_id = Reservation.objects.filter(pk=reservation_id).values_list("session_id", flat=True).first()
    if session_id is None:
        raise ReservationError(MSG_RESERVATION_NOT_FOUND)
    session = CourseSession.objects.select_for_update().get(pk=session_id)
    reservation = Reservation.objects.select_for_update().get(pk=reservation_id)
    if reservation.status == ReservationStatus.CONFIRMED:
        return reservation
    now = timezone.now()
    hold_lapsed = reservation.status != ReservationStatus.HELD or (
        reservation.hold_expires_at is not None and reservation.hold_expires_at <= now
    )
    if hold_lapsed:
        if (
            Reservation.objects.filter(session=session, user_id=reservation.user_id)
            .exclude(pk=reservation.pk)
            .filter(active_reservations_q(now))
            .exists()
        ):
            raise ReservationError(MSG_ALREADY_RESERVED)
        if session_seats_taken(session=session, now=now) + reservation.participants > session.max_attendees:
            raise ReservationError(MSG_HOLD_LOST)
    reservation.status = ReservationStatus.CONFIRMED
    reservation.confirmed_at = now
    reservation.hold_expires_at = None
    reservation.save(update_fields=["status", "confirmed_at", "hold_expires_at"])
    transaction.on_commit(lambda: _send_reservation_confirmation(reservation.pk))
    return reservation


def _send_reservation_confirmation(reservation_id: int) -> None:
    from .emails import send_reservation_confirmation

    try:
        send_reservation_confirmation(reservation_id=reservation_id)
    except Exception:  # the reservation stands even if the mail server is down
        logger.exception("Reservation confirmation e-mail failed for reservation %s", reservation_id)


# --- Course sessions (staff) ---


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


def _parse_date(value) -> date_type | None:
    if isinstance(value, date_type):
        return value
    try:
        return date_type.fromisoformat(str(value).strip())
    except ValueError:
        return None


def _parse_time(value) -> time_type | None:
    if isinstance(value, time_type):
        return value
    try:
        return time_type.fromisoformat(str(value).strip())
    except ValueError:
        return None


@transaction.atomic
def party_reservation_create(
    *,
    user,
    event_type: str = PartyEventType.EVJF,
    date,
    time,
    participants,
    email: str,
    message: str = "",
    first_name: str = "",
    last_name: str = "",
    title: str = "",
) -> PartyReservation:
    """Store an EVJF/EVG request and e-mail it to the studio and the member (after commit)."""
    if user is None or not user.is_authenticated:
        raise PartyReservationError(MSG_PARTY_LOGIN_REQUIRED)
    email = (email or "").strip()
    if not (date and time and email) or participants in (None, ""):
        raise PartyReservationError(MSG_PARTY_REQUIRED)
    event_type = (event_type or PartyEventType.EVJF).strip().upper()
    if event_type not in PartyEventType.values:
        raise PartyReservationError(MSG_PARTY_EVENT_TYPE_INVALID)
    parsed_date, parsed_time = _parse_date(date), _parse_time(time)
    if parsed_date is None or parsed_time is None:
        raise PartyReservationError(MSG_PARTY_REQUIRED)
    if parsed_date < timezone.localdate():
        raise PartyReservationError(MSG_PARTY_DATE_PAST)
    try:
        participants = int(participants)
    except (TypeError, ValueError):
        raise PartyReservationError(MSG_PARTICIPANTS_MIN) from None
    if participants < 1:
        raise PartyReservationError(MSG_PARTICIPANTS_MIN)
    party = PartyReservation.objects.create(
        user=user,
        event_type=event_type,
        date=parsed_date,
        time=parsed_time,
        participants=participants,
        email=email,
        first_name=(first_name or user.first_name or "").strip(),
        last_name=(last_name or user.last_name or "").strip(),
        title=(title or "").strip()[:200],
        message=message or "",
    )
    transaction.on_commit(lambda: _send_party_emails(party.pk))
    return party


def _send_party_emails(party_id: int) -> None:
    from .emails import send_party_reservation_emails

    try:
        send_party_reservation_emails(party_id=party_id)
    except Exception:
        logger.exception("Party reservation e-mails failed for %s", party_id)


# --- Feedback ---


@transaction.atomic
def course_feedback_save(*, user, course_id, rating, comment: str) -> CourseFeedback:
    """Create or change the member's feedback on a course they followed (a confirmed reservation on a past session)."""
    comment = (comment or "").strip()
    if rating in (None, "") or not comment or not course_id:
        raise FeedbackError(MSG_FEEDBACK_REQUIRED)
    try:
        rating = int(rating)
    except (TypeError, ValueError):
        raise FeedbackError(MSG_FEEDBACK_RATING_RANGE) from None
    if not 1 <= rating <= 5:
        raise FeedbackError(MSG_FEEDBACK_RATING_RANGE)
    try:
        course_id = int(course_id)
    except (TypeError, ValueError):
        raise FeedbackError(MSG_COURSE_NOT_FOUND) from None
    followed = Reservation.objects.filter(
        user=user,
        session__course_id=course_id,
        status=ReservationStatus.CONFIRMED,
        session__start__lte=timezone.now(),
    ).exists()
    if not followed:
        raise FeedbackError(MSG_FEEDBACK_NOT_FOLLOWED)
    # update_or_create locks the row and, on a concurrent insert, retries the read (one row per member and course).
    feedback, _ = CourseFeedback.objects.update_or_create(
        user=user, course_id=course_id, defaults={"rating": rating, "comment": comment}
    )
    return feedback
