"""The scheduled jobs of subscriptions, with crontask and django.tasks like payments/tasks.py's (imported by
PaymentsConfig.ready so that the schedule registers them); each calls a service. The tasks of the work a service does
(a receipt, PayPal's capture, sync, freeze and cancellation, a refund) are defined in that service."""

from crontask import cron
from django.tasks import task

from ..selectors import payment_provider_name
from ..services.reduced_rate import reduced_proofs_unattached_delete as _reduced_proofs_unattached_delete
from .services.debits import sepa_pre_notifications_send as _sepa_pre_notifications_send
from .services.debits import simulated_debits_settle as _simulated_debits_settle
from .services.lifecycle import subscription_charges_run as _charges_run
from .services.paypal_jobs import paypal_subscription_orders_reconcile as _paypal_subscription_orders_reconcile
from .services.paypal_purchase import paypal_plans_ensure
from .services.staff import subscription_refunds_retry as _subscription_refunds_retry


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
    return paypal_plans_ensure()


@cron("*/10 * * * *")
@task
def paypal_subscription_orders_reconcile() -> dict:
    """With PayPal: subscriptions approved at PayPal whose approval or webhooks never reached the site."""
    if payment_provider_name() != "paypal":
        return {}
    return _paypal_subscription_orders_reconcile()


@cron("*/10 * * * *")
@task
def subscription_refunds_retry() -> int:
    return _subscription_refunds_retry()


@cron("35 * * * *")
@task
def reduced_proofs_unattached_delete() -> int:
    """Hourly: the reduced-rate proofs no purchase names, a day after their upload, deleted with their file."""
    return _reduced_proofs_unattached_delete()


@cron("40 * * * *")
@task
def simulated_debits_settle() -> dict:
    """Hourly, in demonstration: the simulator's bank settles the SEPA debits sent SIMULATOR_SEPA_SETTLE_DAYS ago."""
    return _simulated_debits_settle()


@cron("5 6 * * *")
@task
def sepa_pre_notifications_send() -> int:
    """Daily: the e-mail telling each member of a SEPA debit SUBSCRIPTION_SEPA_NOTICE_DAYS ahead, once per period."""
    return _sepa_pre_notifications_send()
