from datetime import datetime, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from bookings.apis.common import MSG_AMOUNT_INVALID, MSG_LOGIN_TO_RESERVE, MSG_RANGE_INVALID
from bookings.models import CourseFeedback, Reservation, ReservationStatus
from bookings.services.common import (
    MSG_ALREADY_RESERVED,
    MSG_AMOUNT_MISMATCH,
    MSG_NOT_ENOUGH_SEATS,
    MSG_PARTICIPANTS_INVALID,
    MSG_RESERVATION_REQUIRED,
    MSG_RESERVATION_SENT,
    MSG_SESSION_NOT_FOUND,
)
from bookings.services.feedback import MSG_FEEDBACK_REQUIRED, MSG_FEEDBACK_SAVED
from bookings.tests.factories import CourseFeedbackFactory, ReservationFactory
from courses.models import MAX_SESSION_PLACES, CourseSession
from courses.tests.factories import CourseFactory, CourseSessionFactory, instructor_named

pytestmark = pytest.mark.django_db

PARIS = timezone.get_default_timezone()
FEED = "/api/course-sessions"


def paris(*args):
    return timezone.make_aware(datetime(*args), PARIS)


def make_sessions(count, first_start, course=None):
    course = course or CourseFactory()
    CourseSession.objects.bulk_create(
        CourseSession(
            course=course,
            start=first_start + timedelta(hours=i),
            end=first_start + timedelta(hours=i, minutes=60),
            instructor=instructor_named("Inès"),
            max_attendees=10,
        )
        for i in range(count)
    )


# --- Public feed ---


def test_feed_item_shape_and_seats_left(api_client, member, other_member):
    session = CourseSessionFactory(max_attendees=3, details="Tenue souple")
    ReservationFactory(session=session, participants=2)
    ReservationFactory(session=session, status=ReservationStatus.EXPIRED, participants=1)
    day = timezone.localtime(session.start).date()
    response = api_client.get(FEED, {"start": day.isoformat(), "end": (day + timedelta(days=1)).isoformat()})
    assert response.status_code == 200
    [item] = response.json()
    assert item["id"] == session.pk
    assert item["course_id"] == session.course_id
    assert item["course_title"] == session.course.title
    assert item["date"] == timezone.localtime(session.start).isoformat()
    assert item["end_date"] == timezone.localtime(session.end).isoformat()
    assert item["instructor"] == "Camille Laurent"
    assert item["details"] == "Tenue souple"
    assert item["seats_left"] == 1 and item["max_attendees"] == 3
    assert item["price_per_participant"] == "25.00"
    assert item["my_reservation"] is None


def test_feed_honours_start_and_end(api_client):
    inside = CourseSessionFactory(start=paris(2031, 3, 10, 18, 0))
    CourseSessionFactory(start=paris(2031, 3, 2, 18, 0))
    CourseSessionFactory(start=paris(2031, 3, 20, 18, 0))
    response = api_client.get(FEED, {"start": "2031-03-09T00:00:00+01:00", "end": "2031-03-16T00:00:00+01:00"})
    assert [s["id"] for s in response.json()] == [inside.pk]


def test_feed_refuses_a_bad_range(api_client):
    response = api_client.get(FEED, {"start": "hier", "end": "demain"})
    assert response.status_code == 400
    assert response.json()["error"] == MSG_RANGE_INVALID


@pytest.mark.parametrize("logged_in", [False, True])
def test_feed_runs_the_same_queries_for_10_and_1000_sessions(api_client, member, logged_in):
    if logged_in:
        api_client.force_authenticate(member)
    params = {"start": "2031-01-01T00:00:00+01:00", "end": "2031-04-01T00:00:00+01:00"}
    make_sessions(10, paris(2031, 1, 5, 8, 0))
    ReservationFactory(session=CourseSession.objects.first(), user=member)
    with CaptureQueriesContext(connection) as small:
        assert len(api_client.get(FEED, params).json()) == 10
    make_sessions(990, paris(2031, 1, 20, 8, 0))
    with CaptureQueriesContext(connection) as large:
        body = api_client.get(FEED, params).json()
    assert len(body) == 1000
    assert len(small) == len(large) == (2 if logged_in else 1)
    if logged_in:
        assert sum(1 for s in body if s["my_reservation"]) == 1


