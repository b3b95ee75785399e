"""Periodic work of subscriptions (issue 19), scheduled with crontask like payments/tasks.py's jobs (imported by
PaymentsConfig.ready so that the schedule registers it)."""

from crontask import cron
from django.tasks import task

from .services.subscriptions import subscription_charges_run as _charges_run


@cron("15 6 * * *")
@task
def subscription_charges_run() -> dict:
    """Daily: charge each period of a subscription come due, once; failed ones again 3 days later."""
    return _charges_run()
