"""Periodic and queued work of subscriptions, with crontask and django.tasks like payments/tasks.py's jobs
(imported by PaymentsConfig.ready so that the schedule registers them). Provider calls that can wait run here."""

import logging
from datetime import timedelta

from crontask import cron
from django.tasks import task
from django.utils import timezone

from ..providers import ProviderError
from ..selectors import payment_provider_name
from ..services import reduced_rate
from .services import (
    paypal as paypal_subscriptions,
)
from .services import (
    paypal_jobs as paypal_subscription_jobs,
)
from .services import (
    paypal_purchase as paypal_subscription_purchase,
)
from .services import (
    staff as subscription_staff,
)
from .services.lifecycle import subscription_charges_run as _charges_run

logger = logging.getLogger(__name__)
RETRY_DELAY = timedelta(minutes=10)


@cron("15 6 * * *")
@task
def subscription_charges_run() -> dict:
    """Daily: charge each period of a subscription come due, once; failed ones again 3 days later."""
    return _charges_run()


@cron("20 * * * *")
@task
def subscription_paypal_plans_ensure() -> int:
    """Hourly, with PayPal: each tariff sold per period has its PayPal product and billing plan (created once)."""
    if payment_provider_name() != "paypal":
        return 0
    return paypal_subscription_purchase.paypal_plans_ensure()


@cron("*/10 * * * *")
@task
def paypal_subscription_orders_reconcile() -> dict:
    """With PayPal: subscriptions approved at PayPal whose approval or webhooks never reached the site."""
    if payment_provider_name() != "paypal":
        return {}
    return paypal_subscription_jobs.paypal_subscription_orders_reconcile()


@task
def paypal_subscription_sync_task(provider_subscription_id: str) -> str:
    """After the member approved in PayPal's popup: read the subscription and its payments at PayPal."""
    return paypal_subscriptions.paypal_subscription_sync(provider_subscription_id=provider_subscription_id)


@task
def subscription_paypal_freeze_sync(subscription_id: int) -> str:
    """A PayPal subscription staff froze from today: suspended at PayPal (the daily job reactivates it after)."""
    try:
        return paypal_subscription_jobs.paypal_freeze_sync(subscription_id=subscription_id)
    except ProviderError as exc:
        logger.warning(
            "PayPal freeze of subscription %s failed: %s; the daily job retries", subscription_id, exc.message
        )
        return "retry"


@task
def subscription_paypal_retry(charge_id: int) -> str:
    """Staff's "Relancer l'échéance" of a PayPal subscription: capture the outstanding balance."""
    return paypal_subscriptions.paypal_charge_retry(charge_id=charge_id, as_of=timezone.localdate())


def _again_later(retry, **kwargs) -> None:
    if retry.get_backend().supports_defer:
        retry.using(run_after=timezone.now() + RETRY_DELAY).enqueue(**kwargs)


@task
def subscription_paypal_cancel(subscription_id: int) -> str:
    """A subscription staff cancelled (or whose reduced rate ended): cancel it at PayPal so it charges no more."""
    try:
        return subscription_staff.subscription_paypal_cancel_run(subscription_id=subscription_id)
    except ProviderError as exc:
        logger.warning("PayPal cancellation of subscription %s failed: %s; retried", subscription_id, exc.message)
        _again_later(subscription_paypal_cancel, subscription_id=subscription_id)
        return "retry"


@task
def subscription_charge_refund(charge_id: int) -> str:
    """The refund of a cancelled subscription's current period, once (retried by the job below when it failed)."""
    return subscription_staff.subscription_charge_refund_run(charge_id=charge_id)


@cron("*/10 * * * *")
@task
def subscription_refunds_retry() -> int:
    return subscription_staff.subscription_refunds_retry()


@cron("35 * * * *")
@task
def reduced_proofs_unattached_delete() -> int:
    """Hourly: the reduced-rate proofs no purchase names, a day after their upload, deleted with their file."""
    return reduced_rate.reduced_proofs_unattached_delete()
