"""A logged-in request reads its session, its user row and the account menu's count in one cache round trip
(issue 18): the session store (studio.sessions) remembers, per process, which member each session key belongs to,
and reads that member's cached values in the session's own MGET. It stays a hint: the session read says who is
logged in, and anything else falls back on the separate reads."""

import pytest
from django.contrib.auth import SESSION_KEY
from django.core.cache import cache
from django.test import Client, override_settings

from accounts.tests.factories import UserFactory
from messaging.tests.factories import ContactMessageFactory
from messaging.tests.test_unread_cache import CacheReads
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
