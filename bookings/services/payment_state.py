"""The card payment of a hold, kept on the reservation itself (`Reservation.payment_pending`): payments reports each
change of its orders here, and bookings decides from its own row (`payment_open_on`, a member's release of a hold,
leaving the waiting list) without reading payments' orders or statuses."""

from django.db import transaction

from ..models import PaymentPending, Reservation
from .locking import lock_session_of_reservation


@transaction.atomic
def reservation_payment_pending_set(
    *, reservation_id: int, pending: PaymentPending, session_locked: bool = False
) -> None:
    """Record where the reservation's card payment stands. Called by payments under the order's row lock (its first
    lock), so this takes the session's then writes the reservation's (docs/architecture.md, "Lock order"): the
    readers, under the session lock, see it change only with the order that changed it. `session_locked`: the caller
    already holds the session's lock (payments recording a new order under the session and reservation locks)."""
    if not session_locked and lock_session_of_reservation(reservation_id) is None:
        return
    Reservation.objects.filter(pk=reservation_id).exclude(payment_pending=pending).update(payment_pending=pending)
