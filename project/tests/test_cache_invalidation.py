"""Cache invalidation follows what changed: a seat hold rebuilds the feeds of its session's week only; a
change to a course (public data) still refreshes every page and feed."""

from datetime import UTC, datetime, time, timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from bookings.cache import feed_version_keys, session_version_keys
from bookings.services.reservations import reservation_hold
from courses.tests.factories import CourseFactory, CourseSessionFactory
from studio.cache import PUBLIC_MODELS, _entry_key, cache_versions

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def _monday_at_midnight(moment):
    day = timezone.localtime(moment).date()
    monday = day - timedelta(days=day.weekday())
    return timezone.make_aware(datetime.combine(monday, time.min))


def _week_url(monday):
    return (
        f"/api/course-sessions?start={monday.date().isoformat()}&end={(monday + timedelta(days=7)).date().isoformat()}"
    )


def _stored_versions(path):
    entry = cache.get(_entry_key(f"page:{path}"))
    return entry[0] if entry is not None else None


def _hold(member, session, participants=2):
    return reservation_hold(
        user=member,
        session_id=session.pk,
        participants=participants,
        first_name="Emma",
        last_name="Petit",
        email=member.email,
    )


def test_reservations_are_not_public_models_but_courses_and_pictures_are():
    assert "bookings.Reservation" not in PUBLIC_MODELS
    for label in ("courses.Course", "courses.CourseSession", "courses.Tariff", "media_library.Media"):
        assert label in PUBLIC_MODELS


def test_a_hold_keeps_the_home_page_cached_and_rebuilds_the_feed_of_its_week(member):
    session = CourseSessionFactory(max_attendees=3)
    monday = _monday_at_midnight(session.start)
    feed = _week_url(monday)
    client = Client()
    assert client.get("/").status_code == 200
    assert client.get(feed).json()[0]["seats_left"] == 3
    home_entry = cache.get(_entry_key("page:/"))
    assert home_entry is not None

    _hold(member, session)

    assert cache.get(_entry_key("page:/")) == home_entry  # still built under the current versions: a hit
    assert home_entry[0] == cache_versions()
    assert client.get(feed).json()[0]["seats_left"] == 1  # the week's feed was rebuilt


def test_a_hold_leaves_the_feed_of_another_week_cached(member):
    session = CourseSessionFactory(max_attendees=3)
    other = CourseSessionFactory(start=session.start + timedelta(weeks=2), max_attendees=3)
    other_monday = _monday_at_midnight(other.start)
    other_feed = _week_url(other_monday)
    client = Client()
    assert [event["id"] for event in client.get(other_feed).json()] == [other.pk]
    stored = _stored_versions(other_feed)

    _hold(member, session)

    keys = feed_version_keys(other_monday, other_monday + timedelta(days=7))
    assert stored == cache_versions(keys)  # the other week's feed is still current
    assert set(session_version_keys(session)).isdisjoint(keys)


def test_a_course_edit_still_refreshes_the_pages_and_the_feeds():
    session = CourseSessionFactory(course=CourseFactory(title="Pole Dance Débutant"))
    feed = _week_url(_monday_at_midnight(session.start))
    client = Client()
    client.get("/")
    assert client.get(feed).json()[0]["course_title"] == "Pole Dance Débutant"
    home_entry = cache.get(_entry_key("page:/"))

    session.course.title = "Pole Dance Découverte"
    session.course.save()

    assert home_entry[0] != cache_versions()  # the home page is rebuilt on the next visit
    assert "Pole Dance Découverte" in client.get("/").text
    assert client.get(feed).json()[0]["course_title"] == "Pole Dance Découverte"


def test_a_session_over_a_week_boundary_refreshes_both_weeks():
    today = timezone.now().astimezone(UTC).date()
    sunday = today - timedelta(days=today.weekday()) + timedelta(days=13)
    sunday_night = datetime.combine(sunday, time(23, 0), tzinfo=UTC)  # the weeks are cut at Monday 00:00 UTC
    session = CourseSessionFactory(start=sunday_night, end=sunday_night + timedelta(hours=2))
    assert len(session_version_keys(session)) == 2
    one_week = feed_version_keys(sunday_night, sunday_night + timedelta(hours=1))
    assert len(one_week) == 1 and one_week[0] in session_version_keys(session)


def test_a_range_at_the_end_of_time_has_bounded_keys():
    start = datetime(9999, 12, 1, tzinfo=UTC)
    assert 4 <= len(feed_version_keys(start, datetime.max.replace(tzinfo=UTC))) <= 6


def test_a_malformed_range_is_never_served_from_the_cache():
    client = Client()
    assert client.get("/api/course-sessions").status_code == 200  # the path is now known to the middleware
    assert client.get("/api/course-sessions?start=rubbish").status_code == 400
