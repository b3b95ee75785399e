"""Stripe's webhooks (docs/decisions.md 42): each verified event is recorded once (PaymentWebhookEvent, unique event
id), acknowledged at once, and applied once by a task.

One-off orders' events are applied here: payment_intent.* (through the same fulfilment as the member's page,
stripe_payments.py), charge.refunded and charge.dispute.created. Every other verified event (a subscription's charge,
whose metadata `purpose` is "subscription_charge", setup_intent.*, mandate.updated...) is handed to the signal
`stripe_event_received`, which the subscriptions' receiver applies.
"""

import json
import logging
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.tasks import task
from django.utils import timezone

from bookings.services.cancellation import bookings_release_for_refund
from studio.errors import FORBIDDEN, ApplicationError
from studio.queue import enqueue_after_commit

from ..models import PaymentDispute, PaymentOrder, PaymentStatus, PaymentWebhookEvent
from ..provider_types import (
    CAPTURE_CANCELLED,
    CAPTURE_COMPLETED,
    CAPTURE_DECLINED,
    CAPTURE_PENDING,
    ProviderError,
)
from ..signals import payment_refunded, stripe_event_received
from ..stripe_events import DisputeEvent, PaymentEvent, RefundEvent, StripeEventRecord, parse_event
from ..stripe_gateway import get_stripe_gateway
from .capture import payment_order_fulfil
from .common import OPEN_STATUSES, _mark
from .locking import lock_payment_order
from .provider_choice import PURPOSE_SUBSCRIPTION_CHARGE, STRIPE
from .refunds import payment_order_refund
from .stripe_payments import MSG_STRIPE_PENDING, stripe_method_record

logger = logging.getLogger(__name__)

REFUNDED_AT_STRIPE = "Remboursée via Stripe."
MSG_STRIPE_WEBHOOK_REFUSED = "Notification Stripe refusée : signature absente, invalide ou trop ancienne."
WEBHOOK_MAX_ATTEMPTS = 6


class StripeWebhookError(ApplicationError):
    """A delivery Stripe did not sign with our endpoint's secret, or signed too long ago (a replay): refused like any
    unauthenticated call, 403, as PayPal's unsigned notifications are (Stripe only tells 2xx from the rest)."""

    default_code = "stripe_webhook_refused"
    messages = {"stripe_webhook_refused": MSG_STRIPE_WEBHOOK_REFUSED}
    statuses = {"stripe_webhook_refused": FORBIDDEN}


def stripe_webhook_receive(*, payload: bytes, signature: str) -> str:
    """Verify a delivery (StripeWebhookError when forged, altered or too old: nothing is recorded), record its event
    once and queue its task. Returns "queued", or "duplicate" for an event already applied."""
    try:
        record = get_stripe_gateway().verify_webhook(payload=payload, signature=signature)
        event = json.loads(payload)
    except (ProviderError, ValueError) as exc:
        raise StripeWebhookError.of("stripe_webhook_refused") from exc
    if not record.event_id or not isinstance(event, dict):
        return "duplicate"
    obj = (event.get("data") or {}).get("object") or {}
    try:
        with transaction.atomic():
            row, created = PaymentWebhookEvent.objects.get_or_create(
                event_id=record.event_id[:64],
                defaults={
                    "event_type": record.type[:80],
                    "resource_id": str(obj.get("id") or "")[:64],
                    "payload": event,
                },
            )
    except IntegrityError:  # the same event delivered twice at once: the other delivery queued it
        return "duplicate"
    if not created and row.processed_at is not None:
        return "duplicate"
    # A redelivery of an event not applied yet (its task lost) is queued again; the task applies it once.
    enqueue_after_commit(stripe_webhook_process, event_id=row.event_id)
    return "queued"


@task
def stripe_webhook_process(event_id: str, attempt: int = 1) -> str:
    """Apply one recorded Stripe event, once; a failure (the database busy, Stripe unreachable for a refund) is
    retried with back-off, 2, 4, 8… minutes, up to WEBHOOK_MAX_ATTEMPTS."""
    try:
        return stripe_event_apply(event_id=event_id)
    except Exception:
        retry = stripe_webhook_process
        if attempt >= WEBHOOK_MAX_ATTEMPTS or not retry.get_backend().supports_defer:
            logger.exception("Stripe webhook %s failed for good (attempt %s)", event_id, attempt)
            raise
        delay = timedelta(minutes=2**attempt)
        logger.warning("Stripe webhook %s failed (attempt %s), retried in %s", event_id, attempt, delay, exc_info=True)
        retry.using(run_after=timezone.now() + delay).enqueue(event_id=event_id, attempt=attempt + 1)
        return "retry"


def stripe_event_apply(*, event_id: str) -> str:
    """Claim the event (one UPDATE: of two workers, one wins), then apply it outside any transaction, since applying
    may call Stripe (a refund); a failure gives the claim back for the retry."""
    claimed = PaymentWebhookEvent.objects.filter(event_id=event_id, processed_at__isnull=True).update(
        processed_at=timezone.now()
    )
    if not claimed:
        return "duplicate"
    payload = PaymentWebhookEvent.objects.values_list("payload", flat=True).get(event_id=event_id)
    record = parse_event(payload)
    try:
        return _apply(record)
    except Exception:
        PaymentWebhookEvent.objects.filter(event_id=event_id).update(processed_at=None)
        raise


