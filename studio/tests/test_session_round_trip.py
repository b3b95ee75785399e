"""A logged-in request reads its session, its user row and the account menu's count in one cache round trip:
the session store (studio.sessions) remembers, per process, which member each session key belongs to,
and reads that member's cached values in the session's own MGET. It stays a hint: the session read says who is
logged in, and anything else falls back on the separate reads."""

from datetime import timedelta

import pytest
from django.contrib.auth import SESSION_KEY
from django.core.cache import cache
from django.test import Client, override_settings
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory
from messaging.tests.factories import ContactMessageFactory
from messaging.tests.test_unread_cache import CacheReads
from studio import cache as cache_module
from studio import sessions

pytestmark = pytest.mark.django_db

PAGE = "/user/messages"
AS_IN_PRODUCTION = {"MEMBER_CACHE_SECONDS": 300, "SESSION_ENGINE": "studio.sessions"}


@pytest.fixture(autouse=True)
def production_like():
    with override_settings(**AS_IN_PRODUCTION):
        cache.clear()
        sessions.forget_hints()
        yield
        cache.clear()
        sessions.forget_hints()


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def badge(client) -> str:
    html = client.get(PAGE).content.decode()
    return html.split("data-unread-badge>")[1].split("<")[0] if "data-unread-badge>" in html else ""


def test_a_warm_page_is_one_round_trip(monkeypatch):
    client = logged_in(UserFactory())
    client.get(PAGE)  # learns the session's member, fills the cache
    reads = CacheReads(monkeypatch)
    assert client.get(PAGE).status_code == 200
    assert reads.count == 1


def test_the_session_says_who_is_logged_in_not_the_hint():
    emma, paul = UserFactory(first_name="Emma"), UserFactory(first_name="Paul")
    client = logged_in(emma)
    client.get(PAGE)
    key = client.cookies["sessionid"].value
    sessions._hints[key] = str(paul.pk)  # a wrong hint: only the session's own member may be used
    assert client.get("/user/profile").context["target"] == emma


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


def test_the_hints_are_bounded():
    for index in range(sessions.MAX_HINTS + 5):
        sessions._remember(f"key{index}", {SESSION_KEY: "1"})
    assert len(sessions._hints) == sessions.MAX_HINTS


# --- The member's calendar feed: its week versions read in the session's round trip -------------------------------


def _feed_path(session) -> str:
    day = timezone.localtime(session.start).date()
    return f"/api/course-sessions?start={day - timedelta(days=1)}&end={day + timedelta(days=6)}"


def _event(client, path, session) -> dict:
    response = client.get(path)
    assert response.status_code == 200
    return next(event for event in response.json() if event["id"] == session.pk)


def test_a_warm_members_feed_is_one_round_trip(monkeypatch):
    """The session, the member's values and the versions the cached feed is checked against: one MGET."""
    session = CourseSessionFactory(start=timezone.now() + timedelta(days=3))
    member = UserFactory()
    ReservationFactory(user=member, session=session)
    client = logged_in(member)
    path = _feed_path(session)
    client.get(path)  # learns the session's member, fills the cache, keeps the feed in this process
    client.get(path)
    reads = CacheReads(monkeypatch)
    assert _event(client, path, session)["my_reservation"]["status"] == "confirmed"
    assert reads.count == 1


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


def test_versions_read_ahead_are_never_served_to_the_next_request():
    """A request's early read belongs to it: the next request of the same worker reads the versions again."""
    session = CourseSessionFactory(start=timezone.now() + timedelta(days=3), max_attendees=5)
    member = UserFactory()
    client = logged_in(member)
    path = _feed_path(session)
    client.get(path)
    client.get(path)
    assert client.get(PAGE).status_code == 200  # another page, read ahead nothing
    ReservationFactory(session=session)
    assert _event(client, path, session)["seats_left"] == 4
    assert cache_module._versions_ahead.get() is None  # nothing left behind once the request answered
