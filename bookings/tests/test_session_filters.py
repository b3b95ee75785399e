"""The staff session list: filters by when (upcoming/past/cancelled/full), course, instructor, search."""

from datetime import timedelta

from django.utils import timezone

from bookings.apis.session_filters import MSG_WHEN_INVALID
from bookings.services.class_cancellation import course_session_cancel
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory

LIST = "/api/course-sessions"


def ids(response):
    assert response.status_code == 200, response.json()
    return {r["id"] for r in response.json()["results"]}


def test_filters_of_the_staff_list(api_client, staff, django_assert_max_num_queries):
    now = timezone.now()
    flow = CourseFactory(title="Pole Flow")
    past = CourseSessionFactory(start=now - timedelta(days=3), course=flow)
    upcoming = CourseSessionFactory(start=now + timedelta(days=2), instructor="Inès Robert")
    full = CourseSessionFactory(start=now + timedelta(days=3), max_attendees=1, course=flow)
    ReservationFactory(session=full)
    cancelled = CourseSessionFactory(start=now + timedelta(days=4))
    course_session_cancel(session_id=cancelled.pk, reason="Travaux")
    api_client.force_authenticate(staff)

    with django_assert_max_num_queries(8):
        assert ids(api_client.get(LIST, {"view": "staff", "when": "upcoming"})) == {upcoming.pk, full.pk}
    assert ids(api_client.get(LIST, {"view": "staff", "when": "past"})) == {past.pk}
    assert ids(api_client.get(LIST, {"view": "staff", "when": "cancelled"})) == {cancelled.pk}
    assert ids(api_client.get(LIST, {"view": "staff", "when": "full"})) == {full.pk}
    assert ids(api_client.get(LIST, {"view": "staff", "course_id": flow.pk})) == {past.pk, full.pk}
    assert ids(api_client.get(LIST, {"view": "staff", "instructor": "inès"})) == {upcoming.pk}
    assert ids(api_client.get(LIST, {"view": "staff", "search": "flow", "when": "upcoming"})) == {full.pk}
    bad = api_client.get(LIST, {"view": "staff", "when": "soon"})
    assert bad.status_code == 400
    assert MSG_WHEN_INVALID in str(bad.json())


def test_the_filter_message_is_french():
    assert MSG_WHEN_INVALID == (
        "Le filtre doit être « upcoming » (à venir), « past » (passées), « cancelled » (annulées) ou « full » "
        "(complètes)."
    )
