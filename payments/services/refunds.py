"""Give back money captured for nothing in return (docs/decisions.md 14): REFUND_PENDING, the provider's refund,
REFUNDED."""

import logging
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from studio.emails import send_templated_email

from ..choices import PaymentProviderName
from ..models import PaymentOrder, PaymentStatus
from ..provider_types import REFUND_ACCEPTED, ProviderError, ProviderRefund
from ..providers import get_provider
from ..signals import payment_refunded
from ..stripe_gateway import get_stripe_gateway
from .common import MSG_REFUND_PENDING, MSG_REFUNDED, CaptureOutcome
from .locking import lock_payment_order
from .offers import order_card_part, order_gift_card_refund, order_provider_amount

logger = logging.getLogger(__name__)

REFUND_SUBJECT = "Votre remboursement"
# Stripe's answer to a refund of a payment refunded already (another key, or at the Dashboard): the money is back.
STRIPE_ALREADY_REFUNDED = "charge_already_refunded"


def _euros(amount: Decimal) -> str:
    return f"{amount:.2f}".replace(".", ",")


def _refund_outcome(order: PaymentOrder) -> CaptureOutcome:
    template = MSG_REFUNDED if order.status == PaymentStatus.REFUNDED else MSG_REFUND_PENDING
    message = template.format(reason=order.provider_note, amount=_euros(refunded_amount(order))).strip()
    return CaptureOutcome(order=order, completed=False, message=message, refunded=True)


def refunded_amount(order: PaymentOrder) -> Decimal:
    """What goes back: the part a withdrawal refunds (docs/decisions.md 47), else the whole payment."""
    return order.withdrawal_refund_amount if order.withdrawal_refund_amount is not None else order.amount


def payment_order_refund(*, order_id: str) -> PaymentOrder:
    """Give back, through the provider, the money of an order that bought nothing (REFUND_PENDING). Idempotent.

    The provider call runs outside any transaction with one idempotency key per order, so a retry (or two at once)
    refunds once; the order then becomes REFUNDED under its row lock and the member is e-mailed once. When the
    provider is unreachable the order stays REFUND_PENDING for `payment_refunds_retry`.
    """
    order = PaymentOrder.objects.get(order_id=order_id)
    if order.status != PaymentStatus.REFUND_PENDING:
        return order
    try:
        # A gift card's part goes back to the card (below, under the order's lock): the provider refunds the rest.
        if order_card_part(order, refunded_amount(order)) <= 0:
            refund = ProviderRefund(id="", status="COMPLETED")
        else:
            refund = _provider_refund(order)
    except ProviderError as exc:
        logger.warning("Refund of %s failed for now: %s (%s)", order_id, exc.message, exc.issue)
        return order
    if refund is None:
        logger.error(
            "Order %s must be refunded by hand (provider %s, capture %r)", order_id, order.provider, order.capture_id
        )
        return order
    if refund.status not in REFUND_ACCEPTED:
        logger.error("Refund of %s answered %s", order_id, refund.status)
        return order
    with transaction.atomic():
        order = lock_payment_order(order_id)
        if order.status != PaymentStatus.REFUND_PENDING:
            return order
        order.status = PaymentStatus.REFUNDED
        order.refund_id = refund.id[:64]
        order.refunded_at = timezone.now()
        order.save(update_fields=["status", "refund_id", "refunded_at", "updated_at"])
        order_gift_card_refund(order, refunded_amount(order))
        # A completed order's invoice gets its credit note in this transaction (invoices' receiver,
        # docs/decisions.md 40).
        payment_refunded.send(
            sender=PaymentOrder, order_id=order.pk, reason=order.provider_note, amount=refunded_amount(order)
        )
        transaction.on_commit(lambda: _send_refund_notice(order_pk=order.pk))
    return order


def _provider_refund(order: PaymentOrder) -> ProviderRefund | None:
    """The whole payment refunded by the provider that took it, with one idempotency key per order
    (`refund-<order id>`); None when no provider here can refund it (a payment recorded by hand, a provider no longer
    configured)."""
    part = order_card_part(order, refunded_amount(order))  # a gift card's part goes back to the card
    part = None if part == order_provider_amount(order) else part  # a withdrawal's unused part; else the whole payment
    if order.provider == PaymentProviderName.STRIPE:
        try:
            return get_stripe_gateway().refund(intent_id=order.order_id, refund_ref=order.order_id, amount=part)
        except ProviderError as exc:
            if exc.issue == STRIPE_ALREADY_REFUNDED:
                return ProviderRefund(id="", status="COMPLETED")
            raise
    provider = get_provider()
    if provider.name != order.provider or not order.capture_id:
        return None
    partial = {} if part is None else {"amount": part}
    return provider.refund_capture(capture_id=order.capture_id, request_id=f"refund-{order.order_id}", **partial)


def payment_refunds_retry() -> int:
    """Refund the orders still owed a refund (a provider that was down). Safe to run from several places at once.
    Returns how many were refunded."""
    done = 0
    pending = PaymentOrder.objects.filter(status=PaymentStatus.REFUND_PENDING).values_list("order_id", flat=True)
    for order_id in list(pending):
        if payment_order_refund(order_id=order_id).status == PaymentStatus.REFUNDED:
            done += 1
    return done


def _send_refund_notice(*, order_pk: int) -> None:
    order = PaymentOrder.objects.get(pk=order_pk)
    try:
        send_templated_email(
            to=order.email,
            subject=REFUND_SUBJECT,
            template="payments_refund",
            context={
                "order": order,
                "message": _refund_outcome(order).message,
                "refunded_amount": refunded_amount(order),
                "demo": order.provider == "simulator",
            },
        )
    except Exception:  # noqa: BLE001 - the refund stands even when the mail server is down
        logger.exception("Refund e-mail for order %s could not be sent", order.order_id)
