"""Browser journeys of the calendar, the EVJF/EVG page and my courses, in Debian's Chromium."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from quotes.models import PartyReservation
from quotes.services.parties import MSG_PARTY_REQUIRED, MSG_PARTY_SUCCESS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MSG_LOGIN_TO_RESERVE = "Vous devez être connecté pour réserver un cours."
MSG_CALENDAR_PAID = "✅ Paiement réussi ! Un Email avec votre recu vous a été envoyé"


def test_party_visitor_goes_to_login(page, live_server):
    page.goto(live_server.url + "/evjf-evg")
    page.get_by_role("link", name=re.compile("Réserver")).click()
    expect(page).to_have_url(re.compile(r"/login\?next=/evjf-evg"))


def test_party_reservation(page, live_server, login_as, member, mailoutbox):
    login_as(member)
    page.goto(live_server.url + "/evjf-evg")
    page.get_by_role("button", name=re.compile("Réserver")).click()
    expect(page.locator("#party-slider")).to_be_hidden()
    expect(page.get_by_label("Type d'événement")).to_have_value("EVJF")
    expect(page.get_by_label("Email *")).to_have_value("emma@example.fr")
    page.get_by_role("button", name="Envoyer la demande").click()
    expect(page.get_by_role("alert")).to_have_text(MSG_PARTY_REQUIRED)
    page.get_by_label("Type d'événement").select_option("EVG")
    page.get_by_label("Date *").fill((timezone.localdate() + timedelta(days=20)).isoformat())
    page.get_by_label("Heure *").fill("15:00")
    page.get_by_label("Participants *").fill("8")
    page.get_by_label("Message").fill("Surprise pour Julien")
    page.get_by_role("button", name="Envoyer la demande").click()
    expect(page.get_by_text(MSG_PARTY_SUCCESS)).to_be_visible()
    expect(page.get_by_label("Date *")).to_have_count(0)
    party = PartyReservation.objects.get()
    assert (party.event_type, party.participants, party.user) == ("EVG", 8, member)
    assert len(mailoutbox) == 2
