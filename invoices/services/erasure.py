"""A deleted account (docs/decisions.md 34): their identity erased from their invoices and credit notes."""

from django.db.models import Q
from django.utils import timezone

from ..models import Invoice, InvoiceDocument

ERASED_CUSTOMER = "Client n° {member_id} (compte supprimé)"


def invoices_erase_customer(*, member_id: int, email: str = "") -> int:
    """Erase a deleted member's identity from their invoices and credit notes (theirs, or made out to their e-mail:
    a payment staff recorded by hand); numbers, lines, amounts and dates stay as issued (the accounting record).
    Their stored PDFs go too, rendered again without the identity."""
    now = timezone.now()
    mine = Q(member_id=member_id) | Q(customer_email__iexact=email) if email else Q(member_id=member_id)
    ids = list(Invoice.objects.filter(mine).values_list("pk", flat=True))
    Invoice.objects.filter(pk__in=ids).update(
        customer_name=ERASED_CUSTOMER.format(member_id=member_id),
        customer_email="",
        customer_address="",
        customer_erased_at=now,
    )
    InvoiceDocument.objects.filter(invoice_id__in=ids).delete()
    return len(ids)
