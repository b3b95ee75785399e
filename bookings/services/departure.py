"""A member leaving the studio (their account deleted, docs/decisions.md 34): every future booking is cancelled
as their own cancellation would be, so their seats are free at once.

A confirmed booking before its free-cancellation deadline goes through `reservation_cancel`, with its rules: credits
back on the class card, the place freed on a subscription, an 'avoir' for a card payment. A later one and a hold
still being paid are dropped with nothing given back: a closed account has no use for what a late cancellation
might give back if the seat is taken again. Waiting-list places are left. Each booking in its own transaction, under
the usual locks (session → reservation, locking.py); the freed seats go to the waiting list.
"""

from django.db import transaction
from django.utils import timezone

from studio.queue import enqueue_after_commit

from ..models import ACTIVE_STATUSES, CancelReason, Reservation, ReservationStatus
from ..models_operations import WaitlistEntry, WaitlistStatus
from .cancellation import cancellation_deadline, reservation_cancel
from .common import ReservationError
from .locking import lock_reservation, lock_session_of_reservation
from .waitlist import WaitlistError, waitlist_leave, waitlist_offer_session


def member_future_bookings_cancel(*, user) -> list[str]:
    """Cancel the member's bookings of sessions not started yet; answers what each cancellation said."""
    now = timezone.now()
    live_entries = WaitlistEntry.objects.filter(
        user=user, status__in=(WaitlistStatus.WAITING, WaitlistStatus.OFFERED), session__start__gt=now
    ).values_list("session_id", flat=True)
    for session_id in list(live_entries):
        try:
            with transaction.atomic():
                waitlist_leave(user=user, session_id=session_id)
        except WaitlistError:
            pass  # left meanwhile
    outcomes = []
    future = Reservation.objects.filter(user=user, status__in=ACTIVE_STATUSES, session__start__gt=now).order_by("pk")
    for reservation in list(future.select_related("session__course")):
        reservation_id = reservation.pk
        if reservation.status == ReservationStatus.CONFIRMED and now <= cancellation_deadline(reservation.session):
            try:
                outcomes.append(reservation_cancel(user=user, reservation_id=reservation_id).message)
                continue
            except ReservationError:
                pass  # changed meanwhile: dropped below, nothing given back
        if _reservation_drop(user=user, reservation_id=reservation_id):
            outcomes.append(MSG_DROPPED)
    return outcomes


MSG_DROPPED = "Réservation annulée : votre place est libérée."


@transaction.atomic
def _reservation_drop(*, user, reservation_id: int) -> bool:
    session = lock_session_of_reservation(reservation_id, user=user)
    if session is None:
        return False
    reservation = lock_reservation(reservation_id)
    if reservation.status not in ACTIVE_STATUSES:
        return False
    reservation.status = ReservationStatus.CANCELLED
    reservation.cancelled_at = timezone.now()
    reservation.cancel_reason = CancelReason.LATE  # as a late cancellation: nothing given back
    reservation.save(update_fields=["status", "cancelled_at", "cancel_reason"])
    enqueue_after_commit(waitlist_offer_session, session_id=session.pk)
    return True
