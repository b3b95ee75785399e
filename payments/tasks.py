"""Scheduled and self-retrying work of payments (docs/decisions.md 41): PayPal's webhooks, retried with back-off,
and the periodic jobs (the reconciliation of lost answers, the refunds owed). The tasks of the work a service does
are defined in that service and queued with studio.queue.enqueue_after_commit."""

import logging
from datetime import timedelta

from crontask import cron
from django.tasks import task
from django.utils import timezone

from . import reconcile
from .services import class_refunds, offers, refunds, stripe_webhooks, webhooks

logger = logging.getLogger(__name__)


WEBHOOK_MAX_ATTEMPTS = 6


def webhook_retry_delay(attempt: int) -> timedelta:
    """After the `attempt`-th failure: 2, 4, 8, 16, 32 minutes."""
    return timedelta(minutes=2**attempt)


@task
def paypal_webhook_process(event: dict, attempt: int = 1) -> str:
    """Apply one PayPal event that the webhook view verified and acknowledged. Idempotent per event id.

    PayPal redelivers only what was not acknowledged, and the view acknowledged at once: a failure here (the database
    busy, PayPal unreachable for the capture) is retried by this task with back-off, up to WEBHOOK_MAX_ATTEMPTS.
    """
    try:
        return webhooks.payment_webhook_handle(event=event)
    except Exception:
        retry = paypal_webhook_process
        if attempt >= WEBHOOK_MAX_ATTEMPTS or not retry.get_backend().supports_defer:
            logger.exception("PayPal webhook %s failed for good (attempt %s)", event.get("id"), attempt)
            raise
        delay = webhook_retry_delay(attempt)
        logger.warning(
            "PayPal webhook %s failed (attempt %s), retried in %s", event.get("id"), attempt, delay, exc_info=True
        )
        retry.using(run_after=timezone.now() + delay).enqueue(event=event, attempt=attempt + 1)
        return "retry"


@cron("*/5 * * * *")
@task
def payment_orders_reconcile() -> dict:
    return reconcile.payment_orders_reconcile()


@cron("*/10 * * * *")
@task
def payment_refunds_retry() -> int:
    """Money owed back (docs/decisions.md 14) whose refund the provider could not take at the time: refunded once,
    idempotent."""
    return refunds.payment_refunds_retry()


@cron("*/10 * * * *")
@task
def payment_cancelled_classes_refund() -> int:
    """Any paid order of a cancelled class not refunded yet (a lost task, a provider down): refunded, once."""
    return class_refunds.payment_orders_refund_cancelled_class()


@cron("*/10 * * * *")
@task
def stripe_webhooks_unapplied() -> int:
    """Stripe events acknowledged but never applied (their task lost): applied once."""
    return stripe_webhooks.stripe_webhooks_unapplied_apply()


@cron("*/15 * * * *")
@task
def gift_card_parts_release() -> int:
    """The gift card's part of orders abandoned or voided elsewhere, given back to the card once (docs/decisions.md
    56)."""
    return offers.gift_card_parts_release_stale()
