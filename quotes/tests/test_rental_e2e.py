"""Browser journeys of the messages (a member writes, staff answer, the member reads), the contact form and the room
rental (Debian's Chromium)."""

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.company import MSG_SIREN_INVALID
from quotes.models import RoomRentalRequest

# The person's "Nom :", not the company's "Nom de la société :".
NAME = re.compile(r"^Nom[\s:]*$")

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_room_rental_modal_through_to_confirmation(page, live_server, mailoutbox):
    page.goto(live_server.url + "/room-rental")
    opener = page.get_by_role("link", name="Réserver la salle")
    opener.click()
    dialog = page.get_by_role("dialog", name="Demande de location")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_label(NAME)).to_be_focused()
    dialog.get_by_role("button", name="Fermer").click()
    expect(dialog).to_be_hidden()
    expect(opener).to_be_focused()
    page.keyboard.press("Enter")  # reopen from the keyboard
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    opener.click()
    day = timezone.localdate() + datetime.timedelta(days=12)
    dialog.get_by_label(NAME).fill("Léa Moreau")
    dialog.get_by_label("Email").fill("lea@example.fr")
    dialog.get_by_label("Téléphone").fill("06 12 34 56 78")
    dialog.get_by_label("Type d'événement").select_option("Anniversaire")
    dialog.get_by_label("Date").fill(day.isoformat())
    dialog.get_by_label("Heure").fill("15:30")
    dialog.get_by_label("Message (facultatif)").fill("Une quinzaine de personnes.")
    dialog.get_by_role("button", name="Envoyer la demande").click()
    expect(page).to_have_url(live_server.url + "/confirmation")
    expect(page.get_by_role("heading", level=1)).to_have_text("Demande envoyée")
    expect(page.locator(".rental-summary")).to_contain_text("Anniversaire")
    rental = RoomRentalRequest.objects.get()
    assert rental.date == day and rental.time == datetime.time(15, 30) and rental.phone == "0612345678"
    assert len(mailoutbox) == 1


def test_rental_form_page_cancel_goes_back_one_page(page, live_server):
    page.goto(live_server.url + "/tarifs")
    page.evaluate("window.location.href = '/rental-form'")
    expect(page).to_have_url(live_server.url + "/rental-form")
    page.get_by_role("link", name="Annuler").click()
    expect(page).to_have_url(live_server.url + "/tarifs")


def test_a_company_asks_for_the_room_from_a_phone(page, live_server):
    """The company fields sit folded under the form; a wrong SIREN comes back beside its field, folded open."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/rental-form")
    page.get_by_label(NAME).fill("Léa Moreau")
    page.get_by_label("Email").fill("lea@example.fr")
    page.get_by_label("Téléphone").fill("06 12 34 56 78")
    page.get_by_label("Date").fill((timezone.localdate() + datetime.timedelta(days=12)).isoformat())
    page.get_by_label("Heure").fill("15:30")
    expect(page.get_by_label("SIREN")).to_be_hidden()
    page.get_by_text("Facture au nom d'une société (facultatif)").click()
    page.get_by_label("Nom de la société").fill("CSE Lumière")
    page.get_by_label("SIREN").fill("732 829 321")
    page.get_by_role("button", name="Envoyer la demande").click()
    expect(page.get_by_text(MSG_SIREN_INVALID)).to_be_visible()
    siren = page.get_by_label("SIREN")
    expect(siren).to_be_visible()
    expect(siren).to_have_attribute("aria-invalid", "true")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="/tmp/b2b/rental-company-390.png", full_page=True)
    siren.fill("732 829 320")
    page.get_by_role("button", name="Envoyer la demande").click()
    expect(page).to_have_url(live_server.url + "/confirmation")
    rental = RoomRentalRequest.objects.get()
    assert (rental.company_name, rental.company_siren) == ("CSE Lumière", "732829320")
