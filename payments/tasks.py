"""Background work of payments (docs/decisions.md 41): PayPal's webhooks, and the reconciliation of lost answers."""

import logging
from datetime import timedelta

from crontask import cron
from django.tasks import task
from django.utils import timezone

from . import reconcile
from .services import class_refunds, receipts, refunds, webhooks

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


@task
def payment_cancelled_class_refund(session_id: int, reservation_ids: list[int]) -> int:
    """A class the studio cancelled (docs/decisions.md 27): refund its card payments in full, once each."""
    return class_refunds.payment_orders_refund_cancelled_class(session_id=session_id, reservation_ids=reservation_ids)


@cron("*/10 * * * *")
@task
def payment_cancelled_classes_refund() -> int:
    """Any paid order of a cancelled class not refunded yet (a lost task, a provider down): refunded, once."""
    return class_refunds.payment_orders_refund_cancelled_class()


@task
def payment_completed_emails_send(order_pk: int) -> None:
    """A captured order's e-mails (one task per capture): the reservation's confirmation, then the receipt
    with its invoice attached, each recorded in the outbox once."""
    receipts.completed_order_emails(order_pk=order_pk)


@task
def payment_receipt_send(order_pk: int) -> None:
    """The receipt of a completed order, with its invoice attached, recorded in the outbox."""
    receipts._send_receipt(order_pk=order_pk)


@task
def payment_subscription_charge_receipt_send(charge_id: int) -> None:
    """The receipt of a subscription period paid, with its invoice attached, recorded in the outbox."""
    from .subscriptions.services.emails import _send_charge_email

    _send_charge_email(charge_id=charge_id, paid=True)
