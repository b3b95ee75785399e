"""'Mes demandes' (docs/decisions.md 17): the member's EVJF/EVG and room-rental requests with their status, quote,
history, deposit widget and cancel button; another member's request is a 404; the list runs a fixed number of
queries."""

from datetime import time, timedelta
from decimal import Decimal

import pytest
from django.contrib.messages import get_messages
from django.utils import timezone

from project.pages.requests import MSG_NO_REQUESTS, MSG_REQUEST_CANCELLED
from quotes.models import PartyReservation, RoomRentalRequest
from quotes.services import parties, rentals
from quotes.workflow import MSG_NOT_CANCELLABLE


def make_party(member, days=20):
    return PartyReservation.objects.create(
        user=member,
        date=timezone.localdate() + timedelta(days=days),
        time=time(15, 0),
        participants=8,
        email=member.email,
    )


def make_rental(member):
    return RoomRentalRequest.objects.create(
        user=member,
        name="Emma",
        email=member.email,
        phone="0601020304",
        date=timezone.localdate() + timedelta(days=9),
        time=time(19, 0),
    )


@pytest.fixture
def quoted(member, staff):
    party = make_party(member)
    return parties.party_quote(
        party_id=party.pk, staff=staff, participants=8, spectators=2, deposit=Decimal("50.00"), note="À bientôt"
    )


def test_the_list_shows_each_request_with_its_status(client, member, staff, quoted):
    rental = make_rental(member)
    client.force_login(member)
    page = client.get("/user/requests").content.decode()
    assert "Mes demandes" in page and "Devis envoyé" in page and "Envoyée" in page
    assert f'href="/user/requests/evjf/{quoted.pk}"' in page and f'href="/user/requests/location/{rental.pk}"' in page
    assert "185,00 €" in page and "50,00 €" in page and "Payer l'acompte" in page


def test_an_empty_list_says_so(client, member):
    client.force_login(member)
    assert MSG_NO_REQUESTS.replace("'", "&#x27;") in client.get("/user/requests").content.decode()


def test_the_request_page_offers_the_deposit_then_shows_it_paid(client, member, quoted):
    client.force_login(member)
    page = client.get(f"/user/requests/evjf/{quoted.pk}").content.decode()
    assert 'data-island="request-deposit"' in page and '"amount": "50.00"' in page and '"kind": "party"' in page
    assert "Demande envoyée" in page and "Devis envoyé" in page and "Le studio" in page and "À bientôt" in page
    assert "Annuler la demande" in page
    assert f"{timezone.localtime(quoted.quoted_at):%d/%m/%Y à %H:%M}" in page  # the history's dates, in Paris time
    parties.party_deposit_record(party_id=quoted.pk, amount=Decimal("50.00"))
    page = client.get(f"/user/requests/evjf/{quoted.pk}").content.decode()
    assert 'data-island="request-deposit"' not in page
    assert "Devis envoyé – acompte payé, confirmation à venir" in page and "Acompte payé" in page
    assert "L'acompte payé vous sera remboursé." in page


def test_another_members_request_is_a_404(client, other_member, quoted):
    client.force_login(other_member)
    assert client.get(f"/user/requests/evjf/{quoted.pk}").status_code == 404
    assert client.post(f"/user/requests/evjf/{quoted.pk}/cancel").status_code == 404
    assert client.get(f"/user/requests/mariage/{quoted.pk}").status_code == 404
    quoted.refresh_from_db()
    assert quoted.status == "quoted"


def test_logged_out_visitors_are_sent_to_login(client, quoted):
    response = client.get("/user/requests")
    assert response.status_code == 302 and response["Location"].startswith("/login")


def test_the_member_cancels_from_the_page(client, member, quoted):
    client.force_login(member)
    response = client.post(f"/user/requests/evjf/{quoted.pk}/cancel")
    assert response.status_code == 302 and response["Location"] == f"/user/requests/evjf/{quoted.pk}"
    assert [str(m) for m in get_messages(response.wsgi_request)] == [MSG_REQUEST_CANCELLED]
    quoted.refresh_from_db()
    assert quoted.status == "cancelled"
    again = client.post(f"/user/requests/evjf/{quoted.pk}/cancel")
    assert [str(m) for m in get_messages(again.wsgi_request)][-1] == MSG_NOT_CANCELLABLE
    page = client.get(f"/user/requests/evjf/{quoted.pk}").content.decode()
    assert "Annulée" in page and "Annuler la demande" not in page


def test_a_rental_request_page(client, member, staff):
    rental = make_rental(member)
    rentals.rental_quote(rental_id=rental.pk, staff=staff, amount=Decimal("240"), deposit=Decimal("80"))
    client.force_login(member)
    page = client.get(f"/user/requests/location/{rental.pk}").content.decode()
    assert "Location de salle" in page and '"kind": "rental"' in page and "240,00 €" in page


def test_the_list_runs_a_fixed_number_of_queries(client, member, staff, django_assert_max_num_queries):
    for days in range(1, 6):
        party = make_party(member, days=days)
        parties.party_quote(party_id=party.pk, staff=staff, participants=6, spectators=0, deposit=Decimal("20"))
        make_rental(member)
    client.force_login(member)
    with django_assert_max_num_queries(14):
        assert client.get("/user/requests").status_code == 200
