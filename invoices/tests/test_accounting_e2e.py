"""The dashboard's Comptabilité section in a browser, on a phone: staff pick a period and download the journal and
the FEC; a member adds a company to their profile."""

from decimal import Decimal

import pytest
from freezegun import freeze_time
from playwright.sync_api import expect

from accounts.company import MSG_SIREN_INVALID
from courses.tests.factories import TariffFactory

from .helpers import pay_tariff

pytestmark = pytest.mark.e2e


def test_staff_download_the_journal_and_the_fec_from_a_phone(page, live_server, login_as, staff, member, api_client):
    with freeze_time("2027-02-10 10:00"):
        pay_tariff(api_client, member, TariffFactory(price=Decimal("190.00"), type="forfait"))
    login_as(staff)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/admin/accounting")
    expect(page.get_by_role("heading", name="Comptabilité")).to_be_visible()
    page.get_by_label("Du", exact=True).fill("2027-02-01")
    page.get_by_label("Au (inclus)", exact=True).fill("2027-02-28")
    journal = page.get_by_role("link", name="Journal des ventes et encaissements (CSV)")
    box = journal.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390  # within the phone's width
    with page.expect_download() as download:
        journal.click()
    assert download.value.suggested_filename == "journal-20270201-20270228.csv"
    assert "190,00" in open(download.value.path(), encoding="utf-8-sig").read()
    with page.expect_download() as download:
        page.get_by_role("link", name="Fichier des écritures comptables (FEC)").click()
    assert download.value.suggested_filename == "123456789FEC20270228.txt"
    lines = open(download.value.path(), encoding="utf-8").read().splitlines()
    assert lines[0].split("\t")[0] == "JournalCode" and len(lines[0].split("\t")) == 18


def test_a_member_adds_a_company_on_the_profile_from_a_phone(page, live_server, login_as, member):
    member.phone, member.postal_code = "0612345678", "69005"
    member.save()
    login_as(member)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/user/profile?edit=1")
    page.get_by_label("Nom de la société").fill("Lumière SA")
    page.get_by_label("SIREN").fill("732 829 321")
    page.get_by_role("button", name="Enregistrer").click()
    expect(page.get_by_text(MSG_SIREN_INVALID)).to_be_visible()
    page.get_by_label("SIREN").fill("732 829 320")
    page.get_by_role("button", name="Enregistrer").click()
    expect(page.get_by_text("Lumière SA – SIREN 732829320")).to_be_visible()
