"""A one-off Stripe payment finished in the member's browser (docs/decisions.md 42): what Stripe says of the
PaymentIntent is applied through the same fulfilment as PayPal's capture (`payment_order_fulfil`, under the order's
row lock), whoever tells it first: the member's page (`stripe_payment_complete`), Stripe's webhook
(stripe_webhooks.py) or the reconciliation (payments/reconcile.py).

The browser only names the order: its status and amount are read from Stripe, never taken from the browser.
"""

import logging

from django.utils import timezone

from bookings.models import Reservation, ReservationStatus

from ..models import PaymentOrder, PaymentStatus
from ..provider_types import (
    CAPTURE_ACTION_REQUIRED,
    CAPTURE_CANCELLED,
    CAPTURE_COMPLETED,
    CAPTURE_DECLINED,
    CAPTURE_PENDING,
    PaymentState,
    ProviderError,
)
from ..stripe_gateway import get_stripe_gateway
from ..stripe_messages import GENERIC_REFUSAL
from .capture import payment_order_fulfil
from .common import MSG_NOT_APPROVED, MSG_ORDER_CLOSED, OPEN_STATUSES, CaptureOutcome, PaymentError, _mark
from .provider_choice import STRIPE
from .refunds import _refund_outcome, payment_order_refund

logger = logging.getLogger(__name__)

MSG_STRIPE_PENDING = (
    "Votre paiement est en cours de traitement par votre banque. Vous recevrez un email dès sa validation."
)
MSG_STRIPE_ACTION_REQUIRED = (
    "Votre banque demande une authentification (3-D Secure) : terminez-la pour finaliser le paiement."
)
MSG_STRIPE_DECLINED_HOLD = (
    "{reason} Aucun montant n'a été débité. Votre place reste réservée jusqu'à {until} : vous pouvez réessayer avec "
    "une autre carte ou un autre moyen de paiement."
)
MSG_STRIPE_DECLINED = (
    "{reason} Aucun montant n'a été débité. Vous pouvez réessayer avec une autre carte ou un autre moyen de paiement."
)


def _declined_message(order: PaymentOrder, reason: str) -> str:
    reason = reason or GENERIC_REFUSAL
    if order.reservation_id:
        reservation = Reservation.objects.only("hold_expires_at", "status").get(pk=order.reservation_id)
        if reservation.status == ReservationStatus.HELD and reservation.hold_expires_at:
            until = timezone.localtime(reservation.hold_expires_at).strftime("%H:%M")
            return MSG_STRIPE_DECLINED_HOLD.format(reason=reason, until=until)
    return MSG_STRIPE_DECLINED.format(reason=reason)


def stripe_method_record(order: PaymentOrder, payment_method_id: str) -> None:
    """Record the card, wallet or SEPA account the order was paid with, read from Stripe before the fulfilment (no
    provider call under the order's lock). Once: an order that names its method keeps it; Stripe unreachable, the
    payment stands without it."""
    if not payment_method_id or order.payment_method_label:
        return
    try:
        method, label = get_stripe_gateway().payment_method_used(payment_method_id=payment_method_id)
    except ProviderError as exc:
        logger.warning("Stripe could not describe the method of %s: %s", order.order_id, exc.message)
        return
    if label:
        PaymentOrder.objects.filter(pk=order.pk, payment_method_label="").update(
            payment_method=method, payment_method_label=label[:80]
        )


def stripe_state_apply(order: PaymentOrder, state: PaymentState) -> CaptureOutcome:
    """Apply where Stripe says the order's PaymentIntent stands. Succeeded: fulfilled once (or refunded when what it
    paid for is gone); processing: pending; refused: DECLINED, with the bank's reason in French; canceled: VOIDED."""
    if state.status == CAPTURE_COMPLETED:
        stripe_method_record(order, state.payment_method_id)
        return payment_order_fulfil(
            order_id=order.order_id,
            capture_id=state.charge_id,
            amount=state.amount,
            currency=state.currency,
            order_pk=order.pk,
        )
    if state.status == CAPTURE_PENDING:
        order = _mark(
            order_id=order.order_id, status=PaymentStatus.APPROVED, note=MSG_STRIPE_PENDING, only_from=OPEN_STATUSES
        )
        return CaptureOutcome(order=order, completed=False, message=MSG_STRIPE_PENDING, pending=True)
    if state.status == CAPTURE_DECLINED:
        order = _mark(order_id=order.order_id, status=PaymentStatus.DECLINED, only_from=OPEN_STATUSES)
        return CaptureOutcome(order=order, completed=False, message=_declined_message(order, state.message))
    if state.status == CAPTURE_ACTION_REQUIRED:
        return CaptureOutcome(order=order, completed=False, message=MSG_STRIPE_ACTION_REQUIRED)
    if state.status == CAPTURE_CANCELLED:
        order = _mark(order_id=order.order_id, status=PaymentStatus.VOIDED, only_from=OPEN_STATUSES)
        return CaptureOutcome(order=order, completed=False, message=MSG_ORDER_CLOSED)
    return CaptureOutcome(order=order, completed=False, message=MSG_NOT_APPROVED)


def stripe_payment_complete(*, order_id: str, user) -> CaptureOutcome:
    """The member's page says Stripe.js confirmed the payment: read the PaymentIntent from Stripe and apply it.
    Only the order's own member may ask; asking again answers the same outcome."""
    order = PaymentOrder.objects.filter(order_id=order_id, provider=STRIPE, user_id=user.pk).first()
    if order is None:
        raise PaymentError.of("order_not_found")
    if order.status == PaymentStatus.COMPLETED:
        return CaptureOutcome(order=order, completed=True, message=order.provider_note)
    if order.status == PaymentStatus.REFUND_PENDING:
        return _refund_outcome(payment_order_refund(order_id=order.order_id))
    if order.status == PaymentStatus.REFUNDED:
        if order.capture_id:
            return _refund_outcome(order)  # paid, then refunded: say so again
        raise PaymentError.of("order_closed")
    try:
        state = get_stripe_gateway().get_payment(intent_id=order.order_id)
    except ProviderError as exc:
        logger.warning("Stripe could not tell about %s: %s (%s)", order_id, exc.message, exc.issue)
        raise PaymentError.of("provider_down") from exc
    if order.status == PaymentStatus.VOIDED and state.status != CAPTURE_COMPLETED:
        raise PaymentError.of("order_closed")  # a voided order paid anyway is fulfilled, i.e. refunded, below
    return stripe_state_apply(order, state)
