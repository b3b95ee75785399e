"""The bookings APIs say in their OpenAPI schema what they enforce (schemathesis with every check): list
parameters refused as the schema states them, RFC 3339 dates, PATCH documented with PUT's required fields, DELETE's
200, conflicts with the calendar answered 409."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator

from bookings.apis.common import MSG_AMOUNT_INVALID, MSG_RANGE_INVALID
from bookings.apis.pages import MSG_PAGE_SIZE_INVALID
from bookings.apis.session_query import MSG_ORDERING_INVALID, MSG_PAGE_INVALID, MSG_VIEW_INVALID
from bookings.models import Pass, ReservationStatus
from bookings.services.cancellation import MSG_CANCEL_NOT_CONFIRMED
from bookings.services.common import MSG_SESSION_PAST
from bookings.services.pass_admin import (
    MSG_END_BEFORE_START,
    MSG_GRANT_CREDITS_MIN,
    MSG_KIND_INVALID,
    MSG_MEMBER_NOT_FOUND,
    MSG_REASON_REQUIRED,
)
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.models import CourseSession
from courses.services.sessions import MSG_PRICE_INVALID, MSG_SESSION_DELETED, MSG_SESSION_FIELDS_REQUIRED
from courses.tests.factories import CourseFactory, CourseSessionFactory, TariffFactory, instructor_named

pytestmark = pytest.mark.django_db

FEED = "/api/course-sessions"
PASSES = "/api/passes"
# RFC 3339's date-time: an offset of whole minutes.
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


@pytest.fixture
def staff_client(api_client, staff):
    api_client.force_authenticate(staff)
    return api_client


@pytest.mark.parametrize(
    ("params", "field", "message"),
    [
        ({"page": "-3"}, "page", MSG_PAGE_INVALID.format(max=10**9)),
        ({"page_size": "-1830"}, "page_size", MSG_PAGE_SIZE_INVALID.format(max=100)),
        ({"page_size": "101"}, "page_size", MSG_PAGE_SIZE_INVALID.format(max=100)),
        ({"view": "AAA"}, "view", MSG_VIEW_INVALID),
        ({"ordering": "titre"}, "ordering", MSG_ORDERING_INVALID),
        ({"view": "staff", "page_size": "0"}, "page_size", MSG_PAGE_SIZE_INVALID.format(max=100)),
    ],
)
def test_list_parameters_out_of_the_schema_are_refused_in_french(staff_client, params, field, message):
    response = staff_client.get(FEED, params)
    assert response.status_code == 400
    assert response.json()["errors"][field] == [message]


def test_staff_list_past_the_last_page_is_a_documented_404(staff_client, schema):
    CourseSessionFactory()
    response = staff_client.get(FEED, {"view": "staff", "page": 50, "page_size": 10})
    assert response.status_code == 404
    assert "404" in schema["paths"][FEED]["get"]["responses"]


def test_feed_range_rule_the_schema_cannot_state_is_refused(api_client):
    """Reversed, or longer than 400 days: two valid dates refused together (schemathesis.toml's exception)."""
    for start, end in (("2031-03-10", "2031-03-01"), ("2031-01-01", "2032-06-01"), ("0001-01-01T00:00:00+05:00", "")):
        response = api_client.get(FEED, {"start": start, **({"end": end} if end else {})})
        assert response.status_code == 400 and response.json()["error"] == MSG_RANGE_INVALID


def test_an_empty_date_is_no_date(api_client, staff_client):
    """`?start=` is not a date (the schema's format): refused, not read as absent."""
    for params in ({"start": ""}, {"end": ""}, {"view": "staff", "start": ""}):
        response = staff_client.get(FEED, params)
        assert response.status_code == 400 and response.json()["error"] == MSG_RANGE_INVALID


def test_old_dates_are_written_as_rfc3339(staff_client):
    course = CourseFactory(duration=75)
    body = {
        "course_id": course.pk,
        "date": "0097-01-29T04:33:25.174530+18:42",
        "instructor_id": instructor_named("H").pk,
    }
    created = staff_client.post(FEED, body, format="json")
    assert created.status_code == 201, created.json()
    data = created.json()
    assert RFC3339.match(data["date"]) and RFC3339.match(data["end_date"]), data
    assert data["start_paris"].startswith("0097-01-2")
    detail = staff_client.get(f"{FEED}/{data['id']}").json()
    attendees = staff_client.get(f"{FEED}/{data['id']}/attendees").json()
    assert RFC3339.match(detail["date"]) and RFC3339.match(attendees["session"]["end_date"])


def test_patch_is_documented_with_the_fields_it_requires(schema):
    components = schema["components"]["schemas"]
    session_patch = schema["paths"][f"{FEED}/{{session_id}}"]["patch"]["requestBody"]
    assert session_patch["required"] is True
    ref = session_patch["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert components[ref]["required"] == ["course_id", "date", "instructor_id"]
    pass_patch = schema["paths"][f"{PASSES}/{{pass_id}}"]["patch"]["requestBody"]
    ref = pass_patch["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert components[ref]["required"] == ["reason"]


def test_patch_without_the_required_fields_is_refused_as_documented(staff_client, member):
    session = CourseSessionFactory()
    response = staff_client.patch(f"{FEED}/{session.pk}", {}, format="json")
    assert response.status_code == 400 and response.json()["error"] == MSG_SESSION_FIELDS_REQUIRED
    card = PassFactory(member=member)
    response = staff_client.patch(f"{PASSES}/{card.pk}", {"credits_delta": 1}, format="json")
    assert response.status_code == 400 and response.json()["error"] == MSG_REASON_REQUIRED


def test_delete_answers_its_documented_200(staff_client, schema):
    session = CourseSessionFactory()
    responses = schema["paths"][f"{FEED}/{{session_id}}"]["delete"]["responses"]
    assert "200" in responses and "204" not in responses
    deleted = staff_client.delete(f"{FEED}/{session.pk}")
    assert deleted.status_code == 200 and deleted.json() == {"message": MSG_SESSION_DELETED}
    assert not CourseSession.objects.exists()


def test_session_price_is_what_the_schema_says(staff_client, schema):
    price = schema["components"]["schemas"]["SessionWrite"]["properties"]["price_per_participant"]
    assert price["anyOf"][1]["pattern"] == r"^[0-9]{1,6}(\.[0-9]{1,2})?$"
    course = CourseFactory()
    base = {"course_id": course.pk, "date": "2031-06-02 19:00:00", "instructor_id": instructor_named("Léa").pk}
    refused = staff_client.post(FEED, {**base, "price_per_participant": "-.12"}, format="json")
    assert refused.status_code == 400 and refused.json()["error"] == MSG_PRICE_INVALID
    number = staff_client.post(FEED, {**base, "price_per_participant": 19.999}, format="json")
    assert number.status_code == 201 and number.json()["price_per_participant"] == "20.00"


def test_reserving_a_session_that_has_started_is_a_conflict(api_client, member):
    past = CourseSessionFactory(start=timezone.now() - timedelta(hours=1))
    api_client.force_authenticate(member)
    body = {"session_id": past.pk, "first_name": "Emma", "last_name": "Petit", "email": "emma@example.fr"}
    response = api_client.post("/api/reservations-courses", body, format="json")
    assert response.status_code == 409
    assert (response.json()["code"], response.json()["error"]) == ("session_past", MSG_SESSION_PAST)


def test_cancelling_a_reservation_that_is_not_confirmed_is_a_conflict(api_client, member):
    held = ReservationFactory(user=member, status=ReservationStatus.HELD)
    api_client.force_authenticate(member)
    response = api_client.post(f"/api/reservations-courses/{held.pk}/cancel")
    assert response.status_code == 409 and response.json()["error"] == MSG_CANCEL_NOT_CONFIRMED


def test_grant_states_its_alternatives_and_answers_them(staff_client, member, schema):
    grant = schema["components"]["schemas"]["PassGrantInput"]
    assert [alt["required"] for alt in grant["anyOf"]] == [
        ["tariff_id"],
        ["kind", "credits", "expires_on"],
        ["kind", "expires_on"],
    ]
    body = {"member_email": member.email, "reason": "Offert"}
    no_kind = staff_client.post(PASSES, body, format="json")
    assert no_kind.status_code == 400 and no_kind.json()["error"] == MSG_KIND_INVALID
    # Valid dates in the wrong order (the start is today when not sent): a conflict with the calendar.
    reversed_dates = staff_client.post(
        PASSES, {**body, "kind": "subscription", "expires_on": "2020-01-01"}, format="json"
    )
    assert reversed_dates.status_code == 409
    assert reversed_dates.json()["error"].startswith(MSG_END_BEFORE_START.split("(")[0])
    # A tariff that grants a subscription, asked as a card with no credits: the tariff's offer, a conflict (not 500).
    tariff = TariffFactory(type="abonnement", pass_unlimited=True, pass_validity_months=12)
    card = staff_client.post(PASSES, {**body, "tariff_id": tariff.pk, "kind": "card"}, format="json")
    assert card.status_code == 409 and card.json()["error"] == MSG_GRANT_CREDITS_MIN
    assert not Pass.objects.exists()


def test_texts_say_in_the_schema_that_nul_and_blank_are_refused(staff_client, member, schema):
    components = schema["components"]["schemas"]
    optional = [components["SessionWrite"]["properties"]["details"]["pattern"]]
    required = [
        components["PassGrantInput"]["properties"]["member_email"]["pattern"],
        components["ReservationPayload"]["properties"]["first_name"]["pattern"],
        components["FeedbackInput"]["properties"]["comment"]["pattern"],
    ]
    for pattern in optional + required:
        assert re.search(pattern, "Léa") and not re.search(pattern, "L\x00a")
    for pattern in required:
        assert not re.search(pattern, "\x1c\u3000 ") and not re.search(pattern, "")
    course = CourseFactory()
    base = {"course_id": course.pk, "date": "2031-06-02 19:00:00", "instructor_id": instructor_named("Léa").pk}
    nul = staff_client.post(FEED, {**base, "details": "a\x00b"}, format="json")
    assert nul.status_code == 400 and "details" in nul.json()["errors"]
    spaces = staff_client.post(FEED, {**base, "instructor_id": "\x1c\u3000"}, format="json")
    assert spaces.status_code == 400 and spaces.json()["error"] == MSG_SESSION_FIELDS_REQUIRED
    blank = staff_client.post(PASSES, {"member_email": "", "tariff_id": 1, "reason": "x"}, format="json")
    assert blank.status_code == 400 and blank.json()["error"] == MSG_MEMBER_NOT_FOUND


def test_reservation_amount_is_what_the_schema_says(api_client, member):
    session = CourseSessionFactory(start=timezone.now() + timedelta(days=3))
    api_client.force_authenticate(member)
    body = {"session_id": session.pk, "first_name": "Emma", "last_name": "Petit", "email": "emma@example.fr"}
    refused = api_client.post("/api/reservations-courses", {**body, "totalAmount": "-."}, format="json")
    assert refused.status_code == 400 and refused.json()["error"] == MSG_AMOUNT_INVALID
    other = api_client.post("/api/reservations-courses", {**body, "totalAmount": 0}, format="json")
    assert other.status_code == 409 and other.json()["code"] == "amount_mismatch"
    right = api_client.post("/api/reservations-courses", {**body, "totalAmount": 25}, format="json")
    assert right.status_code == 201, right.json()
