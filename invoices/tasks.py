"""Background work of invoices: the PDF is rendered by a worker once the invoice is committed (issue 23)."""

from django.tasks import task

from . import services


@task
def invoice_document_render(invoice_id: int) -> None:
    services.invoice_document_ensure(invoice_id=invoice_id)
