"""Pages: contact without JavaScript (PRG), room rental, confirmation, member and staff message pages, badge."""

import datetime

import pytest
from django.utils import timezone
from django.utils.html import escape

from quotes.models import RoomRentalRequest
from quotes.services import rentals

pytestmark = pytest.mark.django_db


def _rental_post(**overrides):
    data = {
        "name": "Léa Moreau",
        "email": "lea@example.fr",
        "phone": "0612345678",
        "eventType": "Réunion",
        "date": (timezone.localdate() + datetime.timedelta(days=5)).isoformat(),
        "time": "14:30",
        "message": "",
        "back": "/room-rental",
    }
    data.update(overrides)
    return data


def test_room_rental_page_has_the_modal_and_a_no_js_link(client):
    html = client.get("/room-rental").content.decode()
    assert 'href="/rental-form" data-rental-open' in html
    assert "<dialog" in html and "Fermer" in html
    for label in ("Événement Privé", "Réunion", "Anniversaire", "Cours"):
        assert label in html


def test_rental_form_page_stores_emails_and_confirms(client, mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/rental-form", _rental_post())
    assert response.status_code == 302 and response["Location"] == "/confirmation"
    rental = RoomRentalRequest.objects.get()
    assert len(mailoutbox) == 1
    page = client.get("/confirmation").content.decode()
    assert "Demande envoyée" in page and rental.event_type in page


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"phone": "123"}, rentals.MSG_RENTAL_PHONE),
        ({"date": "2020-01-01"}, rentals.MSG_RENTAL_DATE_PAST),
    ],
)
def test_rental_form_refuses_bad_input_with_a_french_message(
    client, overrides, message, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/rental-form", _rental_post(**overrides))
    assert response.status_code == 400
    assert escape(message) in response.content.decode()
    assert not RoomRentalRequest.objects.exists() and not mailoutbox


@pytest.mark.parametrize("field", ["name", "email", "phone", "date", "time"])
def test_rental_form_requires_fields(client, field):
    response = client.post("/rental-form", _rental_post(**{field: ""}))
    assert response.status_code == 400 and not RoomRentalRequest.objects.exists()


def test_rental_form_message_is_optional(client):
    assert client.post("/rental-form", _rental_post(message="")).status_code == 302


def test_rental_form_cancel_goes_back_to_the_referring_page(client):
    html = client.get("/rental-form", HTTP_REFERER="http://testserver/tarifs").content.decode()
    assert 'href="http://testserver/tarifs" data-history-back' in html
    html = client.get("/rental-form", HTTP_REFERER="https://evil.example/").content.decode()
    assert 'href="/room-rental" data-history-back' in html


def test_the_confirmation_page_is_the_stored_copy_for_visitors_and_shows_a_senders_own_request():
    from django.test import Client

    assert Client().get("/confirmation").templates  # a visitor without a session: built once, then stored
    visitor = Client().get("/confirmation")
    assert visitor.status_code == 200 and visitor.templates == []
    sender = Client()
    assert sender.post("/rental-form", _rental_post(eventType="Anniversaire")).status_code == 302
    own = sender.get("/confirmation")
    assert own.templates and "Anniversaire" in own.content.decode()
