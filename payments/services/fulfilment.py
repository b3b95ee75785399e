"""Fulfilling an order once, when its money was captured: what is confirmed equals what was paid, under the order's
row lock, else the money goes back (the invariant and the lock order: capture.py)."""

import logging
from contextlib import nullcontext
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from bookings.services.common import ReservationError
from bookings.services.passes import pass_grant_for_order
from bookings.services.reservations import reservation_confirm_for_payment
from quotes.workflow import QuoteError
from studio.errors import ApplicationError

from ..choices import PaymentMethod, PaymentProviderName
from ..models import PaymentOrder, PaymentStatus
from ..signals import payment_completed
from ..simulator import SimulatorProvider
from ..subscriptions.services.common import subscription_start_for_order
from .class_refunds import class_cancelled_refund_reason
from .common import (
    MSG_AMOUNT_CAPTURED_MISMATCH,
    MSG_ORDER_WAS_CANCELLED,
    CaptureOutcome,
    reservation_payment_follow,
)
from .deposits import deposit_record_for_order
from .locking import lock_payment_order
from .offers import order_offers_settle, order_provider_amount
from .refunds import _refund_outcome, payment_order_refund

logger = logging.getLogger(__name__)

PAYPAL_LABEL = "PayPal"


def _lock_order(*, order_id: str, order_pk: int | None) -> PaymentOrder:
    """The order locked, by its key when the caller has read it already (the member's capture), else by its id."""
    if order_pk is None:
        return lock_payment_order(order_id)
    order = PaymentOrder.objects.select_for_update().filter(pk=order_pk).first()
    if order is None or order.order_id != order_id:
        raise PaymentOrder.DoesNotExist("PaymentOrder matching query does not exist.")
    return order


