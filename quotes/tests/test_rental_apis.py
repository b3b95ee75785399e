"""Contact-message and rental APIs: shapes, permissions per object, fixed query counts."""

import datetime

import pytest
from django.utils import timezone

from quotes.models import RoomRentalRequest
from quotes.services import rentals
from quotes.tests.factories import RoomRentalRequestFactory

pytestmark = pytest.mark.django_db

CONTACT = {
    "name": "Emma Petit",
    "email": "emma@example.fr",
    "phone": "0612345678",
    "subject": "Cours d'essai",
    "message": "Bonjour, puis-je essayer un cours ?",
    "followUp": True,
    "user_id": None,
}


# --- POST /api/contact-messages ------------------------------------------------------------------------


RENTAL = {"name": "Léa", "email": "lea@example.fr", "phone": "06 12 34 56 78", "eventType": "Réunion", "time": "10:00"}


def _next_week() -> str:
    return (timezone.localdate() + datetime.timedelta(days=7)).isoformat()


def test_visitor_posts_a_rental_request(api_client, mailoutbox, django_capture_on_commit_callbacks):
    date = (timezone.localdate() + datetime.timedelta(days=7)).isoformat()
    payload = {"name": "Léa", "email": "lea@example.fr", "phone": "0612345678", "eventType": "Réunion"}
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post("/api/rental-requests", {**payload, "date": date, "time": "10:00"}, format="json")
    assert response.status_code == 201 and response.json()["eventType"] == "Réunion"
    assert RoomRentalRequest.objects.count() == 1 and len(mailoutbox) == 1


def test_rental_request_with_a_bad_phone_is_refused(api_client):
    date = (timezone.localdate() + datetime.timedelta(days=7)).isoformat()
    payload = {"name": "Léa", "email": "lea@example.fr", "phone": "12", "eventType": "Cours", "date": date}
    response = api_client.post("/api/rental-requests", {**payload, "time": "10:00"}, format="json")
    assert response.status_code == 400 and response.json()["error"] == rentals.MSG_RENTAL_PHONE


def test_rental_list_is_for_staff_only(api_client, member):
    assert api_client.get("/api/rental-requests").status_code == 401
    api_client.force_authenticate(member)
    assert api_client.get("/api/rental-requests").status_code == 403


@pytest.mark.parametrize("count", [1, 15])
def test_rental_list_is_paginated_sorted_and_fixed_in_queries(api_client, staff, count, django_assert_num_queries):
    for days in range(count):
        RoomRentalRequestFactory(date=timezone.localdate() + datetime.timedelta(days=days + 1))
    api_client.force_authenticate(staff)
    with django_assert_num_queries(3):  # count, page, the page's history
        body = api_client.get("/api/rental-requests?ordering=date").json()
    assert body["count"] == count and len(body["results"]) == min(count, 10)
    dates = [r["date"] for r in body["results"]]
    assert dates == sorted(dates)


def test_a_rental_phone_typed_with_spaces_is_kept_as_ten_digits(api_client):
    response = api_client.post("/api/rental-requests", {**RENTAL, "date": _next_week()}, format="json")
    assert response.status_code == 201 and response.json()["phone"] == "0612345678"


@pytest.mark.parametrize("phone", ["12", "06123456789", "٠٦١٢٣٤٥٦٧٨", "06-12-34-56-7x"])
def test_a_rental_phone_that_is_not_ten_digits_is_refused(api_client, phone):
    response = api_client.post("/api/rental-requests", {**RENTAL, "phone": phone, "date": _next_week()}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == rentals.MSG_RENTAL_PHONE
    assert response.json()["errors"]["phone"] == [rentals.MSG_RENTAL_PHONE]


@pytest.mark.parametrize("missing", ["name", "email", "phone", "date", "time"])
def test_a_rental_request_missing_a_field_says_what_is_required(api_client, missing):
    payload = {**RENTAL, "date": _next_week()}
    del payload[missing]
    response = api_client.post("/api/rental-requests", payload, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == rentals.MSG_RENTAL_REQUIRED
    assert not RoomRentalRequest.objects.exists()


def test_a_rental_in_the_past_or_of_an_unknown_type_is_refused(api_client):
    yesterday = (timezone.localdate() - datetime.timedelta(days=1)).isoformat()
    response = api_client.post("/api/rental-requests", {**RENTAL, "date": yesterday}, format="json")
    assert response.status_code == 400 and response.json()["error"] == rentals.MSG_RENTAL_DATE_PAST
    assert response.json()["code"] == "rental_date_past"
    response = api_client.post(
        "/api/rental-requests", {**RENTAL, "eventType": "Rave", "date": _next_week()}, format="json"
    )
    assert response.status_code == 400 and response.json()["error"] == rentals.MSG_RENTAL_EVENT_TYPE


@pytest.mark.parametrize("phone", ["0612345678\n", "06\t12345678", " 0612345678\x1c"])
def test_a_rental_phone_is_what_its_pattern_says_nothing_trimmed(phone, api_client):
    """schemathesis: the pattern is read alike by the server and the schema (no `\\s`, no final newline)."""
    response = api_client.post("/api/rental-requests", {**RENTAL, "phone": phone, "date": _next_week()}, format="json")
    assert response.status_code == 400 and response.json()["error"] == rentals.MSG_RENTAL_PHONE
    assert not RoomRentalRequest.objects.exists()


def test_a_page_beyond_the_last_is_404(api_client, staff):
    api_client.force_authenticate(staff)
    assert api_client.get("/api/rental-requests?page=5").status_code == 404


def test_the_schema_states_the_rental_phone_pattern():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    rental = schema["components"]["schemas"]["RentalRequestInput"]["properties"]["phone"]
    assert rental["pattern"] and rental["maxLength"] == 20
