"""Anonymous hits cost one cache round trip: the public version and the page are read together, and a
change by staff on any worker is seen by every worker's next request (the version lives in the shared cache)."""

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.test import Client, override_settings

from courses.tests.factories import CourseFactory, CourseSessionFactory

pytestmark = pytest.mark.django_db

READS = []


class CountingCache(LocMemCache):
    """The tests' local-memory cache, counting the calls that would each be one round trip to Redis (Redis answers
    `get_many` with one MGET; the local-memory cache implements it with `get`, which is not counted again)."""

    inner = False

    def get(self, *args, **kwargs):
        if not self.inner:
            READS.append("get")
        return super().get(*args, **kwargs)

    def get_many(self, *args, **kwargs):
        READS.append("get_many")
        self.inner = True
        try:
            return super().get_many(*args, **kwargs)
        finally:
            self.inner = False

    def has_key(self, *args, **kwargs):
        READS.append("has_key")
        return super().has_key(*args, **kwargs)


COUNTING = {"default": {"BACKEND": f"{__name__}.CountingCache", "LOCATION": "round-trips"}}


@pytest.fixture
def reads():
    with override_settings(CACHES=COUNTING):
        caches["default"].clear()
        READS.clear()
        yield READS
        caches["default"].clear()


@pytest.mark.parametrize("path", ["/", "/tarifs", "/courses/calendar", "/gallery", "/api/course-sessions"])
def test_an_anonymous_hit_is_one_cache_round_trip(reads, path):
    CourseSessionFactory()
    client = Client()
    assert client.get(path).status_code == 200
    reads.clear()
    assert client.get(path).status_code == 200
    assert len(reads) == 1, reads


def test_a_change_made_through_another_worker_is_seen_at_once(reads):
    """Two workers share Redis, not memory: here the second worker is a second cache connection on the same store."""
    client = Client()
    client.get("/?section=cours")
    other_worker = caches.create_connection("default")
    assert isinstance(other_worker, CountingCache) and other_worker is not caches["default"]
    from studio import cache as public_cache

    real = public_cache.cache
    public_cache.cache = other_worker
    try:
        CourseFactory(title="Cours du soir ajouté")  # the save bumps the version through the other connection
    finally:
        public_cache.cache = real
    assert "Cours du soir ajouté" in client.get("/?section=cours").text


def test_a_cached_hit_is_served_before_sessions_csrf_and_authentication(reads, monkeypatch):
    """The hit is answered by studio.cache.PublicPageCacheMiddleware, right after whitenoise, with the headers the
    first answer had after every middleware (frame and content security policies included)."""
    from django.contrib.sessions.middleware import SessionMiddleware

    client = Client()
    first = client.get("/tarifs")
    assert first.status_code == 200
    calls = []
    original = SessionMiddleware.process_request

    def recording(self, request):
        calls.append(request.path)
        return original(self, request)

    monkeypatch.setattr(SessionMiddleware, "process_request", recording)
    second = client.get("/tarifs")
    assert second.status_code == 200 and calls == []
    assert second.content == first.content
    for header in ("Content-Type", "X-Frame-Options", "Content-Security-Policy", "Content-Language"):
        assert second.headers.get(header) == first.headers.get(header), header


def test_a_cached_page_still_checks_the_host_and_never_serves_a_member(reads, member):
    client = Client()
    client.get("/tarifs")
    assert Client(HTTP_HOST="evil.example.com").get("/tarifs").status_code == 400
    client.force_login(member)
    assert "Se déconnecter" in client.get("/tarifs").text


def test_the_visitors_feed_is_answered_by_the_middleware_and_a_reservation_refreshes_it(reads, monkeypatch, member):
    from django.contrib.sessions.middleware import SessionMiddleware

    from bookings.services.reservations import reservation_hold

    session = CourseSessionFactory(max_attendees=3)
    client = Client()
    url = f"/api/course-sessions?start={session.start.date().isoformat()}"
    assert client.get(url).json()[0]["seats_left"] == 3
    calls = []
    original = SessionMiddleware.process_request

    def recording(self, request):
        calls.append(request.path)
        return original(self, request)

    monkeypatch.setattr(SessionMiddleware, "process_request", recording)
    reads.clear()
    assert client.get(url).json()[0]["seats_left"] == 3
    assert calls == [] and len(reads) == 1
    reservation_hold(
        user=member, session_id=session.pk, participants=2, first_name="Emma", last_name="Petit", email=member.email
    )
    assert client.get(url).json()[0]["seats_left"] == 1


def test_a_lapsed_page_is_rebuilt_by_one_visitor_while_the_others_get_the_last_copy(reads):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from freezegun import freeze_time

    from studio import cache as public_cache

    CourseSessionFactory()
    with freeze_time("2026-11-23 10:00:00") as clock:
        first = Client().get("/tarifs")
        clock.tick(601)  # past PUBLIC_CACHE_SECONDS
        # The first visitor after the lapse claims the rebuild (as its request does on the way to the view); while
        # it builds, another visitor's answer is the last copy, from the cache alone.
        assert public_cache._read("page:/tarifs")[2] is True
        with CaptureQueriesContext(connection) as queries:
            stale = Client().get("/tarifs")
        assert stale.status_code == 200 and stale.content == first.content and len(queries) == 0
        # That request ended without storing anything: the next visitor rebuilds the page from the database.
        public_cache._abandon("page:/tarifs")
        with CaptureQueriesContext(connection) as queries:
            assert Client().get("/tarifs").status_code == 200
        assert len(queries) > 0
