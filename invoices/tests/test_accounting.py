"""The accountant's files for a period (docs/decisions.md 54): the FEC has its 18 columns in order, tab-separated,
and balances (debits = credits, entry by entry); the journal is the site's CSV (numbers and dates a spreadsheet
reads as such); payments are by means (card, SEPA, desk means, gift card); staff only."""

from collections import defaultdict
from decimal import Decimal

import pytest
from django.db import transaction
from freezegun import freeze_time

from courses.tests.factories import TariffFactory
from invoices.accounting_apis import MSG_ACCOUNTING_YEARS
from invoices.accounting_files import FEC_COLUMNS
from invoices.models import Invoice
from invoices.services import credit_note_issue_for_order
from payments.apis.exports import MSG_EXPORT_DATE, MSG_EXPORT_RANGE
from payments.models import PaymentOrder

from .helpers import pay_tariff

pytestmark = pytest.mark.django_db

MONTH = {"start": "2027-02-01", "end": "2027-02-28"}


@pytest.fixture
def february(api_client, member, settings):
    """A 190 € card paid online, a 100 € card paid 30 € by gift card, 50 € Pass'Sport and 20 € cash at the desk,
    and the first one refunded — the studio taxable at 20 %."""
    settings.INVOICE_VAT = {"status": "taxable", "rate": "20.00"}
    with freeze_time("2027-02-10 10:00"):
        first = pay_tariff(api_client, member, TariffFactory(price=Decimal("190.00"), type="forfait"))
    with freeze_time("2027-02-12 10:00"):
        second = pay_tariff(api_client, member, TariffFactory(price=Decimal("100.00"), type="forfait"))
    PaymentOrder.objects.filter(pk=second.pk).update(gift_card_amount=Decimal("30.00"))
    Invoice.objects.filter(payment_order=second).update(
        payment_lines=[["Carte cadeau", "30.00"], ["Pass'Sport", "50.00"], ["Espèces", "20.00"]]
    )
    with freeze_time("2027-02-20 10:00"), transaction.atomic():
        credit_note_issue_for_order(order_id=first.pk, reason="Rétractation")
    with freeze_time("2027-03-02 10:00"):  # another month
        pay_tariff(api_client, member, TariffFactory(price=Decimal("80.00"), type="forfait"))


def fec_rows(api_client) -> tuple[list[str], list[dict]]:
    response = api_client.get("/api/accounting/fec", MONTH)
    assert response.status_code == 200, response.content
    assert response["Content-Disposition"] == 'attachment; filename="123456789FEC20270228.txt"'
    lines = response.content.decode("utf-8").split("\r\n")
    assert lines[-1] == ""
    header = lines[0].split("\t")
    rows = [dict(zip(header, line.split("\t"), strict=True)) for line in lines[1:-1]]
    return header, rows


def amount(text: str) -> Decimal:
    return Decimal(text.replace(",", "."))


def test_the_fec_has_its_18_columns_in_order_and_balances(api_client, staff, february):
    api_client.force_authenticate(staff)
    header, rows = fec_rows(api_client)
    assert header == list(FEC_COLUMNS) and len(header) == 18
    assert header[:4] == ["JournalCode", "JournalLib", "EcritureNum", "EcritureDate"]
    assert header[-2:] == ["Montantdevise", "Idevise"]
    assert sum(amount(r["Debit"]) for r in rows) == sum(amount(r["Credit"]) for r in rows) > 0
    entries = defaultdict(Decimal)
    for r in rows:
        entries[r["EcritureNum"]] += amount(r["Debit"]) - amount(r["Credit"])
        assert r["EcritureDate"].startswith("202702") and len(r["EcritureDate"]) == 8
    assert set(entries.values()) == {Decimal("0.00")}

    def total(account, column, journal=None):
        return sum(amount(r[column]) for r in rows if r["CompteNum"] == account and journal in (None, r["JournalCode"]))

    # Sales: 190 € and 100 € invoices, less the 190 € credit note.
    assert total("706000", "Credit") == Decimal("158.33") + Decimal("83.33")
    assert total("706000", "Debit") == Decimal("158.33")
    assert total("445710", "Credit") == Decimal("31.67") + Decimal("16.67")
    # Payments by means: the card online (paid, then refunded), the gift card, Pass'Sport, cash.
    assert (total("512100", "Debit"), total("512100", "Credit")) == (Decimal("190.00"), Decimal("190.00"))
    assert total("419100", "Debit") == Decimal("30.00")
    assert total("511400", "Debit") == Decimal("50.00") and total("530000", "Debit") == Decimal("20.00")
    customer = [r for r in rows if r["CompteNum"] == "411000"]
    assert all(r["CompAuxNum"].startswith("C") and r["CompAuxLib"] == "Emma Petit" for r in customer)
    # March's sale is not in February's file.
    assert not any("80,00" in (r["Debit"], r["Credit"]) for r in rows)


def test_the_journal_is_the_sites_csv_with_numbers_and_dates(api_client, staff, february):
    api_client.force_authenticate(staff)
    response = api_client.get("/api/accounting/journal", MONTH)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeffJournal;N° d'écriture;Date;Compte;Intitulé du compte;")
    lines = text.split("\r\n")
    first = lines[1].split(";")
    assert first[0] == "Ventes" and first[2] == "10/02/2027" and first[3] == "411000" and first[9] == "190,00"
    assert any(";158,33\r\n" in line + "\r\n" for line in lines)


def test_staff_only_and_a_wrong_period_is_refused_in_french(api_client, member, staff):
    assert api_client.get("/api/accounting/fec", MONTH).status_code in (401, 403)
    api_client.force_authenticate(member)
    assert api_client.get("/api/accounting/journal", MONTH).status_code == 403
    api_client.force_authenticate(staff)
    garbled = api_client.get("/api/accounting/fec", {"start": "02/2027", "end": "2027-02-28"})
    assert garbled.status_code == 400 and garbled.json()["error"] == MSG_EXPORT_DATE
    backwards = api_client.get("/api/accounting/journal", {"start": "2027-02-28", "end": "2027-02-01"})
    assert backwards.status_code == 409 and backwards.json()["error"] == MSG_EXPORT_RANGE
    ancient = api_client.get("/api/accounting/fec", {"start": "0001-01-01", "end": "0001-01-07"})
    assert ancient.status_code == 409 and ancient.json()["error"] == MSG_ACCOUNTING_YEARS