# An event recorded but still unapplied after this long lost its task (a queue down, a worker killed): applied again.
UNAPPLIED_AFTER = timedelta(minutes=5)


def stripe_webhooks_unapplied_apply(*, now=None) -> int:
    """Apply the Stripe events recorded but never applied (their task lost or failed for good). Safe beside the
    tasks: each event is claimed once. Returns how many were applied."""
    now = now or timezone.now()
    waiting = PaymentWebhookEvent.objects.filter(
        event_id__startswith="evt_", processed_at__isnull=True, received_at__lte=now - UNAPPLIED_AFTER
    ).values_list("event_id", flat=True)
    done = 0
    for event_id in list(waiting[:100]):
        try:
            if stripe_event_apply(event_id=event_id) != "duplicate":
                done += 1
        except Exception:  # noqa: BLE001 - one event failing again must not hold back the others
            logger.exception("Stripe webhook %s failed again", event_id)
    return done


def _order_of(*, intent_id: str = "", charge_id: str = "") -> PaymentOrder | None:
    orders = PaymentOrder.objects.filter(provider=STRIPE)
    if intent_id:
        return orders.filter(order_id=intent_id).first()
    if charge_id:
        return orders.filter(capture_id=charge_id).first()
    return None


def _forward(record: StripeEventRecord) -> str:
    stripe_event_received.send(sender=None, event=record)
    return "forwarded"


def _apply(record: StripeEventRecord) -> str:
    if isinstance(record, PaymentEvent):
        if record.metadata.get("purpose") == PURPOSE_SUBSCRIPTION_CHARGE:
            return _forward(record)
        order = _order_of(intent_id=record.intent_id)
        if order is None:
            return _forward(record)  # not a one-off order of ours
        return _payment_event(order, record)
    if isinstance(record, RefundEvent):
        order = _order_of(intent_id=record.intent_id) or _order_of(charge_id=record.charge_id)
        return _forward(record) if order is None else _refund_event(order, record)
    if isinstance(record, DisputeEvent):
        return _dispute_event(record)
    return _forward(record)


def _payment_event(order: PaymentOrder, record: PaymentEvent) -> str:
    if record.status == CAPTURE_COMPLETED:
        stripe_method_record(order, record.payment_method_id)
        outcome = payment_order_fulfil(
            order_id=order.order_id, capture_id=record.charge_id, amount=record.amount, order_pk=order.pk
        )
        if outcome.completed:
            return "completed"
        return "refunded" if outcome.refunded else "mismatch"
    if record.status == CAPTURE_PENDING:
        _mark(order_id=order.order_id, status=PaymentStatus.APPROVED, note=MSG_STRIPE_PENDING, only_from=OPEN_STATUSES)
        return "pending"
    if record.status == CAPTURE_DECLINED:
        _mark(order_id=order.order_id, status=PaymentStatus.DECLINED, only_from=OPEN_STATUSES)
        return "declined"
    if record.status == CAPTURE_CANCELLED:
        _mark(order_id=order.order_id, status=PaymentStatus.VOIDED, only_from=OPEN_STATUSES)
        return "cancelled"
    return "ignored"  # requires_action: the member's page handles the bank's challenge


def _refund_event(order: PaymentOrder, record: RefundEvent) -> str:
    """Our own refund comes back as charge.refunded too: an order being refunded finishes through the refund service
    (same idempotency key, the member e-mailed once); one refunded at Stripe's Dashboard is recorded as PayPal's are."""
    if order.status == PaymentStatus.REFUND_PENDING:
        payment_order_refund(order_id=order.order_id)
        return "refunded"
    if order.status == PaymentStatus.REFUNDED:
        return "refunded"
    if not record.fully_refunded:
        logger.warning(
            "Order %s partly refunded at Stripe (%s €): left to the staff", order.order_id, record.amount_refunded
        )
        return "partial"
    with transaction.atomic():
        order = lock_payment_order(order.order_id)
        if order.status == PaymentStatus.REFUNDED:
            return "refunded"
        order.status = PaymentStatus.REFUNDED
        order.provider_note = REFUNDED_AT_STRIPE
        order.refunded_at = timezone.now()
        order.save(update_fields=["status", "provider_note", "refunded_at", "updated_at"])
        payment_refunded.send(sender=PaymentOrder, order_id=order.pk, reason=order.provider_note)
        bookings_release_for_refund(order=order)
    return "refunded"


def _dispute_event(record: DisputeEvent) -> str:
    """A chargeback: recorded for the staff (admin, order detail), nothing blocked."""
    order = _order_of(intent_id=record.intent_id) or _order_of(charge_id=record.charge_id)
    PaymentDispute.objects.get_or_create(
        dispute_id=record.dispute_id[:64],
        defaults={
            "order": order,
            "charge_id": record.charge_id[:64],
            "intent_id": record.intent_id[:64],
            "amount": record.amount,
            "reason": record.reason[:64],
        },
    )
    logger.warning("Stripe dispute %s opened on order %s", record.dispute_id, order.order_id if order else "?")
    return "dispute"
