"""The staff's session endpoints (`POST /api/course-sessions`, `PUT`/`DELETE /api/course-sessions/{id}`): typed
payloads refused in French, a reserved session kept, places never below the seats taken, members and visitors
refused."""

import pytest
from django.utils import timezone

from bookings.tests.factories import ReservationFactory
from courses.models import MAX_SESSION_PLACES, CourseSession
from courses.services.sessions import (
    MSG_COURSE_NOT_FOUND,
    MSG_LEVEL_INVALID,
    MSG_MAX_ATTENDEES_MAX,
    MSG_MAX_ATTENDEES_MIN,
    MSG_MAX_BELOW_TAKEN,
    MSG_PRICE_INVALID,
    MSG_SESSION_ADDED,
    MSG_SESSION_DATE_INVALID,
    MSG_SESSION_DELETED,
    MSG_SESSION_FIELDS_REQUIRED,
    MSG_SESSION_HAS_RESERVATIONS,
    MSG_SESSION_UPDATED,
)
from courses.tests.factories import CourseFactory, CourseSessionFactory, instructor_named

pytestmark = pytest.mark.django_db

FEED = "/api/course-sessions"


def test_staff_creates_updates_and_deletes_a_session(api_client, staff):
    api_client.force_authenticate(staff)
    course = CourseFactory(duration=60)
    payload = {
        "course_id": course.pk,
        "date": "2031-06-02 19:00:00",
        "instructor_id": instructor_named("Léa Garnier").pk,
        "level": "Avancé",
        "max_attendees": 8,
    }
    created = api_client.post(FEED, payload, format="json")
    assert created.status_code == 201
    assert created.json()["message"] == MSG_SESSION_ADDED
    session = CourseSession.objects.get()
    assert timezone.localtime(session.start).hour == 19 and session.max_attendees == 8

    updated = api_client.put(f"{FEED}/{session.pk}", {**payload, "date": "2031-06-02 20:00:00"}, format="json")
    assert updated.status_code == 200
    assert updated.json()["start_paris"] == "2031-06-02 20:00:00"
    assert updated.json()["message"] == MSG_SESSION_UPDATED

    deleted = api_client.delete(f"{FEED}/{session.pk}")
    assert deleted.status_code == 200 and deleted.json()["message"] == MSG_SESSION_DELETED
    assert not CourseSession.objects.exists()


def test_staff_write_errors_are_french(api_client, staff):
    api_client.force_authenticate(staff)
    response = api_client.post(FEED, {"instructor_id": instructor_named("X").pk}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == MSG_SESSION_FIELDS_REQUIRED
    assert api_client.put(f"{FEED}/999999", {"course_id": 1}, format="json").status_code == 404


def test_deleting_a_session_with_reservations_is_refused(api_client, staff):
    api_client.force_authenticate(staff)
    reservation = ReservationFactory()
    response = api_client.delete(f"{FEED}/{reservation.session_id}")
    assert response.status_code == 409
    assert response.json()["error"] == MSG_SESSION_HAS_RESERVATIONS
    assert CourseSession.objects.filter(pk=reservation.session_id).exists()


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_members_and_visitors_cannot_write_sessions(api_client, member, method):
    session = CourseSessionFactory()
    url = FEED if method == "post" else f"{FEED}/{session.pk}"
    assert getattr(api_client, method)(url, {}, format="json").status_code == 401
    api_client.force_authenticate(member)
    assert getattr(api_client, method)(url, {}, format="json").status_code == 403


def test_staff_session_payload_is_typed(api_client, staff):
    api_client.force_authenticate(staff)
    course = CourseFactory()
    base = {"course_id": course.pk, "date": "2031-06-02 19:00:00", "instructor_id": instructor_named("Léa").pk}
    cases = [
        ({"date": "02/06/2031 19h"}, MSG_SESSION_DATE_INVALID),
        ({"max_attendees": "beaucoup"}, MSG_MAX_ATTENDEES_MIN),
        ({"max_attendees": 40000}, MSG_MAX_ATTENDEES_MAX.format(max=MAX_SESSION_PLACES)),
        ({"level": "Expert"}, MSG_LEVEL_INVALID),
        ({"price_per_participant": "-1"}, MSG_PRICE_INVALID),
        ({"instructor_id": "   "}, MSG_SESSION_FIELDS_REQUIRED),
    ]
    for extra, message in cases:
        response = api_client.post(FEED, {**base, **extra}, format="json")
        assert response.status_code == 400, extra
        assert response.json()["error"] == message
    missing_course = api_client.post(FEED, {**base, "course_id": 999999}, format="json")
    assert missing_course.status_code == 404 and missing_course.json()["error"] == MSG_COURSE_NOT_FOUND
    assert not CourseSession.objects.exists()
    iso = api_client.post(FEED, {**base, "date": "2031-06-02T19:00", "price_per_participant": "30.50"}, format="json")
    assert iso.status_code == 201 and iso.json()["price_per_participant"] == "30.50"


def test_staff_cannot_drop_places_below_the_seats_taken_409(api_client, staff):
    api_client.force_authenticate(staff)
    session = CourseSessionFactory(max_attendees=5)
    ReservationFactory(session=session, participants=3)
    payload = {
        "course_id": session.course_id,
        "date": session.start.isoformat(),
        "instructor_id": session.instructor_id,
        "max_attendees": 2,
    }
    response = api_client.put(f"{FEED}/{session.pk}", payload, format="json")
    assert response.status_code == 409 and response.json()["code"] == "max_below_taken"
    assert response.json()["error"] == MSG_MAX_BELOW_TAKEN.format(taken=3)
