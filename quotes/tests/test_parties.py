"""EVJF/EVG requests at the API boundary: typed input refused in French, a past date a conflict."""

from datetime import timedelta

import pytest
from django.utils import timezone

from bookings.services.common import MSG_PARTICIPANTS_MIN
from quotes.models import PartyReservation
from quotes.services.parties import (
    MSG_PARTY_DATE_INVALID,
    MSG_PARTY_DATE_PAST,
    MSG_PARTY_EVENT_TYPE_INVALID,
    MSG_PARTY_PARTICIPANTS_MAX,
    MSG_PARTY_REQUIRED,
    MSG_PARTY_SUCCESS,
    MSG_PARTY_TIME_INVALID,
)

URL = "/api/evf-reservations"


def payload(**changes):
    day = (timezone.localdate() + timedelta(days=12)).isoformat()
    return {"eventType": "EVJF", "date": day, "time": "15:00", "participants": 6, "email": "a@example.fr", **changes}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"participants": "beaucoup"}, MSG_PARTICIPANTS_MIN),
        ({"participants": 0}, MSG_PARTICIPANTS_MIN),
        ({"participants": 101}, MSG_PARTY_PARTICIPANTS_MAX),
        ({"participants": None}, MSG_PARTY_REQUIRED),
        ({"eventType": "ANNIV"}, MSG_PARTY_EVENT_TYPE_INVALID),
        ({"date": "31/12/2030"}, MSG_PARTY_DATE_INVALID),
        ({"time": "25:00"}, MSG_PARTY_TIME_INVALID),
        ({"time": "15:00+02:00"}, MSG_PARTY_TIME_INVALID),
        ({"email": "  "}, MSG_PARTY_REQUIRED),
    ],
)
def test_rubbish_is_refused_in_french(api_client, member, changes, message):
    api_client.force_authenticate(member)
    response = api_client.post(URL, payload(**changes), format="json")
    assert response.status_code == 400 and response.json()["error"] == message
    assert not PartyReservation.objects.exists()


def test_a_past_date_is_a_conflict(api_client, member):
    api_client.force_authenticate(member)
    response = api_client.post(URL, payload(date="2001-01-01"), format="json")
    assert response.status_code == 409 and response.json()["error"] == MSG_PARTY_DATE_PAST


def test_the_island_payload_is_stored(api_client, member):
    api_client.force_authenticate(member)
    body = payload(eventType="EVG", time="09:30", message="Pour Julie", user_id=member.pk)
    response = api_client.post(URL, body, format="json")
    assert response.status_code == 201 and response.json()["message"] == MSG_PARTY_SUCCESS
    party = PartyReservation.objects.get()
    assert (party.event_type, party.time.strftime("%H:%M"), party.message) == ("EVG", "09:30", "Pour Julie")
