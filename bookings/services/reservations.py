"""Member reservations: a hold on a session, its confirmation (also after a card payment), the e-mail."""

import logging
from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.tasks import task
from django.utils import timezone

from studio.queue import enqueue_after_commit
from waivers.services import declaration_require

from ..emails import send_reservation_confirmation
from ..models import (
    DeskPayment,
    Reservation,
    ReservationStatus,
)
from .availability import active_reservations_q, session_seats_taken
from .common import ReservationError
from .late_cancellation import late_cancellations_settle_after_commit
from .locking import (
    checked_request_on_locked_session,
    lock_reservation,
    lock_session_of_reservation,
    member_hold_with_seats_checked,
    payment_open_on,
    plainly_full_for,
    priced_total,
    total_as_priced,
)
from .session_status import refuse_if_cancelled

logger = logging.getLogger(__name__)


def _reservation_details(session, participants, first_name, last_name, email, message) -> dict:
    return {
        "participants": participants,
        "unit_price": session.price_per_participant,
        "first_name": first_name,
        "last_name": last_name,
        "email": email,
        "message": message or "",
    }


def _reservation_save(*, existing: Reservation | None, session, user, fields: dict) -> Reservation:
    if existing is None:
        return Reservation.objects.create(session=session, user=user, **fields)
    for name, value in fields.items():
        setattr(existing, name, value)
    existing.session = session  # the locked row (with its course when the caller read it)
    existing.save(update_fields=list(fields))
    return existing


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
    `expected_total`, when the browser sends one, must equal the server's price (docs/decisions.md 12).
    """
    declaration_require(member=user)  # the health questionnaire and documents first (docs/decisions.md 48)
    now = timezone.now()
    refused = plainly_full_for(
        session_id=session_id,
        user=user,
        participants=participants,
        first_name=first_name,
        last_name=last_name,
        email=email,
        now=now,
        expected_total=expected_total,
    )
    if refused is not None:
        raise refused
    with transaction.atomic():  # the hold itself, under the session lock: every check again, then the seat
        return _hold_under_lock(
            user=user,
            session_id=session_id,
            participants=participants,
            names=(first_name, last_name, email),
            message=message,
            expected_total=expected_total,
            now=now,
        )


def _hold_under_lock(*, user, session_id: int, participants: int, names, message: str, expected_total, now):
    first_name, last_name, email = names
    first_name, last_name, email, participants, session = checked_request_on_locked_session(
        session_id=session_id,
        participants=participants,
        first_name=first_name,
        last_name=last_name,
        email=email,
        now=now,
    )
    if not total_as_priced(session, participants, expected_total):
        raise ReservationError.of("amount_mismatch", field="total_amount", expected=priced_total(session, participants))
    existing = member_hold_with_seats_checked(session=session, user=user, participants=participants, now=now)
    fields = {
        **_reservation_details(session, participants, first_name, last_name, email, message),
        "status": ReservationStatus.HELD,
        "hold_expires_at": now + timedelta(minutes=settings.SEAT_HOLD_MINUTES),
    }
    if existing is not None and existing.hold_expires_at and existing.hold_expires_at > fields["hold_expires_at"]:
        # A seat the waiting list offered keeps its longer hold while the member pays.
        fields["hold_expires_at"] = existing.hold_expires_at
    if payment_open_on(existing):
        # An order prices this hold: its seats and price stay what the order pays (docs/decisions.md 14).
        if participants != existing.participants:
            raise ReservationError.of("participants_locked_by_payment", participants=existing.participants)
        fields["unit_price"] = existing.unit_price
    return _reservation_save(existing=existing, session=session, user=user, fields=fields)


@transaction.atomic
def reservation_confirm(*, reservation_id: int) -> Reservation:
    """Confirm a held reservation. Idempotent: confirming a confirmed reservation returns it unchanged.

    A hold that lapsed is confirmed only if its seats are still free. The French confirmation e-mail with its
    .ics goes out once, after the commit of the transition.
    """
    session = lock_session_of_reservation(reservation_id)
    if session is None:
        raise ReservationError.of("reservation_not_found")
    return _confirm_locked(session=session, reservation=lock_reservation(reservation_id))


def _confirm_locked(*, session, reservation: Reservation, notify: bool = True) -> Reservation:
    """Under the session's and the reservation's row locks: confirm it (see `reservation_confirm`). Every refusal is
    raised before any write, so a caller's transaction can go on after one (payments refund then). `notify=False`:
    the caller sends the confirmation e-mail itself (`reservation_confirmation_email`, once the commit is done)."""
    if reservation.status == ReservationStatus.CONFIRMED:
        return reservation
    refuse_if_cancelled(session)
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
            raise ReservationError.of("already_reserved")
        if session_seats_taken(session=session, now=now) + reservation.participants > session.max_attendees:
            raise ReservationError.of("hold_lost")
    reservation.status = ReservationStatus.CONFIRMED
    reservation.confirmed_at = now
    reservation.hold_expires_at = None
    reservation.cancel_reason = ""  # a lapsed hold confirmed after all by its payment
    reservation.session = session  # the locked row: the feeds' receiver reads its weeks without a query
    reservation.save(update_fields=["status", "confirmed_at", "hold_expires_at", "cancel_reason"])
    late_cancellations_settle_after_commit(session=session, now=now)
    if notify:
        enqueue_after_commit(reservation_confirmation_send, reservation_id=reservation.pk)
    return reservation


def reservation_confirm_for_payment(
    *, reservation_id: int, participants: int, amount: Decimal, notify: bool = True, at_desk: bool = False
) -> Reservation:
    """Confirm the reservation a captured card payment paid for, only if the payment is exactly what it costs.

    Called by payments inside the capture's transaction, under the PaymentOrder's row lock (then session →
    reservation, the lock order in locking.py); outside a transaction the first lock raises. Raises
    ReservationError, confirming nothing and writing nothing, when the reservation is already confirmed (by another
    payment or a pass), was cancelled, no longer has the participants and amount the order paid for, or lost its
    seats after its hold lapsed: the caller refunds, in the same transaction (no savepoint is needed: a refusal
    comes before any write). `notify=False`: the caller sends the confirmation e-mail (payments: in the task that
    sends the receipt, after the commit).

    `at_desk`: a sale made at the front desk (docs/decisions.md 43, 50) pays the booking: it confirms it like a card
    payment, or settles a booking staff made "à régler" (confirmed already, its payment due), which is then paid.
    """
    session = lock_session_of_reservation(reservation_id)
    if session is None:
        raise ReservationError.of("reservation_not_found")
    reservation = lock_reservation(reservation_id)
    if at_desk and reservation.status == ReservationStatus.CONFIRMED and reservation.desk_payment == DeskPayment.DUE:
        if reservation.participants != participants or reservation.total_amount != amount:
            raise ReservationError.of("payment_does_not_match")
        reservation.desk_payment = DeskPayment.PAID
        reservation.save(update_fields=["desk_payment"])
        return reservation
    if reservation.status == ReservationStatus.CONFIRMED or reservation.paid_with_pass_id:
        raise ReservationError.of("reservation_already_paid")
    if reservation.status == ReservationStatus.CANCELLED:
        raise ReservationError.of("reservation_was_cancelled")
    if reservation.participants != participants or reservation.total_amount != amount:
        raise ReservationError.of("payment_does_not_match")
    reservation = _confirm_locked(session=session, reservation=reservation, notify=notify)
    if at_desk:  # after every refusal: the caller's transaction goes on after one
        reservation.desk_payment = DeskPayment.PAID
        reservation.save(update_fields=["desk_payment"])
    return reservation


@task
def reservation_confirmation_send(reservation_id: int) -> None:
    """The confirmation e-mail of a reservation (templates and .ics rendered by a worker, not in the request that
    confirmed it), recorded in the outbox; queued once, after the confirmation's commit."""
    reservation_confirmation_email(reservation_id=reservation_id)


def reservation_confirmation_email(*, reservation_id: int) -> None:
    """The confirmation e-mail of a confirmed reservation with its .ics, recorded in the outbox (the worker's task,
    queued once after the confirmation's commit; payments calls it in the task that sends the receipt)."""
    try:
        send_reservation_confirmation(reservation_id=reservation_id)
    except Exception:  # the reservation stands even if the mail cannot be built
        logger.exception("Reservation confirmation e-mail failed for reservation %s", reservation_id)
