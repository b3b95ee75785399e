"""An invoice's PDF (docs/decisions.md 40, 54): rendered once by a worker from what the invoice row holds, as
Factur-X for a business customer, stored, and served from there to downloads and receipts."""

from django.tasks import task

from .facturx import facturx_pdf
from .models import Invoice, InvoiceDocument, InvoiceKind
from .pdf import invoice_pdf_render


def invoice_document(*, invoice: Invoice) -> bytes:
    """The invoice's PDF: the stored one, or rendered now and stored (a worker usually did it already). Idempotent:
    the same invoice always renders the same bytes."""
    stored = InvoiceDocument.objects.filter(invoice_id=invoice.pk).values_list("content", flat=True).first()
    if stored is not None:
        return bytes(stored)
    if invoice.credited_invoice_id:
        invoice = Invoice.objects.select_related("credited_invoice").get(pk=invoice.pk)
    content = invoice_pdf_render(invoice)
    if invoice.is_business:  # a business customer's document is Factur-X (docs/decisions.md 54)
        content = facturx_pdf(invoice, content)
    InvoiceDocument.objects.bulk_create([InvoiceDocument(invoice=invoice, content=content)], ignore_conflicts=True)
    return content


def invoice_document_ensure(*, invoice_id: int) -> None:
    invoice = Invoice.objects.filter(pk=invoice_id).first()
    if invoice is not None:
        invoice_document(invoice=invoice)


@task
def invoice_document_render(invoice_id: int) -> None:
    """A worker renders and stores the PDF of an invoice once it is committed."""
    invoice_document_ensure(invoice_id=invoice_id)


def _attachments(invoices) -> list[tuple[str, bytes, str]]:
    return [(invoice.file_name, invoice_document(invoice=invoice), "application/pdf") for invoice in invoices]


def order_receipt_attachments(*, order_pk: int) -> list[tuple[str, bytes, str]]:
    """The receipt of an order carries its invoice (receipts.py)."""
    return _attachments(Invoice.objects.filter(payment_order_id=order_pk, kind=InvoiceKind.INVOICE))


def charge_receipt_attachments(*, charge_id: int) -> list[tuple[str, bytes, str]]:
    return _attachments(Invoice.objects.filter(subscription_charge_id=charge_id, kind=InvoiceKind.INVOICE))
