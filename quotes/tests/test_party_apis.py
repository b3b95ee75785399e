from datetime import timedelta

import pytest
from django.utils import timezone

from quotes.models import PartyReservation
from quotes.services.parties import MSG_PARTY_LOGIN_REQUIRED, MSG_PARTY_REQUIRED, MSG_PARTY_SUCCESS
from quotes.tests.factories import PartyReservationFactory

pytestmark = pytest.mark.django_db

PARIS = timezone.get_default_timezone()
FEED = "/api/course-sessions"


def test_reservation_evj_and_evf_reservations(api_client, member):
    api_client.force_authenticate(member)
    day = (timezone.localdate() + timedelta(days=12)).isoformat()
    evj = api_client.post(
        "/api/reservations-evj",
        {"type": "EVJ", "date": day, "time": "15:00", "participants": 7, "email": member.email, "title": "EVJF"},
        format="json",
    )
    assert evj.status_code == 201 and evj.json()["message"] == MSG_PARTY_SUCCESS
    evf = api_client.post(
        "/api/evf-reservations",
        {"eventType": "EVG", "date": day, "time": "16:30", "participants": 10, "message": "", "email": member.email},
        format="json",
    )
    assert evf.status_code == 201 and evf.json()["eventType"] == "EVG"
    missing = api_client.post("/api/evf-reservations", {"eventType": "EVJF", "email": member.email}, format="json")
    assert missing.status_code == 400 and missing.json()["error"] == MSG_PARTY_REQUIRED
    assert PartyReservation.objects.count() == 2


def test_evf_reservations_needs_login_and_staff_lists_them(api_client, staff, django_assert_num_queries):
    response = api_client.post("/api/evf-reservations", {}, format="json")
    assert response.status_code == 401 and response.json()["error"] == MSG_PARTY_LOGIN_REQUIRED
    PartyReservationFactory.create_batch(12)
    api_client.force_authenticate(staff)
    with django_assert_num_queries(3):  # count, page, the page's history
        body = api_client.get("/api/evf-reservations").json()
    assert body["count"] == 12 and len(body["results"]) == 10
    assert set(body["results"][0]) >= {"eventType", "date", "time", "participants", "email", "message"}
