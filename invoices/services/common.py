"""What invoices and credit notes share: a document's number in its series (the counter row locked until the caller
commits), the seller's, customer's and VAT fields it copies, its creation (its PDF queued for a worker), and an
invoice line's quantity and unit price."""

from decimal import Decimal

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from studio.queue import enqueue_after_commit

from ..documents import invoice_document_render
from ..models import NUMBER_PREFIX, Invoice, InvoiceCounter
from ..vat import vat_figures, vat_mention, vat_rule_on


def _next_sequence(*, kind: str, year: int) -> int:
    """The next number of a series in a year, under the counter row's lock (held until the caller commits).

    The year's row is created once: a second transaction creating it at the same moment waits on the unique
    constraint for the first, then finds and locks it (get_or_create). Locked, the row gives two payments completing
    together numbers one after the other, and a transaction that rolls back gives its number back with it."""
    counter, _ = InvoiceCounter.objects.select_for_update().get_or_create(kind=kind, year=year)
    InvoiceCounter.objects.filter(pk=counter.pk).update(last_number=F("last_number") + 1)
    return counter.last_number + 1


def _number(kind: str, year: int, sequence: int) -> str:
    return f"{NUMBER_PREFIX[kind]}{year}-{sequence:06d}"


def _seller() -> dict:
    legal = settings.INVOICE_LEGAL
    return {
        "seller_name": legal["legal_name"][:200],
        "seller_address": legal["address"][:300],
        "seller_siret": legal["siret"][:20],
        "seller_vat_number": legal.get("vat_number", "")[:20],
    }


def _customer_address(user) -> str:
    if user is None:
        return ""
    return _address(user.address, user.postal_code, user.city)


def _address(address: str, postal_code: str, city: str) -> str:
    town = f"{postal_code} {city}".strip()
    return ", ".join(part for part in (address, town) if part)[:500]


def _vat(*, issued_at, fields: dict) -> dict:
    """The VAT status, rate, mention and figures a document keeps (docs/decisions.md 54): the studio's on the day it
    is issued, or its invoice's for a credit note (given in `fields`), with the same figures for the same amounts."""
    if "vat_status" in fields:
        status, rate = fields["vat_status"], fields["vat_rate"]
    else:
        rule = vat_rule_on(issued_at)
        status, rate = rule.status, rule.rate
    figures = vat_figures(total=fields["total_amount"], discount=fields.get("discount_amount") or 0, rate=rate)
    return {"vat_status": status, "vat_rate": rate, "seller_vat_note": vat_mention(status)[:200], **figures}


def _create(*, kind: str, issued_at, queue_document: bool = True, **fields) -> Invoice:
    fields.update(_vat(issued_at=issued_at, fields=fields))
    year = timezone.localtime(issued_at).year
    sequence = _next_sequence(kind=kind, year=year)
    invoice = Invoice.objects.create(
        kind=kind, year=year, sequence=sequence, number=_number(kind, year, sequence), issued_at=issued_at, **fields
    )
    if queue_document:
        enqueue_after_commit(invoice_document_render, invoice_id=invoice.pk)  # by a worker, never the request
    return invoice


def _line(title: str, quantity: int, amount: Decimal) -> tuple[str, int, Decimal]:
    quantity = max(int(quantity or 1), 1)
    unit = (Decimal(amount) / quantity).quantize(Decimal("0.01"))
    if unit * quantity != amount:
        return f"{title} × {quantity}", 1, Decimal(amount)
    return title, quantity, unit
