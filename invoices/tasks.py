"""Scheduled work of invoices: what a payment missed is issued (the PDF's task is the service's own)."""

from crontask import cron
from django.tasks import task

from . import services


@cron("*/10 * * * *")
@task
def invoices_issue_missing() -> dict:
    """Every completed payment invoiced, every refunded one credited: what was missed is issued (idempotent, each
    under its payment's row lock, so two schedulers at once issue it once)."""
    return services.invoices_issue_missing()
