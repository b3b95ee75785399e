"""Seat holds and reservations. Every write that checks seats locks the session row first (STYLE.md 3)."""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone

from courses.models import CourseSession

from .models import Reservation, ReservationStatus

MSG_SESSION_PAST = "Erreur - La date et l'heure sélectionnées sont déjà passées."
MSG_SESSION_FULL = "Cette session est complète."
MSG_NOT_ENOUGH_SEATS = "Il ne reste que {seats} place(s) pour cette session."
MSG_ALREADY_RESERVED = "Vous avez déjà une réservation pour cette session."
MSG_SESSION_NOT_FOUND = "Cette session n'existe pas."
MSG_HOLD_LOST = "Le délai de réservation est dépassé et la session est désormais complète."


class ReservationError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def active_reservations_q(now=None) -> Q:
    """Reservations that take seats: confirmed ones and holds that have not expired."""
    now = now or timezone.now()
    return Q(status=ReservationStatus.CONFIRMED) | Q(status=ReservationStatus.HELD, hold_expires_at__gt=now)


def session_seats_taken(*, session: CourseSession, now=None) -> int:
    taken = session.reservations.filter(active_reservations_q(now)).aggregate(total=Sum("participants"))["total"]
    return taken or 0


def session_seats_left(*, session: CourseSession, now=None) -> int:
    return max(session.max_attendees - session_seats_taken(session=session, now=now), 0)


def reservations_release_expired(*, session_id: int | None = None, now=None) -> int:
    """Mark lapsed holds EXPIRED so their seats are free. Returns how many were released."""
    now = now or timezone.now()
    qs = Reservation.objects.filter(status=ReservationStatus.HELD, hold_expires_at__lte=now)
    if session_id is not None:
        qs = qs.filter(session_id=session_id)
    return qs.update(status=ReservationStatus.EXPIRED)


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
) -> Reservation:
    """Hold `participants` seats on a session for SEAT_HOLD_MINUTES, or raise ReservationError."""
    now = timezone.now()
    try:
        session = CourseSession.objects.select_for_update().get(pk=session_id)
    except CourseSession.DoesNotExist:
        raise ReservationError(MSG_SESSION_NOT_FOUND) from None
    if session.start <= now:
        raise ReservationError(MSG_SESSION_PAST)
    reservations_release_expired(session_id=session.pk, now=now)
    if session.reservations.filter(
        user=user, status__in=[ReservationStatus.HELD, ReservationStatus.CONFIRMED]
    ).exists():
        raise ReservationError(MSG_ALREADY_RESERVED)
    seats_left = session_seats_left(session=session, now=now)
    if seats_left <= 0:
        raise ReservationError(MSG_SESSION_FULL)
    if participants > seats_left:
        raise ReservationError(MSG_NOT_ENOUGH_SEATS.format(seats=seats_left))
    return Reservation.objects.create(
        session=session,
        user=user,
        participants=participants,
        unit_price=session.price_per_participant,
        first_name=first_name,
        last_name=last_name,
        email=email,
        message=message,
        status=ReservationStatus.HELD,
        hold_expires_at=now + timedelta(minutes=settings.SEAT_HOLD_MINUTES),
    )


@transaction.atomic
def reservation_confirm(*, reservation_id: int) -> Reservation:
    """Confirm a held reservation. Idempotent: confirming a confirmed reservation returns it unchanged.

    A hold that lapsed is confirmed only if its seats are still free.
    """
    reservation = Reservation.objects.select_for_update().get(pk=reservation_id)
    if reservation.status == ReservationStatus.CONFIRMED:
        return reservation
    now = timezone.now()
    hold_lapsed = reservation.status != ReservationStatus.HELD or (
        reservation.hold_expires_at is not None and reservation.hold_expires_at <= now
    )
    if hold_lapsed:
        session = CourseSession.objects.select_for_update().get(pk=reservation.session_id)
        others = session_seats_taken(session=session, now=now)
        if reservation.status == ReservationStatus.HELD and reservation.hold_expires_at > now:
            others -= reservation.participants
        if others + reservation.participants > session.max_attendees:
            raise ReservationError(MSG_HOLD_LOST)
    reservation.status = ReservationStatus.CONFIRMED
    reservation.confirmed_at = now
    reservation.hold_expires_at = None
    reservation.save(update_fields=["status", "confirmed_at", "hold_expires_at"])
    return reservation
