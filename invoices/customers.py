"""The business customer an invoice names (docs/decisions.md 54): the company on the quote request a deposit pays,
else the company on the member's profile; copied onto the invoice when it is issued, like the rest of its customer."""

from accounts.models import User
from payments.models import PaymentOrder

COMPANY_FIELDS = ("company_name", "company_siren", "company_vat_number", "company_address")
NO_COMPANY: dict = {}


def _as_invoice_fields(company: dict, fallback_address: str) -> dict:
    if not company.get("company_name"):
        return NO_COMPANY
    return {
        "customer_company_name": company["company_name"][:200],
        "customer_siren": company["company_siren"][:9],
        "customer_vat_number": company["company_vat_number"][:20],
        "customer_address": (company["company_address"] or fallback_address)[:500],
    }


def company_of_order(*, order_id: int, address: str) -> dict:
    """The invoice fields naming the order's company, if any (one query); `address` the member's, kept when the
    company gives none."""
    row = (
        PaymentOrder.objects.filter(pk=order_id)
        .values(
            *(f"party__{field}" for field in COMPANY_FIELDS),
            *(f"rental__{field}" for field in COMPANY_FIELDS),
            *(f"user__{field}" for field in COMPANY_FIELDS),
        )
        .first()
    )
    if row is None:
        return NO_COMPANY
    for source in ("party", "rental", "user"):
        company = {field: row[f"{source}__{field}"] or "" for field in COMPANY_FIELDS}
        if company["company_name"]:
            return _as_invoice_fields(company, address)
    return NO_COMPANY


def company_of_member(member: User | None, *, address: str) -> dict:
    if member is None:
        return NO_COMPANY
    return _as_invoice_fields({field: getattr(member, field) for field in COMPANY_FIELDS}, address)


def company_of_invoice(invoice) -> dict:
    """A credit note names the company its invoice names."""
    if not invoice.customer_company_name:
        return NO_COMPANY
    return {
        "customer_company_name": invoice.customer_company_name,
        "customer_siren": invoice.customer_siren,
        "customer_vat_number": invoice.customer_vat_number,
    }
