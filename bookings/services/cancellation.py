"""Cancellations: a member cancels in time (credits back or an 'avoir'), a refunded payment takes back what it paid."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.tasks import task
from django.utils import timezone

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
    PassOrigin,
    PaymentPending,
    Reservation,
    ReservationStatus,
)
from .common import ReservationError, _as_id
from .locking import lock_pass, lock_reservation, lock_session_of_reservation
from .passes import _fr_date, add_months
from .waitlist import waitlist_offer_session

# Cancellation (settings.CANCELLATION_WINDOW_HOURS before the session; no automatic refund of card payments).
MSG_CANCEL_TOO_LATE = (
    "Annulation impossible : les réservations s'annulent au plus tard {hours} heures avant le début du cours."
)
MSG_CANCEL_NOT_CONFIRMED = "Seule une réservation confirmée peut être annulée."
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
CANCELLATION_CREDIT_TITLE = "Avoir d'annulation"
CANCELLATION_CREDIT_MONTHS = 6  # a reservation paid by card and cancelled in time becomes credits valid 6 months


@dataclass(frozen=True)
class CancellationOutcome:
    reservation: Reservation
    message: str
    credit_pass: Pass | None = None


def cancellation_deadline(session: CourseSession) -> datetime:
    return session.start - timedelta(hours=settings.CANCELLATION_WINDOW_HOURS)


@transaction.atomic
def reservation_cancel(*, user, reservation_id: int) -> CancellationOutcome:
    """The member cancels a confirmed reservation up to CANCELLATION_WINDOW_HOURS before the session, or releases
    an unpaid hold (`_hold_release`).

    The seats are free at once. Credits spent on a card go back to it; a subscription simply frees the place; a
    reservation paid by card becomes an 'avoir': a new class card of one credit per participant, valid
    CANCELLATION_CREDIT_MONTHS months (studios do not refund automatically).
    """
    reservation_id = _as_id(reservation_id) or 0
    session = lock_session_of_reservation(reservation_id, user=user)
    if session is None:
        raise ReservationError.of("reservation_not_found")
    # Under the session lock the reservation's pass cannot change (every writer locks the session first).
    pass_id = Reservation.objects.filter(pk=reservation_id).values_list("paid_with_pass_id", flat=True).first()
    pass_obj = lock_pass(pass_id) if pass_id else None
    reservation = lock_reservation(reservation_id)
    now = timezone.now()
    if (
        reservation.status == ReservationStatus.HELD
        and reservation.hold_expires_at
        and reservation.hold_expires_at > now
    ):
        return _hold_release(reservation=reservation, session=session, now=now)
    if reservation.status != ReservationStatus.CONFIRMED:
        raise ReservationError(MSG_CANCEL_NOT_CONFIRMED, code="cancel_not_confirmed")
    if now > cancellation_deadline(session):
        hours = settings.CANCELLATION_WINDOW_HOURS
        raise ReservationError(MSG_CANCEL_TOO_LATE.format(hours=hours), code="cancel_too_late")
    reservation.status, reservation.cancelled_at, reservation.cancel_reason = (
        ReservationStatus.CANCELLED,
        now,
        CancelReason.MEMBER,
    )
    reservation.save(update_fields=["status", "cancelled_at", "cancel_reason"])
    enqueue_after_commit(waitlist_offer_session, session_id=session.pk)  # the freed seats go to the waiting list
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
    elif reservation.total_amount > 0:
        today = timezone.localdate(now)
        expires_on = add_months(today, CANCELLATION_CREDIT_MONTHS)
        credit_pass = Pass.objects.create(
            member_id=reservation.user_id,
            kind=PassKind.CARD,
            origin=PassOrigin.CANCELLATION,
            title=CANCELLATION_CREDIT_TITLE,
            credits_total=reservation.participants,
            credits_left=reservation.participants,
            starts_on=today,
            expires_on=expires_on,
            source_reservation=reservation,
        )
        PassAdjustment.objects.create(
            pass_ref=credit_pass,
            action=PassAdjustmentAction.CANCELLATION_CREDIT,
            credits_delta=reservation.participants,
            expires_on_after=expires_on,
            reservation=reservation,
            reason=f"Annulation de la réservation {reservation.pk}",
        )
        message = MSG_CANCELLED_CREDIT_PASS.format(credits=reservation.participants, date=_fr_date(expires_on))
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
