"""The studio's VAT status on its documents (docs/decisions.md 54): from a configured date, a taxable studio's
invoice shows each line's price before VAT, the rate and the VAT, rounded per line, with totals; its credit note
mirrors it; under the franchise the 293 B mention stays; a document issued before a switch keeps what it said."""

from decimal import Decimal

import pytest
from django.db import transaction
from freezegun import freeze_time

from courses.tests.factories import TariffFactory
from invoices.documents import invoice_document
from invoices.models import Invoice, InvoiceDocument, InvoiceKind
from invoices.services import credit_note_issue_for_order
from invoices.vat import MENTION_EXEMPT, VatStatus, vat_figures, vat_rule_on

from .helpers import pay_tariff, pdf_text


def flat(content: bytes) -> str:
    """The PDF's text, its lines and spaces (non-breaking ones too) as single spaces."""
    return " ".join(pdf_text(content).split())


pytestmark = pytest.mark.django_db

TAXABLE_FROM_2027 = {"status": "taxable", "since": "2027-01-01", "before": "franchise", "rate": "20.00"}


@pytest.fixture
def card_tariff(db):
    return TariffFactory(title="Carte 10 cours", price=Decimal("190.00"), type="forfait")


@pytest.fixture
def taxable_from_2027(settings):
    settings.INVOICE_VAT = TAXABLE_FROM_2027
    settings.INVOICE_LEGAL = {**settings.INVOICE_LEGAL, "vat_number": "FR32123456789"}


def test_prices_include_vat_and_each_line_is_rounded_to_the_cent():
    assert vat_figures(total=Decimal("190.00"), discount=Decimal("0"), rate=Decimal("20")) == {
        "total_excl_vat": Decimal("158.33"),
        "vat_amount": Decimal("31.67"),
    }
    # 200 € less a 10 € discount: 166,67 − 8,33 before VAT, the VAT on the discounted total, adding up to 190 €.
    assert vat_figures(total=Decimal("190.00"), discount=Decimal("10.00"), rate=Decimal("20")) == {
        "total_excl_vat": Decimal("158.34"),
        "vat_amount": Decimal("31.66"),
    }
    assert vat_figures(total=Decimal("190.00"), discount=Decimal("0"), rate=Decimal("0")) == {
        "total_excl_vat": Decimal("190.00"),
        "vat_amount": Decimal("0.00"),
    }


def test_the_status_applies_from_its_date(taxable_from_2027):
    with freeze_time("2026-12-31 22:59:59"):  # 23:59:59 in Paris
        from django.utils import timezone

        assert vat_rule_on(timezone.now()).status == VatStatus.FRANCHISE
    with freeze_time("2026-12-31 23:00:00"):
        from django.utils import timezone

        rule = vat_rule_on(timezone.now())
        assert (rule.status, rule.rate) == (VatStatus.TAXABLE, Decimal("20.00"))


def test_a_taxable_invoice_shows_before_vat_the_rate_and_the_vat_and_its_credit_note_mirrors_it(
    api_client, member, card_tariff, taxable_from_2027
):
    with freeze_time("2027-02-10 10:00"):
        order = pay_tariff(api_client, member, card_tariff)
        invoice = Invoice.objects.get(kind=InvoiceKind.INVOICE)
        assert (invoice.vat_status, invoice.vat_rate) == (VatStatus.TAXABLE, Decimal("20.00"))
        assert (invoice.total_excl_vat, invoice.vat_amount, invoice.total_amount) == (
            Decimal("158.33"),
            Decimal("31.67"),
            Decimal("190.00"),
        )
        text = flat(invoice_document(invoice=invoice))
        assert "Total HT TVA 20 % Total TTC 1 158,33 € 31,67 € 190,00 € Carte 10 cours" in text
        assert "Total HT 158,33 € TVA 20 % 31,67 € Total TTC 190,00 € Montant payé 190,00 €" in text
        assert "Total à payer" not in text
        assert "N° de TVA intracommunautaire : FR32123456789" in text
        assert "293 B" not in text

        with transaction.atomic():
            note = credit_note_issue_for_order(order_id=order.pk, reason="Rétractation")
        assert (note.vat_status, note.vat_rate, note.total_excl_vat, note.vat_amount, note.total_amount) == (
            VatStatus.TAXABLE,
            Decimal("20.00"),
            Decimal("158.33"),
            Decimal("31.67"),
            Decimal("190.00"),
        )
        text = flat(invoice_document(invoice=note))
        assert "Avoir sur la facture n° 2027-000001" in text
        assert "Total HT -158,33 € TVA 20 % -31,67 € Total TTC -190,00 €" in text


