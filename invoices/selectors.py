"""Reads of invoices: a member's own, and one document for whoever may read it (per object: 404 otherwise)."""

from .errors import InvoiceError
from .models import Invoice, InvoiceKind


def member_invoices(*, member_id: int):
    """A member's invoices and credit notes, newest first (one query)."""
    return (
        Invoice.objects.filter(member_id=member_id)
        .select_related("credited_invoice")
        .only(
            "kind",
            "number",
            "issued_at",
            "description",
            "total_amount",
            "currency",
            "credited_invoice__number",
            "member_id",
        )
        .order_by("-issued_at", "-id")
    )


_KIND_LABELS = dict(InvoiceKind.choices)


def member_invoice_rows(*, member_id: int) -> list[dict]:
    """`member_invoices` as the profile shows it, as dicts {pk, kind, kind_label, number, issued_at, description,
    total_amount, credited_number (None for an invoice)}: one query."""
    return [
        {
            "pk": pk,
            "kind": kind,
            "kind_label": _KIND_LABELS.get(kind, kind),
            "number": number,
            "issued_at": issued_at,
            "description": description,
            "total_amount": total,
            "credited_number": credited_number,
        }
        for pk, kind, number, issued_at, description, total, credited_number in member_invoices(
            member_id=member_id
        ).values_list("id", "kind", "number", "issued_at", "description", "total_amount", "credited_invoice__number")
    ]


def invoice_for_reader(*, invoice_id: int, user) -> Invoice:
    """The invoice if `user` is its member or staff; otherwise, as when it does not exist, a 404."""
    invoice = None
    if 0 < invoice_id < 2**31:
        invoice = Invoice.objects.select_related("credited_invoice").filter(pk=invoice_id).first()
    if invoice is None or (invoice.member_id != user.pk and not user.is_studio_staff):
        raise InvoiceError.of("invoice_not_found")
    return invoice


def invoice_of_order_for_staff(*, order_id: str) -> Invoice:
    """The invoice of a payment order, by the order's id (the staff's orders list)."""
    invoice = (
        Invoice.objects.select_related("credited_invoice")
        .filter(payment_order__order_id=order_id[:64], kind=InvoiceKind.INVOICE)
        .first()
    )
    if invoice is None:
        raise InvoiceError.of("invoice_not_found")
    return invoice
