"""The studio's VAT status (docs/decisions.md 54) and the VAT figures of a document.

The status is configuration (`INVOICE_VAT`): franchise en base (the default, art. 293 B du CGI), exempt (art.
261-4-4° b du CGI) or taxable at a rate, applying to documents issued from a date (before it, the status the studio
had until then). A document's status, rate and figures are copied onto its row when it is issued, so a later switch
never changes an invoice already issued.

Prices are what the customer pays, VAT included: each line's price before VAT is its price divided by 1 + rate,
rounded to the cent, and its VAT what remains (French practice rounds per line); a discount is a line of its own, so
the VAT is on the discounted total and the figures always add up to the amount paid.
"""

from dataclasses import dataclass
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal

from django.conf import settings
from django.db import models
from django.utils import timezone

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


class VatStatus(models.TextChoices):
    FRANCHISE = "franchise", "Franchise en base de TVA"
    EXEMPT = "exempt", "Exonéré de TVA"
    TAXABLE = "taxable", "Assujetti à la TVA"


MENTION_EXEMPT = "Exonération de TVA, art. 261-4-4° b du CGI"
MENTION_FRANCHISE = "TVA non applicable, art. 293 B du CGI"


@dataclass(frozen=True)
class VatRule:
    status: str
    rate: Decimal  # in per cent: Decimal("20.00"); 0 unless taxable


def _config() -> dict:
    return getattr(settings, "INVOICE_VAT", {})


def vat_rule_on(moment: datetime) -> VatRule:
    """The studio's VAT status for a document issued at `moment` (its Paris day)."""
    config = _config()
    since = config.get("since")
    if isinstance(since, str):
        since = date.fromisoformat(since)
    day = timezone.localtime(moment).date()
    status = config.get("status", VatStatus.FRANCHISE)
    if since is not None and day < since:
        status = config.get("before", VatStatus.FRANCHISE)
    rate = Decimal(str(config.get("rate", "20.00"))) if status == VatStatus.TAXABLE else ZERO
    return VatRule(status=status, rate=rate.quantize(CENT))


def vat_mention(status: str) -> str:
    """The VAT mention printed on a document of this status."""
    if status == VatStatus.EXEMPT:
        return MENTION_EXEMPT
    if status == VatStatus.TAXABLE:
        number = settings.INVOICE_LEGAL.get("vat_number", "")
        return f"N° de TVA intracommunautaire : {number}" if number else ""
    return settings.INVOICE_LEGAL.get("vat_note") or MENTION_FRANCHISE


def excl_vat(amount: Decimal, rate: Decimal) -> Decimal:
    """The price before VAT of a price VAT included, rounded to the cent."""
    amount = Decimal(amount)
    if not rate:
        return amount.quantize(CENT)
    return (amount * 100 / (100 + Decimal(rate))).quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class VatLine:
    label: str
    incl_vat: Decimal  # TTC, negative for a discount
    excl_vat: Decimal
    vat: Decimal


def vat_lines(*, gross: Decimal, discount: Decimal, rate: Decimal, label: str, discount_label: str) -> list[VatLine]:
    """The document's lines with their figures: the sale's price, then its discount (negative) if any."""
    line_excl = excl_vat(gross, rate)
    lines = [VatLine(label, Decimal(gross), line_excl, Decimal(gross) - line_excl)]
    if discount:
        discount_excl = excl_vat(discount, rate)
        lines.append(VatLine(discount_label, -Decimal(discount), -discount_excl, -(Decimal(discount) - discount_excl)))
    return lines


def vat_figures(*, total: Decimal, discount: Decimal, rate: Decimal) -> dict:
    """What a document's row keeps: its totals before VAT and of VAT (they add up to `total`)."""
    lines = vat_lines(
        gross=Decimal(total) + Decimal(discount), discount=discount, rate=rate, label="", discount_label=""
    )
    total_excl = sum((line.excl_vat for line in lines), ZERO)
    return {"total_excl_vat": total_excl, "vat_amount": Decimal(total) - total_excl}