def test_under_the_franchise_the_invoice_keeps_the_293_b_mention_and_after_a_switch_it_is_unchanged(
    api_client, member, card_tariff, settings
):
    settings.INVOICE_VAT = TAXABLE_FROM_2027
    with freeze_time("2026-11-28 10:00"):
        pay_tariff(api_client, member, card_tariff)
    invoice = Invoice.objects.get()
    text = flat(invoice_document(invoice=invoice))
    assert "TVA non applicable, art. 293 B du CGI" in text
    assert "Payée le 28/11/2026" in text and "Montant payé 190,00 €" in text
    assert "Total HT" not in text and "Total à payer" not in text

    with freeze_time("2027-03-01 10:00"):
        invoice.refresh_from_db()
        assert (invoice.vat_status, invoice.total_excl_vat, invoice.vat_amount) == (
            VatStatus.FRANCHISE,
            Decimal("190.00"),
            Decimal("0.00"),
        )
        # Rendered after the switch (its stored PDF gone), it still says what it said.
        invoice.document.delete()
        invoice = Invoice.objects.get(pk=invoice.pk)
        assert "TVA non applicable, art. 293 B du CGI" in flat(invoice_document(invoice=invoice))
        with transaction.atomic():
            note = credit_note_issue_for_order(order_id=invoice.payment_order_id)
        assert (note.vat_status, note.vat_amount) == (VatStatus.FRANCHISE, Decimal("0.00"))


def test_an_exempt_studio_prints_the_261_4_4_b_mention(api_client, member, card_tariff, settings):
    settings.INVOICE_VAT = {"status": "exempt"}
    pay_tariff(api_client, member, card_tariff)
    invoice = Invoice.objects.get()
    assert invoice.vat_status == VatStatus.EXEMPT and invoice.seller_vat_note == MENTION_EXEMPT
    assert "Exonération de TVA, art. 261-4-4° b du CGI" in flat(invoice_document(invoice=invoice))


def test_a_discount_and_each_means_of_payment_are_printed_and_the_vat_is_on_the_discounted_total(
    api_client, member, settings
):
    settings.INVOICE_VAT = {"status": "taxable", "rate": "20.00"}
    tariff = TariffFactory(title="Carte 10 cours", price=Decimal("161.50"), type="forfait")
    pay_tariff(api_client, member, tariff)
    invoice = Invoice.objects.get()
    # As an order with a 15 % code, paid partly by gift card, is invoiced (docs/decisions.md 49).
    Invoice.objects.filter(pk=invoice.pk).update(
        unit_amount=Decimal("190.00"),
        discount_amount=Decimal("28.50"),
        discount_label="Code BIENVENUE15",
        payment_lines=[["Carte cadeau", "50.00"], ["Carte bancaire", "111.50"]],
        **vat_figures(total=Decimal("161.50"), discount=Decimal("28.50"), rate=Decimal("20")),
    )
    InvoiceDocument.objects.filter(invoice=invoice).delete()
    invoice = Invoice.objects.get(pk=invoice.pk)
    text = flat(invoice_document(invoice=invoice))
    assert "1 158,33 € 31,67 € 190,00 € Carte 10 cours -23,75 € -4,75 € -28,50 € Remise – Code BIENVENUE15" in text
    assert "Total HT 134,58 € TVA 20 % 26,92 € Total TTC 161,50 € Montant payé 161,50 €" in text
    assert "Carte cadeau 50,00 €" in text and "Carte bancaire 111,50 €" in text
