"""The staff's EVJF/EVG list answers its keys in a fixed order: count, next, previous, results, each row in its
Output serializer's order."""

import json
from datetime import datetime

import pytest
from django.utils import timezone
from freezegun import freeze_time

from quotes.apis.party_requests import PartyRequestOutput
from quotes.tests.factories import PartyReservationFactory

pytestmark = pytest.mark.django_db

NOW = datetime(2030, 3, 15, 9, 0, tzinfo=timezone.get_fixed_timezone(0))


@freeze_time(NOW)
def test_the_staff_party_request_list(api_client, staff):
    for _ in range(3):
        PartyReservationFactory()
    api_client.force_authenticate(staff)

    response = api_client.get("/api/evf-reservations", {"page": 2, "page_size": 1})

    assert response.status_code == 200, response.content
    body = json.loads(response.content)
    assert list(body) == ["count", "next", "previous", "results"]
    assert (body["count"], body["next"] is None, body["previous"] is None) == (3, False, False)
    assert list(body["results"][0]) == list(PartyRequestOutput().fields)
