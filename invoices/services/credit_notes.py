"""Issuing the credit note of an invoiced order or subscription period whose money went back, referring to its
invoice (docs/decisions.md 40)."""

from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone

from payments.subscriptions.models import SubscriptionCharge

from ..customers import company_of_invoice
from ..models import Invoice, InvoiceKind
from .common import _create, _seller


def credit_note_issue_for_order(*, order_id: int, reason: str = "", amount: Decimal | None = None) -> Invoice | None:
    """The credit note of a completed order whose money went back (or that staff voided): once, referring to its
    invoice, for `amount` when only part went back (a withdrawal's unused classes). None when the order was never
    invoiced (money refunded because it bought nothing)."""
    invoice = Invoice.objects.select_for_update().filter(payment_order_id=order_id, kind=InvoiceKind.INVOICE).first()
    return _credit_note(invoice=invoice, reason=reason, amount=amount) if invoice is not None else None


def credit_note_issue_for_charge(*, charge_id: int, reason: str = "") -> Invoice | None:
    """The credit note of a subscription period refunded by staff: its own invoice's, or, for the period(s) the
    purchase order paid, the order's invoice's for that period's amount."""
    charge = SubscriptionCharge.objects.select_related("subscription").filter(pk=charge_id).first()
    if charge is None:
        return None
    invoice = (
        Invoice.objects.select_for_update().filter(subscription_charge_id=charge_id, kind=InvoiceKind.INVOICE).first()
    )
    if invoice is None:
        invoice = (
            Invoice.objects.select_for_update()
            .filter(payment_order_id=charge.subscription.source_order_id, kind=InvoiceKind.INVOICE)
            .first()
        )
        if invoice is None:
            return None
        return _credit_note(invoice=invoice, reason=reason, amount=min(charge.amount, invoice.total_amount))
    return _credit_note(invoice=invoice, reason=reason)


def _credit_note(*, invoice: Invoice, reason: str, amount: Decimal | None = None) -> Invoice:
    existing = Invoice.objects.filter(credited_invoice=invoice).first()
    if existing is not None:
        return existing
    quantity, unit = invoice.quantity, invoice.unit_amount
    discount = {"discount_amount": invoice.discount_amount, "discount_label": invoice.discount_label}
    if amount is not None and amount != invoice.total_amount:
        quantity, unit, discount = 1, amount, {}
    try:
        with transaction.atomic():
            return _create(
                kind=InvoiceKind.CREDIT_NOTE,
                issued_at=timezone.now(),
                credited_invoice=invoice,
                payment_order_id=invoice.payment_order_id,
                subscription_charge_id=invoice.subscription_charge_id,
                member_id=invoice.member_id,
                customer_name=invoice.customer_name,
                customer_email=invoice.customer_email,
                customer_address=invoice.customer_address,
                customer_erased_at=invoice.customer_erased_at,
                **company_of_invoice(invoice),
                description=invoice.description,
                quantity=quantity,
                unit_amount=unit,
                total_amount=amount if amount is not None else invoice.total_amount,
                currency=invoice.currency,
                payment_method=invoice.payment_method,
                reason=(reason or "").strip()[:300],
                vat_status=invoice.vat_status,
                vat_rate=invoice.vat_rate,
                **discount,
                **_seller(),
            )
    except IntegrityError:
        return Invoice.objects.get(credited_invoice=invoice)