def test_staff_listing_is_paginated_with_attendee_counts(api_client, staff, django_assert_num_queries):
    api_client.force_authenticate(staff)
    make_sessions(25, timezone.now() + timedelta(days=1))
    session = CourseSession.objects.order_by("start").first()
    ReservationFactory(session=session, participants=2)
    # the count, then the page with its seats and waiting lists (never an aggregate over every session)
    with django_assert_num_queries(2):
        response = api_client.get(FEED, {"view": "staff", "page": 1})
    body = response.json()
    assert body["count"] == 25 and len(body["results"]) == 10
    first = body["results"][0]
    assert first["id"] == session.pk and first["seats_taken"] == 2 and first["reservations_count"] == 1
    assert first["start_paris"] == timezone.localtime(session.start).strftime("%Y-%m-%d %H:%M:%S")
    desc = api_client.get(FEED, {"view": "staff", "ordering": "-date"}).json()
    assert desc["results"][0]["id"] != session.pk


def test_staff_listing_is_refused_to_members(api_client, member):
    api_client.force_authenticate(member)
    assert api_client.get(FEED, {"view": "staff"}).status_code == 403


def test_attendee_list_for_staff(api_client, staff, member, django_assert_num_queries):
    session = CourseSessionFactory(max_attendees=10)
    ReservationFactory(session=session, user=member, participants=2)
    ReservationFactory(session=session, held=True, participants=1)
    ReservationFactory(session=session, status=ReservationStatus.EXPIRED)
    api_client.force_authenticate(staff)
    with django_assert_num_queries(2):
        response = api_client.get(f"{FEED}/{session.pk}/attendees")
    body = response.json()
    assert body["seats_taken"] == 3 and body["seats_left"] == 7
    paid = {r["email"]: r["paid"] for r in body["results"]}
    assert len(paid) == 2 and paid[member.email] is True
    api_client.force_authenticate(member)
    assert api_client.get(f"{FEED}/{session.pk}/attendees").status_code == 403


# --- Member reservations ---


def reservation_payload(session, **extra):
    return {
        "session_id": session.pk,
        "title": session.course.title,
        "participants": 2,
        "first_name": "Emma",
        "last_name": "Petit",
        "email": "emma@example.fr",
        "message": "",
        "type": "cours",
        **extra,
    }


