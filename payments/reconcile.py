"""Reconciliation: card orders the provider approved or captured but whose answer never reached the site.

A capture whose answer was lost (a timeout, a closed browser) and for which no webhook came leaves the order open here
while the money is taken at the provider. Every few minutes the scheduler asks the provider about the open orders of
the last days and applies what it says through the same code as the browser's capture: a completed capture fulfils the
order (confirmed, or refunded when what it paid for is gone: payment_order_fulfil decides), an approved order is
captured with the order's idempotency key. Safe on two schedulers: the provider calls are idempotent and every change
happens under the order's row lock.

Stripe's orders are read the same way (`stripe_orders_reconcile`): a PaymentIntent that succeeded while the order is
still open here, or was voided here (a new order opened meanwhile), is fulfilled through the same code as the
member's page and the webhook: confirmed, or refunded when what it paid for is gone.
"""

import logging
from collections import Counter
from datetime import timedelta

from django.utils import timezone

from .choices import PaymentProviderName
from .models import PaymentOrder, PaymentStatus
from .provider_types import CAPTURE_COMPLETED, CAPTURE_PENDING, ProviderError
from .providers import get_provider
from .selectors import stripe_configured
from .services.capture import _apply_capture
from .services.stripe_payments import stripe_state_apply
from .stripe_gateway import get_stripe_gateway
from .subscriptions.services.paypal import PAYPAL_SUBSCRIPTION_TYPE

logger = logging.getLogger(__name__)

# Leave an order alone while its member may still be paying (the browser's capture comes within the seat hold).
RECONCILE_AFTER = timedelta(minutes=5)
RECONCILE_WINDOW = timedelta(days=3)
RECONCILE_BATCH = 100


def orders_to_reconcile(*, now=None):
    now = now or timezone.now()
    provider = get_provider()
    return (
        PaymentOrder.objects.filter(
            provider=provider.name,
            status__in=(PaymentStatus.CREATED, PaymentStatus.APPROVED),
            updated_at__lte=now - RECONCILE_AFTER,
            created_at__gte=now - RECONCILE_WINDOW,
        )
        # A PayPal subscription's purchase is no Orders v2 order: the subscriptions' jobs read it from Subscriptions v1.
        .exclude(type=PAYPAL_SUBSCRIPTION_TYPE)
        .order_by("created_at", "pk")[:RECONCILE_BATCH]
    )


def payment_orders_reconcile(*, now=None) -> dict:
    """Ask the provider about each open order and apply its answer. Returns counts by outcome (for the logs)."""
    counts = Counter(stripe_orders_reconcile(now=now) if stripe_configured() else {})
    for order in orders_to_reconcile(now=now):
        provider = get_provider()  # one instance, one time budget, per order
        try:
            state = provider.get_order(order_id=order.order_id)
            if state.order_status == "APPROVED" and not state.capture_status:
                # Approved by the buyer, never captured: capture it now, with the key the browser would have used.
                state = provider.capture_order(order_id=order.order_id, request_id=f"capture-{order.order_id}")
        except ProviderError as exc:
            logger.warning("Reconcile: provider could not tell about %s: %s", order.order_id, exc.message)
            counts["unreachable"] += 1
            continue
        if state.capture_status != CAPTURE_COMPLETED and state.order_status != "COMPLETED":
            counts["open"] += 1
            continue
        _apply_capture(order, state)
        order.refresh_from_db(fields=["status"])
        logger.warning("Reconcile: order %s captured at the provider, now %s", order.order_id, order.status)
        counts[order.status.lower()] += 1
    return dict(counts)


def stripe_orders_to_reconcile(*, now=None):
    now = now or timezone.now()
    return PaymentOrder.objects.filter(
        provider=PaymentProviderName.STRIPE,
        status__in=(PaymentStatus.CREATED, PaymentStatus.APPROVED, PaymentStatus.DECLINED, PaymentStatus.VOIDED),
        updated_at__lte=now - RECONCILE_AFTER,
        created_at__gte=now - RECONCILE_WINDOW,
    ).order_by("created_at", "pk")[:RECONCILE_BATCH]


def stripe_orders_reconcile(*, now=None) -> dict:
    """Ask Stripe about each Stripe order left open (or voided) here and apply a payment it took. Counts by outcome."""
    counts = Counter()
    for order in stripe_orders_to_reconcile(now=now):
        try:
            state = get_stripe_gateway().get_payment(intent_id=order.order_id)
        except ProviderError as exc:
            logger.warning("Reconcile: Stripe could not tell about %s: %s", order.order_id, exc.message)
            counts["unreachable"] += 1
            continue
        if state.status != CAPTURE_COMPLETED:
            # Still being paid, or processing (its webhook will tell): nothing to apply yet.
            counts["processing" if state.status == CAPTURE_PENDING else "open"] += 1
            continue
        stripe_state_apply(order, state)
        order.refresh_from_db(fields=["status"])
        logger.warning("Reconcile: Stripe order %s paid at Stripe, now %s", order.order_id, order.status)
        counts[order.status.lower()] += 1
    return dict(counts)
