"""PayPal's webhooks, applied once per event id."""

import logging
from decimal import Decimal

from django.db import IntegrityError, transaction

from bookings.services.cancellation import bookings_release_for_refund

from ..models import PaymentOrder, PaymentStatus, PaymentWebhookEvent
from ..provider_types import ProviderError
from ..providers import get_provider
from ..signals import payment_refunded
from ..subscriptions.services.paypal import SUBSCRIPTION_WEBHOOKS, paypal_subscription_webhook
from .capture import _apply_capture, payment_order_fulfil
from .common import OPEN_STATUSES, _mark, _parse_amount

logger = logging.getLogger(__name__)

# --- webhooks --------------------------------------------------------------------------------------------------

WEBHOOK_ORDER_APPROVED = "CHECKOUT.ORDER.APPROVED"
WEBHOOK_CAPTURE_COMPLETED = "PAYMENT.CAPTURE.COMPLETED"
WEBHOOK_CAPTURE_DENIED = "PAYMENT.CAPTURE.DENIED"
WEBHOOK_CAPTURE_REFUNDED = "PAYMENT.CAPTURE.REFUNDED"
HANDLED_WEBHOOKS = (WEBHOOK_ORDER_APPROVED, WEBHOOK_CAPTURE_COMPLETED, WEBHOOK_CAPTURE_DENIED, WEBHOOK_CAPTURE_REFUNDED)


def _related_order_id(resource: dict) -> str:
    return ((resource.get("supplementary_data") or {}).get("related_ids") or {}).get("order_id", "")


def _capture_id_from_links(resource: dict) -> str:
    for link in resource.get("links") or []:
        if link.get("rel") == "up" and "/captures/" in link.get("href", ""):
            return link["href"].rstrip("/").rsplit("/", 1)[-1]
    return ""


def payment_webhook_handle(*, event: dict) -> str:
    """Apply one verified PayPal event, once per event id. Returns what was done (for logs and tests)."""
    event_id = str(event.get("id") or "")
    event_type = str(event.get("event_type") or "")
    resource = event.get("resource")
    if not isinstance(resource, dict):
        resource = {}
    if not event_id:
        return "ignored"
    if PaymentWebhookEvent.objects.filter(event_id=event_id).exists():
        return "duplicate"
    if event_type in SUBSCRIPTION_WEBHOOKS:
        result = paypal_subscription_webhook(event_type, resource)  # PayPal Subscriptions v1
    elif event_type not in HANDLED_WEBHOOKS:
        result = "ignored"
    else:
        result = _handle_event(event_type, resource)
    try:
        with transaction.atomic():
            PaymentWebhookEvent.objects.create(
                event_id=event_id, event_type=event_type[:80], resource_id=str(resource.get("id", ""))[:64]
            )
    except IntegrityError:
        return "duplicate"  # delivered twice at once: the handlers above are idempotent
    return result


def _handle_event(event_type: str, resource: dict) -> str:
    if event_type == WEBHOOK_ORDER_APPROVED:
        order = PaymentOrder.objects.filter(order_id=resource.get("id", "")).first()
        if order is None:
            return "unknown order"
        order = _mark(order_id=order.order_id, status=PaymentStatus.APPROVED, only_from=(PaymentStatus.CREATED,))
        if order.status not in OPEN_STATUSES:
            return "closed"  # cancelled by the buyer, or paid already: capture nothing (docs/decisions.md 14)
        # The buyer approved but the browser may never come back: capture from here too (same idempotency key).
        provider = get_provider()
        try:
            result = provider.capture_order(order_id=order.order_id, request_id=f"capture-{order.order_id}")
        except ProviderError as exc:
            logger.warning("Webhook capture of %s failed: %s", order.order_id, exc.message)
            return "approved"
        return "completed" if _apply_capture(order, result).completed else "approved"

    if event_type == WEBHOOK_CAPTURE_COMPLETED:
        order = PaymentOrder.objects.filter(order_id=_related_order_id(resource)).first()
        if order is None:
            return "unknown order"
        money = resource.get("amount") or {}
        amount = None
        if money.get("value") is not None:
            amount = _parse_amount(money.get("value")) or Decimal("-1")  # unreadable: never equals the price
        outcome = payment_order_fulfil(
            order_id=order.order_id,
            capture_id=str(resource.get("id", "")),
            amount=amount,
            currency=money.get("currency_code", ""),
        )
        return "completed" if outcome.completed else "mismatch"

    if event_type == WEBHOOK_CAPTURE_DENIED:
        order = PaymentOrder.objects.filter(order_id=_related_order_id(resource)).first()
        if order is None:
            return "unknown order"
        _mark(order_id=order.order_id, status=PaymentStatus.DECLINED, only_from=OPEN_STATUSES)
        return "declined"

    # PAYMENT.CAPTURE.REFUNDED: the resource is the refund; its "up" link names the capture.
    order_id = _related_order_id(resource)
    capture_id = _capture_id_from_links(resource)
    order = (
        PaymentOrder.objects.filter(order_id=order_id).first()
        if order_id
        else PaymentOrder.objects.filter(capture_id=capture_id).exclude(capture_id="").first()
    )
    if order is None:
        return "unknown order"
    with transaction.atomic():
        not_yet = tuple(s for s in PaymentStatus.values if s != PaymentStatus.REFUNDED)
        order = _mark(
            order_id=order.order_id, status=PaymentStatus.REFUNDED, note="Remboursée via PayPal.", only_from=not_yet
        )
        payment_refunded.send(sender=PaymentOrder, order_id=order.pk, reason=order.provider_note)
        bookings_release_for_refund(order=order)
    return "refunded"
