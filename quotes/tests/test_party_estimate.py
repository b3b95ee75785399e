"""The EVJF/EVG request asks whether the bride or groom takes the class (free) and how many spectators come (5 €
each); both are stored and shown to staff, and the form's live estimate is the staff's own pricing rule, answered by
the server (GET /api/evf-reservations/estimate)."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from bookings.services.common import MSG_PARTICIPANTS_MIN
from quotes.models import PartyReservation
from quotes.services import parties as services
from quotes.services.parties import MSG_PARTY_SPECTATORS_INVALID, party_quote_amount

URL = "/api/evf-reservations"
ESTIMATE = "/api/evf-reservations/estimate"


def payload(**changes):
    day = (timezone.localdate() + timedelta(days=12)).isoformat()
    return {"eventType": "EVJF", "date": day, "time": "15:00", "participants": 8, "email": "a@example.fr", **changes}


def test_the_request_stores_the_spectators_and_the_bride_or_groom_and_staff_see_them(api_client, member, staff):
    api_client.force_authenticate(member)
    response = api_client.post(URL, payload(spectators=3, guest_of_honour=False), format="json")
    assert response.status_code == 201
    party = PartyReservation.objects.get()
    assert (party.spectators, party.guest_of_honour) == (3, False)

    api_client.force_authenticate(staff)
    row = api_client.get(URL).json()["results"][0]
    assert (row["spectators"], row["guest_of_honour"]) == (3, False)
    assert row["estimate"] == "215.00"  # 8 × 25 € (nobody free) + 3 × 5 €


def test_by_default_the_bride_or_groom_takes_the_class_and_nobody_watches(api_client, member):
    api_client.force_authenticate(member)
    assert api_client.post(URL, payload(), format="json").status_code == 201
    party = PartyReservation.objects.get()
    assert (party.spectators, party.guest_of_honour) == (0, True)


@pytest.mark.parametrize("spectators", [-1, 101, "beaucoup", None])
def test_bad_spectators_are_refused_in_french_and_nothing_is_stored(api_client, member, spectators):
    api_client.force_authenticate(member)
    response = api_client.post(URL, payload(spectators=spectators), format="json")
    assert response.status_code == 400 and response.json()["error"] == MSG_PARTY_SPECTATORS_INVALID
    assert not PartyReservation.objects.exists()


@pytest.mark.parametrize(
    ("query", "amount"),
    [
        ("participants=8&spectators=2&guest_of_honour=true", "185.00"),  # (8 − 1) × 25 + 2 × 5
        ("participants=8&spectators=2&guest_of_honour=false", "210.00"),
        ("participants=3&spectators=0&guest_of_honour=true", "125.00"),  # billed for at least 6
        ("participants=8", "175.00"),
    ],
)
def test_the_estimate_is_the_staff_pricing_rule(client, db, query, amount):
    response = client.get(f"{ESTIMATE}?{query}")  # public: the offer's page shows it to anyone
    assert response.status_code == 200
    body = response.json()
    assert body["amount"] == amount
    values = dict(part.split("=") for part in query.split("&"))
    assert Decimal(amount) == party_quote_amount(
        participants=int(values["participants"]),
        spectators=int(values.get("spectators", 0)),
        guest_of_honour=values.get("guest_of_honour", "true") == "true",
    )


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("participants=0", MSG_PARTICIPANTS_MIN),
        ("participants=abc", MSG_PARTICIPANTS_MIN),
        ("participants=8&spectators=-2", MSG_PARTY_SPECTATORS_INVALID),
        ("", MSG_PARTICIPANTS_MIN),
    ],
)
def test_a_bad_estimate_query_is_refused_in_french(client, db, query, message):
    response = client.get(f"{ESTIMATE}?{query}")
    assert response.status_code == 400 and response.json()["error"] == message


def test_the_staff_quote_follows_the_request_without_the_bride_or_groom(member, staff):
    party = PartyReservation.objects.create(
        user=member,
        date=timezone.localdate() + timedelta(days=12),
        time="15:00",
        participants=8,
        email="a@example.fr",
        guest_of_honour=False,
    )
    services.party_quote(party_id=party.pk, staff=staff, participants=8, spectators=2, deposit=Decimal("50"))
    party.refresh_from_db()
    assert party.quote_amount == Decimal("210.00")


def test_the_party_page_has_no_aria_label_on_a_plain_div(client, db):
    """The Nu HTML checker refuses aria-label on a div without a role."""
    import re

    html = client.get("/evjf-evg").text
    plain = [tag for tag in re.findall(r"<div\b[^>]*>", html) if "aria-label=" in tag and " role=" not in tag]
    assert plain == []
    assert 'class="party-prices" role="group" aria-label="Tarifs EVJF et EVG"' in html


def test_the_request_emails_carry_the_spectators_the_bride_or_groom_and_the_estimate(
    api_client, member, mailoutbox, django_capture_on_commit_callbacks
):
    api_client.force_authenticate(member)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(URL, payload(spectators=3, guest_of_honour=True), format="json")
    assert response.status_code == 201
    staff_mail, member_mail = sorted(mailoutbox, key=lambda m: m.to != ["a@example.fr"])[::-1]
    assert member_mail.to == ["a@example.fr"]
    for mail in (staff_mail, member_mail):
        assert "Spectateurs : 3" in mail.body
        assert "La future mariée ou le futur marié prend le cours : oui" in mail.body
        assert "Estimation : 190,00\xa0€" in mail.body  # (8 − 1) × 25 € + 3 × 5 €, a no-break space before €
    html = member_mail.alternatives[0].content
    assert "190,00\xa0€" in html and "Spectateurs" in html
