"""Browser journeys of the messages (a member writes, staff answer, the member reads), the contact form and the room
rental (Debian's Chromium)."""

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from quotes.models import RoomRentalRequest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_room_rental_modal_through_to_confirmation(page, live_server, mailoutbox):
    page.goto(live_server.url + "/room-rental")
    opener = page.get_by_role("link", name="Réserver la salle")
    opener.click()
    dialog = page.get_by_role("dialog", name="Demande de location")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_label("Nom")).to_be_focused()
    dialog.get_by_role("button", name="Fermer").click()
    expect(dialog).to_be_hidden()
    expect(opener).to_be_focused()
    page.keyboard.press("Enter")  # reopen from the keyboard
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    opener.click()
    day = timezone.localdate() + datetime.timedelta(days=12)
    dialog.get_by_label("Nom").fill("Léa Moreau")
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
