"""The accountant's entries for a period (docs/decisions.md 54): each invoice and credit note in the sales journal,
each payment and refund in the receipts journal, by means; debits equal credits in every entry.

Sales (journal VE): the customer's account 411 debited with the amount VAT included, services 706 credited with the
price before VAT and VAT collected 44571 with the VAT, as the document keeps them; a credit note the other way.
Receipts (journal EN): the means' account debited, 411 credited; a refund the other way. The means come from the
document alone, with the gift card part its order recorded (`PaymentOrder.gift_card_amount`): a gift card spent
settles the customer from 4191 (the vouchers sold, a debt until spent); each desk means has its own account; a
SEPA debit, or anything else paid online, goes through the bank.

A day is a Paris day; a document belongs to the period it was issued in, its payment to the period it was paid in
(the same moment for an invoice; a credit note's refund on its issue)."""

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.utils import timezone

from payments.choices import DeskMeans

from .models import Invoice, InvoiceKind

CUSTOMERS = ("411000", "Clients")
SERVICES = ("706000", "Prestations de services")
VAT_COLLECTED = ("445710", "TVA collectée")
GIFT_CARDS = ("419100", "Cartes cadeaux (avances reçues)")
CARD_ONLINE = ("512100", "Banque – paiements par carte en ligne")
SEPA = ("512200", "Banque – prélèvements SEPA")
DESK_ACCOUNTS = {
    DeskMeans.CASH.label: ("530000", "Caisse"),
    DeskMeans.CARD_TERMINAL.label: ("512300", "Banque – carte bancaire (TPE)"),
    DeskMeans.CHEQUE.label: ("511200", "Chèques à encaisser"),
    DeskMeans.ANCV.label: ("511300", "Chèques-Vacances (ANCV) à encaisser"),
    DeskMeans.PASS_SPORT.label: ("511400", "Pass'Sport à encaisser"),
    DeskMeans.COUPON_SPORT.label: ("511500", "Coupons Sport à encaisser"),
}
SALES_JOURNAL = ("VE", "Ventes")
RECEIPTS_JOURNAL = ("EN", "Encaissements")
ZERO = Decimal("0.00")


@dataclass(frozen=True)
class Line:
    journal: tuple[str, str]
    number: str  # the entry's number (EcritureNum): its lines share it
    day: date
    account: tuple[str, str]
    auxiliary: tuple[str, str]  # the customer's sub-account, on 411 lines only
    document: str
    document_day: date
    label: str
    debit: Decimal
    credit: Decimal


def period_bounds(start: date, end: date) -> tuple[datetime, datetime]:
    zone = timezone.get_default_timezone()
    return (
        timezone.make_aware(datetime.combine(start, time.min), zone),
        timezone.make_aware(datetime.combine(end + timedelta(days=1), time.min), zone),
    )


def _customer(invoice: Invoice) -> tuple[str, str]:
    name = invoice.customer_company_name or invoice.customer_name
    return (f"C{invoice.member_id:06d}" if invoice.member_id else "CDIVERS", name[:100])


def _means(invoice: Invoice, gift_card_amount: Decimal) -> list[tuple[tuple[str, str], Decimal]]:
    """How the invoice was paid, by account, summing to its amount."""
    total, parts = invoice.total_amount, []
    gift = min(Decimal(gift_card_amount or 0), total)
    if gift:
        parts.append((GIFT_CARDS, gift))
    left = total - gift
    for label, amount in invoice.payment_lines or ():
        account = DESK_ACCOUNTS.get(label)
        if account is not None and left > 0:
            taken = min(Decimal(amount), left)
            parts.append((account, taken))
            left -= taken
    if left > 0:
        online = SEPA if ("SEPA" in invoice.payment_method or "rélèvement" in invoice.payment_method) else CARD_ONLINE
        parts.append((online, left))
    return parts


def _refunded(parts: list, amount: Decimal) -> list:
    """A credit note's money back by the means of its invoice: all of them for the whole, else from the last (the
    card) back to the first (the gift card) as far as `amount` goes."""
    back = []
    for account, paid in reversed(parts):
        if amount <= 0:
            break
        taken = min(paid, amount)
        back.append((account, taken))
        amount -= taken
    return back


def accounting_lines(*, start: date, end: date) -> Iterator[Line]:
    """The period's lines, entry by entry in date order (one query)."""
    low, high = period_bounds(start, end)
    documents = (
        Invoice.objects.filter(issued_at__gte=low, issued_at__lt=high)
        .select_related("payment_order", "credited_invoice__payment_order")
        .order_by("issued_at", "id")
    )
    counters = {SALES_JOURNAL: 0, RECEIPTS_JOURNAL: 0}

    def number(journal) -> str:
        counters[journal] += 1
        return f"{journal[0]}{start:%Y%m}-{counters[journal]:05d}"

    for doc in documents:
        day = timezone.localtime(doc.issued_at).date()
        credit_note = doc.kind == InvoiceKind.CREDIT_NOTE
        customer = _customer(doc)
        kind = "Avoir" if credit_note else "Facture"
        label = f"{kind} {doc.number} – {customer[1]}"[:200]

        def line(journal, entry, account, debit, credit, auxiliary=("", ""), doc=doc, day=day, label=label):
            return Line(journal, entry, day, account, auxiliary, doc.number, day, label, debit, credit)

        sale = number(SALES_JOURNAL)
        figures = [
            (CUSTOMERS, doc.total_amount, customer),
            (SERVICES, -doc.total_excl_vat, ("", "")),
            (VAT_COLLECTED, -doc.vat_amount, ("", "")),
        ]
        for account, amount, auxiliary in figures:
            amount = -amount if credit_note else amount
            if amount:
                yield line(SALES_JOURNAL, sale, account, max(amount, ZERO), max(-amount, ZERO), auxiliary)

        invoice = doc.credited_invoice if credit_note else doc
        order = invoice.payment_order
        parts = _means(invoice, order.gift_card_amount if order is not None else ZERO)
        if credit_note:
            parts = _refunded(parts, doc.total_amount)
        receipt = number(RECEIPTS_JOURNAL)
        for account, amount in parts:
            yield line(
                RECEIPTS_JOURNAL, receipt, account, ZERO if credit_note else amount, amount if credit_note else ZERO
            )
        yield line(
            RECEIPTS_JOURNAL,
            receipt,
            CUSTOMERS,
            doc.total_amount if credit_note else ZERO,
            ZERO if credit_note else doc.total_amount,
            customer,
        )
