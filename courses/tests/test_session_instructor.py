"""A session's instructor is one of the instructors list, named by id: single session, weekly series and
"this and the following"; unknown id: 400 in French, an inactive instructor: 409 (unless the session already had them).
Outputs keep the instructor's name where the calendar, e-mails and .ics read it."""

from datetime import timedelta

from django.utils import timezone
from freezegun import freeze_time

from bookings.ics import reservation_event
from bookings.tests.factories import ReservationFactory
from courses.models import CourseSession
from courses.services.sessions import MSG_INSTRUCTOR_INACTIVE, MSG_INSTRUCTOR_UNKNOWN
from courses.tests.factories import CourseFactory, CourseSessionFactory, InstructorFactory

FEED = "/api/course-sessions"


def test_creating_a_session_with_an_unknown_instructor_is_a_french_400(api_client, staff):
    api_client.force_authenticate(staff)
    body = {"course_id": CourseFactory().pk, "date": "2031-06-02 19:00:00", "instructor_id": 999999}
    response = api_client.post(FEED, body, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == MSG_INSTRUCTOR_UNKNOWN
    assert response.json()["errors"] == {"instructor_id": [MSG_INSTRUCTOR_UNKNOWN]}
    assert not CourseSession.objects.exists()


def test_an_inactive_instructor_is_not_given_new_classes_but_keeps_theirs(api_client, staff):
    retired = InstructorFactory(name="Ancienne Prof", active=False)
    api_client.force_authenticate(staff)
    body = {"course_id": CourseFactory().pk, "date": "2031-06-02 19:00:00", "instructor_id": retired.pk}
    refused = api_client.post(FEED, body, format="json")
    assert refused.status_code == 409 and refused.json()["error"] == MSG_INSTRUCTOR_INACTIVE
    session = CourseSessionFactory(instructor=retired)
    kept = {"course_id": session.course_id, "date": "2031-06-02 19:00:00", "instructor_id": retired.pk}
    assert api_client.put(f"{FEED}/{session.pk}", kept, format="json").status_code == 200


def test_the_session_answers_name_and_id_and_the_calendar_shows_the_name(api_client, staff):
    lea = InstructorFactory(name="Léa Garnier")
    api_client.force_authenticate(staff)
    body = {"course_id": CourseFactory().pk, "date": "2031-06-02 19:00:00", "instructor_id": lea.pk}
    created = api_client.post(FEED, body, format="json").json()
    assert (created["instructor"], created["instructor_id"]) == ("Léa Garnier", lea.pk)
    api_client.force_authenticate(None)
    feed = api_client.get(FEED, {"start": "2031-06-02", "end": "2031-06-03"}).json()
    assert [(e["instructor"], e["instructor_id"]) for e in feed] == [("Léa Garnier", lea.pk)]


def test_a_renamed_instructor_is_renamed_everywhere(api_client, staff):
    session = CourseSessionFactory(instructor="Lea Garnier", start=timezone.now() + timedelta(days=3))
    booking = ReservationFactory(session=session)
    api_client.force_authenticate(staff)
    api_client.put(f"/api/instructors/{session.instructor_id}", {"name": "Léa Garnier"}, format="json")
    day = timezone.localtime(session.start).date()
    api_client.force_authenticate(None)
    feed = api_client.get(FEED, {"start": day.isoformat(), "end": (day + timedelta(days=1)).isoformat()}).json()
    assert feed[0]["instructor"] == "Léa Garnier"
    booking.refresh_from_db()
    assert "professeur : Léa Garnier" in str(reservation_event(booking).get("description"))


@freeze_time("2026-03-01 09:00:00")
def test_series_and_the_following_take_an_instructor_id(api_client, staff):
    lea, ines = InstructorFactory(name="Léa Garnier"), InstructorFactory(name="Inès Moreau")
    api_client.force_authenticate(staff)
    body = {
        "course_id": CourseFactory().pk,
        "weekdays": [0],
        "time": "18:30",
        "starts_on": "2026-03-02",
        "ends_on": "2026-03-23",
        "instructor_id": 999999,
    }
    unknown = api_client.post(f"{FEED}/series", body, format="json")
    assert unknown.status_code == 400 and unknown.json()["error"] == MSG_INSTRUCTOR_UNKNOWN
    created = api_client.post(f"{FEED}/series", {**body, "instructor_id": lea.pk}, format="json")
    assert created.status_code == 201
    sessions = list(CourseSession.objects.order_by("start"))
    assert {s.instructor for s in sessions} == {lea}
    following = {"instructor_id": ines.pk, "max_attendees": 10}
    changed = api_client.put(f"{FEED}/{sessions[2].pk}/following", following, format="json")
    assert changed.status_code == 200
    assert [s.instructor.name for s in CourseSession.objects.order_by("start")] == ["Léa Garnier"] * 2 + [
        "Inès Moreau"
    ] * 2
    bad = api_client.put(f"{FEED}/{sessions[2].pk}/following", {**following, "instructor_id": 999999}, format="json")
    assert bad.status_code == 400 and bad.json()["error"] == MSG_INSTRUCTOR_UNKNOWN
