"""Background work of payments (DECISIONS.md 41): PayPal's webhooks, and the reconciliation of lost answers."""

from crontask import cron
from django.tasks import task

from . import reconcile, services


@task
def paypal_webhook_process(event: dict) -> str:
    """Apply one PayPal event that the webhook view verified and acknowledged. Idempotent per event id."""
    return services.payment_webhook_handle(event=event)


@cron("*/5 * * * *")
@task
def payment_orders_reconcile() -> dict:
    return reconcile.payment_orders_reconcile()


@cron("*/10 * * * *")
@task
def payment_refunds_retry() -> int:
    """Money owed back (issue 16) whose refund the provider could not take at the time: refunded once, idempotent."""
    return services.payment_refunds_retry()