def test_member_holds_seats(api_client, member):
    api_client.force_authenticate(member)
    session = CourseSessionFactory()
    response = api_client.post(
        "/api/reservations-courses", reservation_payload(session, total_amount="50.00"), format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert body["message"] == MSG_RESERVATION_SENT
    assert body["total_amount"] == "50.00" and body["status"] == "held" and body["hold_expires_at"]
    assert Reservation.objects.get().user == member


def test_visitor_cannot_reserve(api_client):
    session = CourseSessionFactory()
    response = api_client.post("/api/reservations-courses", reservation_payload(session), format="json")
    assert response.status_code == 401
    assert response.json()["error"] == MSG_LOGIN_TO_RESERVE


def test_reservation_refusals_answer_french_messages(api_client, member):
    api_client.force_authenticate(member)
    session = CourseSessionFactory(max_attendees=1)
    bad = api_client.post("/api/reservations-courses", reservation_payload(session, email=""), format="json")
    assert bad.status_code == 400 and bad.json()["error"] == MSG_RESERVATION_REQUIRED
    too_many = api_client.post("/api/reservations-courses", reservation_payload(session), format="json")
    assert too_many.status_code == 409
    assert too_many.json()["error"] == MSG_NOT_ENOUGH_SEATS.format(seats=1)
    mismatch = api_client.post(
        "/api/reservations-courses", reservation_payload(session, participants=1, total_amount="1.00"), format="json"
    )
    assert mismatch.status_code == 409  # a well-formed amount that is not the session's price: a conflict
    assert mismatch.json()["error"] == MSG_AMOUNT_MISMATCH.format(expected=Decimal("25.00"))
    missing = api_client.post("/api/reservations-courses", {"session_id": "abc"}, format="json")
    assert missing.status_code == 400
    assert not Reservation.objects.exists()


# --- Feedback ---


def test_feedback_list_is_self_or_staff(api_client, member, other_member, staff, django_assert_num_queries):
    past = CourseSessionFactory(start=timezone.now() - timedelta(days=3))
    future = CourseSessionFactory()
    ReservationFactory(session=past, user=member)
    ReservationFactory(session=future, user=member)
    CourseFeedbackFactory(user=member, course=past.course, rating=5, comment="Top")
    api_client.force_authenticate(member)
    with django_assert_num_queries(2):  # the count, then the page with its feedback
        body = api_client.get(f"/api/course-feedback/user/{member.pk}").json()
    summary = [(r["session_id"], r["is_past"], r["rating"]) for r in body["results"]]
    assert summary == [(future.pk, False, None), (past.pk, True, 5)]  # upcoming first, then the latest past
    assert body["count"] == 2 and body["next"] is None
    assert api_client.get(f"/api/course-feedback/user/{other_member.pk}").status_code == 403
    api_client.force_authenticate(staff)
    assert api_client.get(f"/api/course-feedback/user/{member.pk}").json()["count"] == 2


def test_feedback_history_is_paginated_upcoming_first_then_most_recent_past(api_client, member):
    now = timezone.now()
    upcoming = [CourseSessionFactory(start=now + timedelta(days=d)) for d in (9, 2, 5)]
    past = [CourseSessionFactory(start=now - timedelta(days=d)) for d in (30, 3, 12, 60)]
    for session in upcoming + past:
        ReservationFactory(session=session, user=member)
    api_client.force_authenticate(member)
    url = f"/api/course-feedback/user/{member.pk}"
    first = api_client.get(url, {"page_size": 4}).json()
    second = api_client.get(first["next"]).json()
    assert first["count"] == 7 and second["next"] is None and first["previous"] is None
    order = [r["session_id"] for r in first["results"] + second["results"]]
    by_start = sorted(upcoming, key=lambda s: s.start) + sorted(past, key=lambda s: s.start, reverse=True)
    assert order == [s.pk for s in by_start]
    assert len(api_client.get(url).json()["results"]) == 7  # 20 a page by default


def test_feedback_post(api_client, member, other_member):
    past = CourseSessionFactory(start=timezone.now() - timedelta(days=3))
    ReservationFactory(session=past, user=member)
    api_client.force_authenticate(member)
    empty = api_client.post("/api/course-feedback", {"course_id": past.course_id, "rating": 4}, format="json")
    assert empty.status_code == 400 and empty.json()["error"] == MSG_FEEDBACK_REQUIRED
    payload = {"user_id": member.pk, "course_id": past.course_id, "rating": 4, "comment": "Génial"}
    ok = api_client.post("/api/course-feedback", payload, format="json")
    assert ok.status_code == 200 and ok.json()["message"] == MSG_FEEDBACK_SAVED
    forged = api_client.post("/api/course-feedback", {**payload, "user_id": other_member.pk}, format="json")
    assert forged.status_code == 403
    assert CourseFeedback.objects.get().rating == 4


def test_feed_is_cached_and_a_reservation_refreshes_it(api_client, member, django_assert_num_queries):
    from bookings.services.reservations import reservation_hold

    session = CourseSessionFactory(max_attendees=3)
    params = {
        "start": (session.start - timedelta(days=1)).isoformat(),
        "end": (session.start + timedelta(days=1)).isoformat(),
    }
    assert api_client.get("/api/course-sessions", params).json()[0]["seats_left"] == 3
    with django_assert_num_queries(0):
        assert api_client.get("/api/course-sessions", params).json()[0]["seats_left"] == 3
    reservation_hold(
        user=member, session_id=session.pk, participants=2, first_name="Emma", last_name="Petit", email=member.email
    )
    assert api_client.get("/api/course-sessions", params).json()[0]["seats_left"] == 1


# --- Typed payloads, statuses carried by the errors ---


@pytest.mark.parametrize("participants", ["abc", 2.5, None, 10**6])
def test_rubbish_participants_are_refused_in_french_never_turned_into_one(api_client, member, participants):
    api_client.force_authenticate(member)
    session = CourseSessionFactory()
    response = api_client.post(
        "/api/reservations-courses", reservation_payload(session, participants=participants), format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"] == MSG_PARTICIPANTS_INVALID.format(max=MAX_SESSION_PLACES)
    assert response.json()["errors"]["participants"]
    assert not Reservation.objects.exists()


def test_reservation_statuses_come_from_the_error_codes(api_client, member):
    api_client.force_authenticate(member)
    session = CourseSessionFactory(max_attendees=2)
    unknown = api_client.post(
        "/api/reservations-courses", reservation_payload(session, session_id=999999), format="json"
    )
    assert unknown.status_code == 404 and unknown.json()["code"] == "session_not_found"
    assert unknown.json()["error"] == MSG_SESSION_NOT_FOUND
    rubbish_id = api_client.post(
        "/api/reservations-courses", reservation_payload(session, session_id="x"), format="json"
    )
    assert rubbish_id.status_code == 400 and rubbish_id.json()["error"] == MSG_SESSION_NOT_FOUND
    held = api_client.post("/api/reservations-courses", reservation_payload(session), format="json")
    assert held.status_code == 201
    Reservation.objects.update(status=ReservationStatus.CONFIRMED)
    again = api_client.post("/api/reservations-courses", reservation_payload(session), format="json")
    assert again.status_code == 409 and again.json()["code"] == "already_reserved"
    assert again.json()["error"] == MSG_ALREADY_RESERVED
    bad_amount = api_client.post(
        "/api/reservations-courses", reservation_payload(session, total_amount="NaN"), format="json"
    )
    assert bad_amount.status_code == 400 and bad_amount.json()["error"] == MSG_AMOUNT_INVALID
