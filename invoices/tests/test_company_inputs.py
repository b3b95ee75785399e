"""A company to invoice (docs/decisions.md 54), on a member's profile or on an EVJF/EVG request: its SIREN is checked
by its Luhn key, its VAT number by its shape, a number needs a name; a refusal is in French and changes nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone
from django.utils.html import escape

from accounts.company import (
    MSG_COMPANY_NAME_REQUIRED,
    MSG_SIREN_INVALID,
    MSG_VAT_NUMBER_INVALID,
    siren_is_valid,
)
from quotes.models import PartyReservation

pytestmark = pytest.mark.django_db


def test_the_siren_key_is_luhns():
    assert siren_is_valid("732829320") and siren_is_valid("443061841")
    assert not siren_is_valid("732829321") and not siren_is_valid("12345678") and not siren_is_valid("73282932A")
    assert siren_is_valid("356000000")  # La Poste, the exception INSEE documents


def test_a_member_adds_a_company_to_the_profile(api_client, member):
    api_client.force_authenticate(member)
    url = f"/api/users/{member.pk}"
    refused = api_client.put(url, {"company_name": "Lumière SA", "company_siren": "732 829 321"}, format="json")
    assert refused.status_code == 400 and refused.json()["errors"]["company_siren"] == [MSG_SIREN_INVALID]
    refused = api_client.put(url, {"company_name": "Lumière SA", "company_vat_number": "44732829320"}, format="json")
    assert refused.json()["errors"]["company_vat_number"] == [MSG_VAT_NUMBER_INVALID]
    refused = api_client.put(url, {"company_siren": "732829320"}, format="json")
    assert refused.json()["errors"]["company_name"] == [MSG_COMPANY_NAME_REQUIRED]
    member.refresh_from_db()
    assert (member.company_name, member.company_siren) == ("", "")

    ok = api_client.put(
        url,
        {
            "company_name": "Lumière SA",
            "company_siren": "732 829 320",
            "company_vat_number": "fr 44 732829320",
            "company_address": "8 quai Perrache, 69002 Lyon",
        },
        format="json",
    )
    assert ok.status_code == 200, ok.json()
    assert (ok.json()["company_siren"], ok.json()["company_vat_number"]) == ("732829320", "FR44732829320")
    # Removing the company clears it.
    cleared = api_client.put(url, {"company_name": "", "company_siren": "", "company_vat_number": ""}, format="json")
    assert cleared.status_code == 200 and cleared.json()["company_name"] == ""


def test_a_party_request_names_its_company(api_client, member):
    api_client.force_authenticate(member)
    day = (timezone.localdate() + timedelta(days=12)).isoformat()
    payload = {"eventType": "EVJF", "date": day, "time": "16:30", "participants": 10, "email": member.email}
    refused = api_client.post(
        "/api/evf-reservations", {**payload, "company_name": "CSE", "company_siren": "123456789"}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["error"] == MSG_SIREN_INVALID
    assert not PartyReservation.objects.exists()
    created = api_client.post(
        "/api/evf-reservations",
        {**payload, "company_name": "CSE Lumière", "company_siren": "732829320", "company_address": "8 quai Perrache"},
        format="json",
    )
    assert created.status_code == 201, created.json()
    party = PartyReservation.objects.get()
    assert (party.company_name, party.company_siren, party.company_address) == (
        "CSE Lumière",
        "732829320",
        "8 quai Perrache",
    )


def test_the_profile_page_takes_a_company_and_shows_a_wrong_siren_beside_its_field(client, member):
    client.force_login(member)
    data = {"first_name": "Emma", "last_name": "Petit", "phone": "0612345678", "postal_code": "69005"}
    refused = client.post("/user/profile", {**data, "company_name": "Lumière SA", "company_siren": "732829321"})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert escape(MSG_SIREN_INVALID) in html
    assert 'name="company_siren" inputmode="numeric" maxlength="11" value="732829321" aria-invalid="true"' in html
    member.refresh_from_db()
    assert member.company_name == ""

    saved = client.post("/user/profile", {**data, "company_name": "Lumière SA", "company_siren": "732 829 320"})
    assert saved.status_code == 302
    view = client.get("/user/profile").content.decode()
    assert "Société (factures)" in view and "Lumière SA – SIREN 732829320" in view
