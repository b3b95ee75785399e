"""Background work of invoices: the PDF is rendered by a worker once the invoice is committed."""

from crontask import cron
from django.tasks import task

from . import services


@task
def invoice_document_render(invoice_id: int) -> None:
    services.invoice_document_ensure(invoice_id=invoice_id)


@cron("*/10 * * * *")
@task
def invoices_issue_missing() -> dict:
    """Every completed payment invoiced, every refunded one credited: what was missed is issued (idempotent, each
    under its payment's row lock, so two schedulers at once issue it once)."""
    return services.invoices_issue_missing()
