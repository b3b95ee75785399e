"""A room-rental request may name a company to invoice (docs/decisions.md 54), as the EVJF/EVG form does: its SIREN is
checked by its Luhn key (the same French message), its VAT number by its shape, a number needs a name; a refusal
changes nothing. The deposit's invoice is then the company's, a Factur-X file."""

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone
from django.utils.html import escape
from freezegun import freeze_time

from accounts.company import MSG_COMPANY_NAME_REQUIRED, MSG_SIREN_INVALID, MSG_VAT_NUMBER_INVALID
from invoices.documents import invoice_document
from invoices.models import Invoice, InvoiceKind
from invoices.tests.test_facturx import COMPANY, check, xml_totals
from payments.tests.test_deposits import pay
from quotes.models import RoomRentalRequest
from quotes.services import rentals

pytestmark = pytest.mark.django_db


def _payload(**company) -> dict:
    day = (timezone.localdate() + datetime.timedelta(days=9)).isoformat()
    base = {"name": "Léa Moreau", "email": "lea@example.fr", "phone": "0612345678", "eventType": "Réunion"}
    return {**base, "date": day, "time": "10:00", **company}


@pytest.mark.parametrize(
    ("company", "field", "message"),
    [
        ({"company_name": "CSE Lumière", "company_siren": "732 829 321"}, "company_siren", MSG_SIREN_INVALID),
        (
            {"company_name": "CSE Lumière", "company_vat_number": "44732829320"},
            "company_vat_number",
            MSG_VAT_NUMBER_INVALID,
        ),
        ({"company_siren": "732829320"}, "company_name", MSG_COMPANY_NAME_REQUIRED),
    ],
)
def test_the_rental_api_refuses_a_wrong_company_in_french_and_stores_nothing(api_client, company, field, message):
    refused = api_client.post("/api/rental-requests", _payload(**company), format="json")
    assert refused.status_code == 400
    assert refused.json()["error"] == message and refused.json()["errors"] == {field: [message]}
    assert not RoomRentalRequest.objects.exists()


def test_the_rental_api_stores_the_company_normalised_and_answers_it(api_client):
    created = api_client.post(
        "/api/rental-requests",
        _payload(
            company_name=" Lumière SA ",
            company_siren="732 829 320",
            company_vat_number="fr 44 732829320",
            company_address="8 quai Perrache, 69002 Lyon",
        ),
        format="json",
    )
    assert created.status_code == 201, created.json()
    rental = RoomRentalRequest.objects.get()
    assert (rental.company_name, rental.company_siren, rental.company_vat_number, rental.company_address) == (
        "Lumière SA",
        "732829320",
        "FR44732829320",
        "8 quai Perrache, 69002 Lyon",
    )
    assert created.json()["company_name"] == "Lumière SA" and created.json()["company_siren"] == "732829320"


def test_a_rental_without_a_company_stays_a_persons(api_client):
    created = api_client.post("/api/rental-requests", _payload(company_name="", company_siren=""), format="json")
    assert created.status_code == 201, created.json()
    assert RoomRentalRequest.objects.get().company_name == "" and created.json()["company_name"] == ""


def _form_post(**company) -> dict:
    return {**_payload(**company), "message": "", "back": "/room-rental"}


def test_the_rental_form_page_offers_the_company_fields(client):
    html = client.get("/rental-form").content.decode()
    assert "Facture au nom d'une société (facultatif)" in html
    for label in ("Nom de la société", "SIREN", "N° de TVA intracommunautaire", "Adresse de facturation"):
        assert f">{escape(label)}\xa0:</label>" in html  # French typography: a no-break space
    assert 'name="company_siren"' in html and 'autocomplete="organization"' in html


def test_the_rental_form_page_shows_a_wrong_siren_beside_its_field_and_stores_nothing(client):
    refused = client.post("/rental-form", _form_post(company_name="CSE Lumière", company_siren="732829321"))
    assert refused.status_code == 400
    html = refused.content.decode()
    assert escape(MSG_SIREN_INVALID) in html
    assert 'name="company_siren" value="732829321"' in html and 'aria-describedby="id_company_siren_error"' in html
    assert not RoomRentalRequest.objects.exists()

    saved = client.post("/rental-form", _form_post(company_name="CSE Lumière", company_siren="732 829 320"))
    assert saved.status_code == 302
    assert RoomRentalRequest.objects.get().company_siren == "732829320"


def test_a_companys_rental_deposit_invoice_is_factur_x(api_client, member, staff, settings, tmp_path):
    settings.INVOICE_VAT = {"status": "taxable", "rate": "20.00"}
    api_client.force_authenticate(member)
    created = api_client.post("/api/rental-requests", _payload(**COMPANY), format="json")
    assert created.status_code == 201, created.json()
    rental_id = created.json()["id"]
    rentals.rental_quote(rental_id=rental_id, staff=staff, amount=Decimal("300.00"), deposit=Decimal("120.00"))
    with freeze_time(timezone.now()):
        pay(api_client, kind="rental", request_id=rental_id, amount="120.00")
    invoice = Invoice.objects.get(kind=InvoiceKind.INVOICE)
    assert (invoice.customer_company_name, invoice.customer_siren, invoice.customer_vat_number) == (
        COMPANY["company_name"],
        "732829320",
        "FR44732829320",
    )
    xml, text = check(invoice_document(invoice=invoice), tmp_path)
    assert COMPANY["company_name"] in text and "SIREN : 732829320" in text
    assert xml_totals(xml)["GrandTotalAmount"] == Decimal("120.00")
    assert xml_totals(xml)["TaxTotalAmount"] == Decimal("20.00")


def test_the_studio_hears_of_the_company_in_the_request_email(
    api_client, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        created = api_client.post(
            "/api/rental-requests",
            _payload(company_name="CSE Lumière", company_siren="732829320", company_vat_number="FR44732829320"),
            format="json",
        )
    assert created.status_code == 201, created.json()
    (mail,) = mailoutbox
    company = "CSE Lumière – SIREN 732829320 – TVA FR44732829320"
    assert f"Société à facturer : {company}" in mail.body
    assert f"<strong>Société à facturer :</strong> {company}" in mail.alternatives[0][0]