def payment_order_fulfil(
    *,
    order_id: str,
    capture_id: str = "",
    amount: Decimal | None = None,
    currency: str = "",
    order_pk: int | None = None,
) -> CaptureOutcome:
    """Money was captured for this order: confirm what it paid for and send one receipt, once. Idempotent.

    Called by the browser's capture and by PayPal's webhooks, possibly at the same moment: the row lock decides.
    What is confirmed equals what was paid (docs/decisions.md 14): the order must still be open and, for a reservation,
    the reservation still held, unpaid, with the participants and amount of the order and its seats. Otherwise nothing
    is confirmed and the money goes back (REFUND_PENDING, then the provider's refund after the commit). `order_pk`,
    when the caller has read the order already, locks the same row by its key.
    """
    with transaction.atomic():
        order = _lock_order(order_id=order_id, order_pk=order_pk)
        if order.status == PaymentStatus.COMPLETED:
            return CaptureOutcome(order=order, completed=True, message=order.provider_note)
        if order.status in (PaymentStatus.REFUND_PENDING, PaymentStatus.REFUNDED):
            return _refund_outcome(order)
        # The provider captured the order's total less what a gift card paid of it (services/offers.py).
        captured = order_provider_amount(order)
        if amount is not None and (amount != captured or (currency and currency != order.currency)):
            order.provider_note = MSG_AMOUNT_CAPTURED_MISMATCH
            order.save(update_fields=["provider_note", "updated_at"])
            logger.error("Captured %s %s for order %s of %s", amount, currency, order_id, captured)
            return CaptureOutcome(order=order, completed=False, message=MSG_AMOUNT_CAPTURED_MISMATCH)
        if capture_id:
            order.capture_id = capture_id
        paid_with = _paid_with(order)
        if paid_with:
            order.payment_method, order.payment_method_label = paid_with
        refusal = ""
        if order.status == PaymentStatus.VOIDED:
            refusal = MSG_ORDER_WAS_CANCELLED
        elif order.reservation_id:
            # With a code or a card, a savepoint: the offers refused after the confirmation undo it (their locks come
            # after bookings'). Without, none: a refused confirmation keeps what it queued after the commit.
            offered = bool(order.promo_code_id or order.gift_card_id)
            try:
                with transaction.atomic() if offered else nullcontext():
                    # Its confirmation e-mail goes with the receipt, in one task (receipts.py).
                    reservation_confirm_for_payment(
                        reservation_id=order.reservation_id,
                        participants=order.quantity,
                        amount=order.amount + order.discount_amount,  # the class's price, before a promo code
                        notify=False,
                        at_desk=order.provider == PaymentProviderName.DESK,  # a desk sale may settle "à régler"
                    )
                    if offered:
                        order_offers_settle(order)
            except (ReservationError, ApplicationError) as exc:
                refusal = exc.message
        elif order.party_id or order.rental_id:
            try:
                deposit_record_for_order(order)  # the deposit of a quoted request, recorded once
            except QuoteError as exc:
                refusal = exc.message
        elif order.tariff_id or order.promo_code_id or order.gift_card_id:
            try:
                # The code's use counted once, the card's part still spent, a discovery offer still the person's first.
                order_offers_settle(order)
            except ApplicationError as exc:
                refusal = exc.message
        if refusal:
            logger.warning("Order %s captured but refused (%s): refunding", order_id, refusal)
            # The studio cancelled the class between the approval and the capture: the member paid for a class
            # and is refunded because it will not take place, as when it is cancelled after the payment. So the
            # payment is completed (its time recorded, the invoice issued in this transaction by invoices'
            # receiver), then refunded (the credit note comes with the refund). Money that bought nothing (seats
            # lost, a booking the member had cancelled) is refunded without either.
            class_cancelled = ""
            if order.reservation_id and order.status != PaymentStatus.VOIDED:
                class_cancelled = class_cancelled_refund_reason(reservation_id=order.reservation_id)
            order.status = PaymentStatus.REFUND_PENDING
            order.provider_note = class_cancelled or refusal
            fields = ["status", "capture_id", "provider_note", "payment_method", "payment_method_label", "updated_at"]
            if class_cancelled:
                order.completed_at = timezone.now()
                fields.append("completed_at")
            order.save(update_fields=fields)
            reservation_payment_follow(order)
            if class_cancelled:
                payment_completed.send(sender=PaymentOrder, order_id=order.pk)
        else:
            now = timezone.now()
            order.status = PaymentStatus.COMPLETED
            order.completed_at = now
            if order.tariff_id:
                # A tariff order grants its class card or subscription, once (the order row lock above
                # and PaymentOrder.granted_pass's uniqueness), in this same transaction.
                order.granted_pass = pass_grant_for_order(order=order)
            order.provider_note = ""
            order.save(
                update_fields=[
                    "status",
                    "completed_at",
                    "capture_id",
                    "provider_note",
                    "granted_pass",
                    "payment_method",
                    "payment_method_label",
                    "updated_at",
                ]
            )
            reservation_payment_follow(order)
            # A tariff priced per period starts its subscription (the order paid its first period).
            subscription_start_for_order(order=order)
            # The invoice is numbered in this transaction (invoices' receiver), so a rollback leaves no gap; the same
            # receiver queues, after the commit, the one task that renders a reservation's confirmation and the
            # receipt with the invoice's PDF (receipts.py); the receipt is recorded as sent once its mail has left.
            payment_completed.send(sender=PaymentOrder, order_id=order.pk, receipt=True)
            return CaptureOutcome(order=order, completed=True)
    return _refund_outcome(payment_order_refund(order_id=order_id))


def _paid_with(order: PaymentOrder) -> tuple[str, str] | None:
    """The method the captured money came from, as the provider knows it: PayPal's wallet hides the member's
    card, the simulator kept what its buyer approved with. None: leave what the order says."""
    if order.provider == PaymentProviderName.PAYPAL:
        return PaymentMethod.PAYPAL.value, PAYPAL_LABEL
    if order.provider == PaymentProviderName.SIMULATOR:
        return SimulatorProvider().payment_method_of(order_id=order.order_id)
    return None
