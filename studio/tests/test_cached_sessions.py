"""With sessions in the shared cache (Django's cached_db sessions, as with Redis in production), a logged-in request
sees every change at its next request, and a session logged out stays logged out."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory
from messaging.tests.factories import ContactMessageFactory

pytestmark = pytest.mark.django_db

PAGE = "/user/messages"
AS_IN_PRODUCTION = {"SESSION_ENGINE": "django.contrib.sessions.backends.cached_db"}


@pytest.fixture(autouse=True)
def production_like():
    with override_settings(**AS_IN_PRODUCTION):
        cache.clear()
        yield
        cache.clear()


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def badge(client) -> str:
    html = client.get(PAGE).content.decode()
    return html.split("data-unread-badge>")[1].split("<")[0] if "data-unread-badge>" in html else ""


def test_changes_are_seen_at_the_next_request():
    member = UserFactory()
    client = logged_in(member)
    assert badge(client) == ""
    ContactMessageFactory.for_member(member, member_unread=True)
    assert badge(client) == "1"
    member.first_name = "Zoé"
    member.save()
    assert client.get("/user/profile").context["target"].first_name == "Zoé"


def test_a_logged_out_session_is_anonymous():
    client = logged_in(UserFactory())
    client.get(PAGE)
    key = client.cookies["sessionid"].value
    client.logout()
    client.cookies["sessionid"] = key  # replayed after logout
    response = client.get(PAGE)
    assert response.status_code == 302 and "/login" in response["Location"]


def _feed_path(session) -> str:
    day = timezone.localtime(session.start).date()
    return f"/api/course-sessions?start={day - timedelta(days=1)}&end={day + timedelta(days=6)}"


def _event(client, path, session) -> dict:
    response = client.get(path)
    assert response.status_code == 200
    return next(event for event in response.json() if event["id"] == session.pk)


def test_a_seat_taken_or_a_course_renamed_shows_in_the_members_next_feed():
    session = CourseSessionFactory(start=timezone.now() + timedelta(days=3), max_attendees=5)
    client = logged_in(UserFactory())
    path = _feed_path(session)
    client.get(path)
    assert _event(client, path, session)["seats_left"] == 5
    ReservationFactory(session=session, participants=2)  # another member's booking bumps the session's week
    assert _event(client, path, session)["seats_left"] == 3
    session.course.title = "Pole initiation du jeudi"
    session.course.save()  # public data: the public version
    assert _event(client, path, session)["title"] == "Pole initiation du jeudi"
