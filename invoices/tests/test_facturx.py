"""A business customer's invoice is Factur-X (docs/decisions.md 54): a PDF/A-3 whose embedded CII XML the `factur-x`
library validates against its profile's XSD, every font embedded, the XML's totals those the PDF prints; it names
the company, its SIREN and VAT number and carries the B2B mentions."""

import io
import re
from datetime import time, timedelta
from decimal import Decimal

import facturx
import pytest
from django.db import transaction
from django.utils import timezone
from freezegun import freeze_time
from lxml import etree
from pypdf import PdfReader

from invoices.documents import invoice_document
from invoices.facturx import NS
from invoices.models import Invoice, InvoiceKind
from invoices.services import credit_note_issue_for_order
from payments.tests.test_deposits import pay
from quotes.models import PartyEventType, PartyReservation
from quotes.services import parties

from .test_invoice_pdf import embedded_fonts, poppler

pytestmark = pytest.mark.django_db

COMPANY = {
    "company_name": "Comité social et économique Lumière SA",
    "company_siren": "732829320",
    "company_vat_number": "FR44732829320",
    "company_address": "8 quai Perrache, 69002 Lyon",
}


@pytest.fixture
def company_party(member, staff):
    party = PartyReservation.objects.create(
        user=member,
        date=timezone.localdate() + timedelta(days=20),
        time=time(16, 0),
        participants=8,
        email=member.email,
        event_type=PartyEventType.EVJF,
        **COMPANY,
    )
    return parties.party_quote(party_id=party.pk, staff=staff, participants=8, spectators=0, deposit=Decimal("120.00"))


def xml_totals(xml: bytes) -> dict[str, Decimal]:
    root = etree.fromstring(xml)
    summation = root.find(".//ram:SpecifiedTradeSettlementHeaderMonetarySummation", NS)
    return {etree.QName(child).localname: Decimal(child.text) for child in summation}


def pdf_euros(text: str, label: str) -> Decimal:
    """The amount printed after a label ("Total HT 100,00 €")."""
    found = re.search(rf"{label}\s+(-?[\d\s]+,\d\d)\s€", text)
    assert found, f"{label} is not in the PDF"
    return Decimal(re.sub(r"\s", "", found.group(1)).replace(",", "."))


def check(content: bytes, tmp_path) -> tuple[bytes, str]:
    """The embedded XML once the library has validated it, and the PDF's text."""
    filename, xml = facturx.get_xml_from_pdf(content, check_xsd=True)
    assert filename == "factur-x.xml"
    assert facturx.get_level(etree.fromstring(xml)) == "basic"
    assert facturx.xml_check_xsd(xml, flavor="factur-x", level="basic") is True
    assert embedded_fonts(content, tmp_path) and all(emb == "yes" for _, emb in embedded_fonts(content, tmp_path))
    catalog = PdfReader(io.BytesIO(content)).trailer["/Root"]
    xmp = catalog["/Metadata"].get_object().get_data()
    assert b"<pdfaid:part>3</pdfaid:part>" in xmp and b"<fx:ConformanceLevel>BASIC</fx:ConformanceLevel>" in xmp
    intent = catalog["/OutputIntents"][0].get_object()
    assert intent["/S"] == "/GTS_PDFA1" and intent["/DestOutputProfile"].get_object()["/N"] == 3
    return xml, " ".join(poppler("pdftotext", content, tmp_path, "-enc", "UTF-8").split())


@pytest.mark.parametrize("vat", [{"status": "taxable", "rate": "20.00"}, {"status": "franchise"}])
def test_a_companys_evjf_deposit_invoice_is_factur_x_whose_totals_are_the_pdfs(
    api_client, member, company_party, settings, tmp_path, vat
):
    settings.INVOICE_VAT = vat
    api_client.force_authenticate(member)
    with freeze_time(timezone.now()):
        pay(api_client, request_id=company_party.pk, amount="120.00")
    invoice = Invoice.objects.get(kind=InvoiceKind.INVOICE)
    assert (invoice.customer_company_name, invoice.customer_siren, invoice.customer_vat_number) == (
        COMPANY["company_name"],
        "732829320",
        "FR44732829320",
    )
    xml, text = check(invoice_document(invoice=invoice), tmp_path)

    assert COMPANY["company_name"] in text and "SIREN : 732829320" in text and "N° de TVA : FR44732829320" in text
    assert "8 quai Perrache, 69002 Lyon" in text and "À l'attention de Emma Petit" in text
    assert "Nature : prestations de services." in text
    assert "indemnité forfaitaire pour frais de recouvrement de 40 €" in text
    totals = xml_totals(xml)
    assert totals["GrandTotalAmount"] == pdf_euros(text, "Montant payé") == Decimal("120.00")
    assert totals["DuePayableAmount"] == Decimal("0.00")
    assert totals["TaxBasisTotalAmount"] == invoice.total_excl_vat
    assert totals["TaxTotalAmount"] == invoice.vat_amount
    if vat["status"] == "taxable":
        assert totals["TaxBasisTotalAmount"] == pdf_euros(text, "Total HT") == Decimal("100.00")
        assert totals["TaxTotalAmount"] == pdf_euros(text, "TVA 20 %") == Decimal("20.00")
    else:
        assert totals["TaxTotalAmount"] == Decimal("0.00") and "TVA non applicable, art. 293 B du CGI" in text
        reason = etree.fromstring(xml).find(".//ram:ApplicableTradeTax/ram:ExemptionReason", NS).text
        assert reason == "TVA non applicable, art. 293 B du CGI"

    with transaction.atomic():
        note = credit_note_issue_for_order(order_id=invoice.payment_order_id, reason="Annulation")
    note = Invoice.objects.select_related("credited_invoice").get(pk=note.pk)
    xml, text = check(invoice_document(invoice=note), tmp_path)
    root = etree.fromstring(xml)
    assert root.find(".//ram:TypeCode", NS).text == "381"
    assert root.find(".//ram:InvoiceReferencedDocument/ram:IssuerAssignedID", NS).text == invoice.number
    assert xml_totals(xml)["GrandTotalAmount"] == -pdf_euros(text, "Total (?:TTC|de l'avoir)") == Decimal("120.00")


def test_a_member_without_a_company_gets_a_plain_pdf(api_client, member, settings, tmp_path):
    from courses.tests.factories import TariffFactory

    from .helpers import pay_tariff

    pay_tariff(api_client, member, TariffFactory(price=Decimal("190.00"), type="forfait"))
    content = invoice_document(invoice=Invoice.objects.get())
    assert b"factur-x.xml" not in content
    assert "Nature : prestations de services" not in poppler("pdftotext", content, tmp_path)


def test_a_member_with_a_company_on_the_profile_is_invoiced_to_it(api_client, member, tmp_path):
    from courses.tests.factories import TariffFactory

    from .helpers import pay_tariff

    for field, value in COMPANY.items():
        setattr(member, field, value)
    member.save()
    pay_tariff(api_client, member, TariffFactory(price=Decimal("190.00"), type="forfait"))
    invoice = Invoice.objects.get()
    assert invoice.customer_company_name == COMPANY["company_name"]
    assert invoice.customer_address == "8 quai Perrache, 69002 Lyon"
    check(invoice_document(invoice=invoice), tmp_path)
