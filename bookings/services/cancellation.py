"""Cancellations: a member cancels in time (credits back or an 'avoir') or late (late_cancellation.py); a refunded
payment takes back what it paid."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.tasks import task
from django.utils import timezone

from courses.booking_windows import session_free_cancellation_until
from courses.models import CourseSession
from studio.errors import CONFLICT
from studio.queue import enqueue_after_commit

from ..cancellation_emails import send_reservation_cancelled
from ..models import (
    CancelReason,
    Pass,
    PassAdjustment,
    PassAdjustmentAction,
    PassKind,
    PaymentPending,
    Reservation,
    ReservationStatus,
)
from .common import ReservationError, _as_id, _fr_date
from .late_cancellation import (
    cancellation_credit_pass_create,
    confirmed_seats,
    late_cancellation_message,
    late_cancellation_record,
    paid_in_money,
)
from .locking import lock_pass, lock_reservation, lock_session_of_reservation
from .waitlist import waitlist_offer_session

# Cancellation: free until the course's free-cancellation window, late afterwards (docs/decisions.md 44).
MSG_CANCEL_NOT_CONFIRMED = "Seule une réservation confirmée peut être annulée."
MSG_CANCEL_SESSION_STARTED = "Ce cours a déjà commencé : la réservation ne peut plus être annulée."
# An unpaid hold the member gives up (from "Mes cours"): its seats go back at once, nothing was charged.
MSG_HOLD_RELEASED = "Réservation annulée : les places retenues sont libérées, rien ne vous a été facturé."
MSG_HOLD_PAYMENT_IN_PROGRESS = (
    "Le paiement de cette réservation est en cours de validation : elle ne peut pas être annulée pour l'instant."
)
MSG_CANCELLED_CREDITS_RETURNED = "Réservation annulée : {credits} crédit(s) rendu(s) sur votre {title}."
MSG_CANCELLED_SUBSCRIPTION = "Réservation annulée : votre place est libérée."
MSG_CANCELLED_CREDIT_PASS = (
    "Réservation annulée : {credits} crédit(s) valable(s) jusqu'au {date} ajouté(s) à vos cartes "
    "(pas de remboursement automatique)."
)


@dataclass(frozen=True)
class CancellationOutcome:
    reservation: Reservation
    message: str
    credit_pass: Pass | None = None
    late: bool = False


def cancellation_deadline(session: CourseSession) -> datetime:
    """The end of the free cancellation (the session's course read with it)."""
    return session_free_cancellation_until(session)


@transaction.atomic
def reservation_cancel(*, user, reservation_id: int) -> CancellationOutcome:
    """The member cancels a confirmed reservation before the class starts, or releases an unpaid hold
    (`_hold_release`). The seats are free at once (offered to the waiting list).

    Until the course's free-cancellation window: credits spent on a card go back to it, a subscription simply frees
    the place, a reservation paid by card becomes an 'avoir' (a class card of one credit per participant, valid
    CANCELLATION_CREDIT_MONTHS months; studios do not refund automatically). Later (a late cancellation,
    `late=True`): the studio keeps the credits or the payment unless the class fills back before it starts
    (late_cancellation.py).
    """
    reservation_id = _as_id(reservation_id) or 0
    session = lock_session_of_reservation(reservation_id, user=user, with_course=True)
    if session is None:
        raise ReservationError.of("reservation_not_found")
    # Under the session lock the reservation's pass cannot change (every writer locks the session first).
    pass_id = Reservation.objects.filter(pk=reservation_id).values_list("paid_with_pass_id", flat=True).first()
    pass_obj = lock_pass(pass_id) if pass_id else None
    reservation = lock_reservation(reservation_id)
    reservation.session, reservation.paid_with_pass = session, pass_obj
    now = timezone.now()
    if (
        reservation.status == ReservationStatus.HELD
        and reservation.hold_expires_at
        and reservation.hold_expires_at > now
    ):
        return _hold_release(reservation=reservation, session=session, now=now)
    if reservation.status != ReservationStatus.CONFIRMED:
        raise ReservationError(MSG_CANCEL_NOT_CONFIRMED, code="cancel_not_confirmed")
    if session.start <= now:
        raise ReservationError(MSG_CANCEL_SESSION_STARTED, code="cancel_session_started")
    late = now > cancellation_deadline(session)
    seats_taken_before = confirmed_seats(session.pk)
    reservation.status, reservation.cancelled_at, reservation.cancel_reason = (
        ReservationStatus.CANCELLED,
        now,
        CancelReason.LATE if late else CancelReason.MEMBER,
    )
    reservation.save(update_fields=["status", "cancelled_at", "cancel_reason"])
    enqueue_after_commit(waitlist_offer_session, session_id=session.pk)  # the freed seats go to the waiting list
    if late:
        late_cancellation_record(reservation=reservation, seats_taken_before=seats_taken_before)
        message = late_cancellation_message(reservation)
        enqueue_after_commit(reservation_cancellation_send, reservation_id=reservation.pk, outcome=message)
        return CancellationOutcome(reservation=reservation, message=message, late=True)
    credit_pass = None
    if pass_obj is not None:
        if pass_obj.kind == PassKind.CARD and reservation.credits_spent:
            pass_obj.credits_left += reservation.credits_spent
            pass_obj.save(update_fields=["credits_left"])
            PassAdjustment.objects.create(
                pass_ref=pass_obj,
                action=PassAdjustmentAction.RETURN,
                credits_delta=reservation.credits_spent,
                reservation=reservation,
            )
            message = MSG_CANCELLED_CREDITS_RETURNED.format(credits=reservation.credits_spent, title=pass_obj.title)
        else:
            message = MSG_CANCELLED_SUBSCRIPTION
    elif paid_in_money(reservation):
        credit_pass = cancellation_credit_pass_create(reservation=reservation, now=now)
        message = MSG_CANCELLED_CREDIT_PASS.format(
            credits=reservation.participants, date=_fr_date(credit_pass.expires_on)
        )
    else:
        message = MSG_CANCELLED_SUBSCRIPTION
    enqueue_after_commit(reservation_cancellation_send, reservation_id=reservation.pk, outcome=message)
    return CancellationOutcome(reservation=reservation, message=message, credit_pass=credit_pass)


@task
def reservation_cancellation_send(reservation_id: int, outcome: str) -> None:
    """The e-mail of a member's own cancellation with its calendar CANCEL (rendered by a worker, not in the
    request), recorded in the outbox; queued once, after the cancellation's commit."""
    send_reservation_cancelled(reservation_id=reservation_id, outcome=outcome)


def _hold_release(*, reservation: Reservation, session: CourseSession, now) -> CancellationOutcome:
    """Under the session and reservation locks: the member gives up an unpaid hold. Its seats are free at once (the
    waiting list is offered them); nothing was paid, so nothing is given back and no e-mail goes out. A payment the
    payer has already approved may be captured at any moment: the hold stays until it is (or until it lapses). An
    order still open (not approved) can no longer confirm it: a capture of it is refunded (payments)."""
    if reservation.payment_pending == PaymentPending.APPROVED:
        raise ReservationError(MSG_HOLD_PAYMENT_IN_PROGRESS, code="hold_payment_in_progress", status=CONFLICT)
    reservation.status, reservation.cancelled_at, reservation.cancel_reason = (
        ReservationStatus.CANCELLED,
        now,
        CancelReason.MEMBER,
    )
    reservation.save(update_fields=["status", "cancelled_at", "cancel_reason"])
    enqueue_after_commit(waitlist_offer_session, session_id=session.pk)
    return CancellationOutcome(reservation=reservation, message=MSG_HOLD_RELEASED)


@transaction.atomic
def bookings_release_for_refund(*, order) -> None:
    """A refunded payment takes back what it paid for (called by payments when PayPal reports a refund).

    The reservation it paid is cancelled and its seats are free at once; the pass it granted keeps no credit and
    ends yesterday, with a ledger line. Idempotent: a second refund event changes nothing.
    """
    yesterday = timezone.localdate() - timedelta(days=1)
    # Only the payment that confirmed the reservation takes it back: an order refunded because it paid for nothing
    # (never completed) leaves alone the reservation another payment or a pass paid for.
    # Lock order (locking.py): the order is locked by payments; then the session, the pass, the reservation.
    takes_back_reservation = bool(order.reservation_id and order.completed_at is not None)
    if takes_back_reservation:
        lock_session_of_reservation(order.reservation_id)
    pass_obj = lock_pass(order.granted_pass_id) if order.granted_pass_id else None
    if takes_back_reservation:
        reservation = lock_reservation(order.reservation_id)
        paid_by_this_order = not reservation.paid_with_pass_id
        if paid_by_this_order and reservation.status in (ReservationStatus.HELD, ReservationStatus.CONFIRMED):
            reservation.status = ReservationStatus.CANCELLED
            reservation.cancelled_at = timezone.now()
            reservation.cancel_reason = CancelReason.REFUNDED
            reservation.save(update_fields=["status", "cancelled_at", "cancel_reason"])
            enqueue_after_commit(waitlist_offer_session, session_id=reservation.session_id)
    if pass_obj is None or (pass_obj.credits_left == 0 and pass_obj.expires_on <= yesterday):
        return
    before = pass_obj.expires_on
    credits = pass_obj.credits_left
    pass_obj.credits_left = 0
    pass_obj.expires_on = yesterday
    pass_obj.starts_on = min(pass_obj.starts_on, yesterday)
    pass_obj.save(update_fields=["credits_left", "expires_on", "starts_on"])
    PassAdjustment.objects.create(
        pass_ref=pass_obj,
        action=PassAdjustmentAction.REFUND,
        credits_delta=-credits,
        expires_on_before=before,
        expires_on_after=yesterday,
        reason=f"Commande {order.order_id} remboursée",
    )
