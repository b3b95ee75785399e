"""Upcoming classes as schema.org Events (JSON-LD) on the course page and the week's planning: name, dates with the
Paris offset, the studio's address, status (a cancelled class says so), the price in euros, the instructor. The
pages keep their number of queries."""

from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.core.files.storage import default_storage
from freezegun import freeze_time

from courses.models import SessionStatus
from courses.tests.factories import CourseFactory, CourseSessionFactory
from studio.tests.test_structured_data import BASE, meta, of_type

pytestmark = pytest.mark.django_db

PARIS = ZoneInfo("Europe/Paris")
NOW = datetime(2026, 12, 1, 9, 0, tzinfo=PARIS)  # a Tuesday in winter: Paris is UTC+1


def paris(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=PARIS)


@pytest.fixture
def course_with_sessions(settings):
    settings.STUDIO = {**settings.STUDIO, "address": "12 rue de la République", "postal_code": "69002"}
    course = CourseFactory(title="Cerceau aérien", description="Le cerceau suspendu pour découvrir l'aérien.")
    CourseSessionFactory(
        course=course,
        start=paris(3, 18, 30),
        end=paris(3, 19, 45),
        instructor="Léa Garnier",
        price_per_participant=Decimal("25.00"),
    )
    CourseSessionFactory(
        course=course,
        start=paris(4, 18, 30),
        end=paris(4, 19, 45),
        status=SessionStatus.CANCELLED,
        price_per_participant=Decimal("22.50"),
    )
    CourseSessionFactory(course=course, start=paris(1, 7, 0), end=paris(1, 8, 0))  # already over: not an event
    return course


@freeze_time(NOW)
def test_the_course_page_lists_its_upcoming_classes_as_events(client, course_with_sessions, settings):
    html = client.get(f"/courses/{course_with_sessions.pk}").text
    events = of_type(html, "Event")
    assert [event["startDate"] for event in events] == ["2026-12-03T18:30:00+01:00", "2026-12-04T18:30:00+01:00"]
    first, cancelled = events
    assert first["name"] == "Cerceau aérien"
    assert first["endDate"] == "2026-12-03T19:45:00+01:00"
    assert first["description"] == "Le cerceau suspendu pour découvrir l'aérien."
    assert first["eventStatus"] == "https://schema.org/EventScheduled"
    assert first["eventAttendanceMode"] == "https://schema.org/OfflineEventAttendanceMode"
    assert first["location"]["@type"] == "Place"
    assert first["location"]["name"] == settings.STUDIO["name"]
    assert first["location"]["address"]["streetAddress"] == "12 rue de la République"
    assert first["location"]["address"]["postalCode"] == "69002"
    assert first["offers"] == {
        "@type": "Offer",
        "price": "25.00",
        "priceCurrency": "EUR",
        "url": BASE + "/courses/calendar",
    }
    assert first["performer"] == {"@type": "Person", "name": "Léa Garnier"}
    assert first["organizer"]["name"] == settings.STUDIO["name"]
    assert first["image"] == meta(html, "og:image")
    assert cancelled["eventStatus"] == "https://schema.org/EventCancelled"
    assert cancelled["offers"]["price"] == "22.50"


@freeze_time(NOW)
def test_the_weeks_planning_lists_its_classes_as_events(client, course_with_sessions):
    events = of_type(client.get("/weekly").text, "Event")
    starts = {event["startDate"] for event in events}
    assert {"2026-12-03T18:30:00+01:00", "2026-12-04T18:30:00+01:00"} <= starts
    assert all(event["location"]["address"]["addressLocality"] for event in events)
    assert all(event["offers"]["priceCurrency"] == "EUR" for event in events)


@freeze_time(NOW)
def test_a_course_without_upcoming_classes_has_no_event_and_the_studio_stays(client):
    course = CourseFactory()
    html = client.get(f"/courses/{course.pk}").text
    assert of_type(html, "Event") == []
    assert len(of_type(html, "DanceSchool")) == 1


@freeze_time(NOW)
@pytest.mark.parametrize(("path", "queries"), [("course", 2), ("/weekly", 1)])
def test_events_add_no_query(client, course_with_sessions, django_assert_num_queries, path, queries):
    """The course page and the planning read their sessions with the course and the instructor already."""
    for day in (2, 3, 4, 5):  # Wednesday to Saturday of the same week
        CourseSessionFactory(course=course_with_sessions, start=paris(day, 12), instructor=f"Professeure {day}")
    path = f"/courses/{course_with_sessions.pk}" if path == "course" else path
    with django_assert_num_queries(queries):
        response = client.get(path)
    assert len(of_type(response.text, "Event")) >= 5


def test_a_course_with_its_own_picture_shows_it_in_previews_and_events(client):
    from courses.services.catalogue import course_set_picture
    from media_library.tests import files

    course = CourseFactory(title="Cabaret")
    course_set_picture(course=course, image=files.jpeg(size=(1000, 750)), alt_text="Illustration : un éventail")
    CourseSessionFactory(course=course)
    html = client.get(f"/courses/{course.pk}").text
    image = meta(html, "og:image")
    largest_width, largest = course.image_renditions["jpeg"][-1]
    assert image == BASE + default_storage.url(largest)
    assert meta(html, "og:image:width") == str(largest_width)
    assert meta(html, "og:image:height") == str(round(750 * largest_width / 1000))
    assert meta(html, "og:image:alt") == "Illustration : un éventail"
    (event,) = of_type(html, "Event")
    assert event["image"] == image


@freeze_time(NOW)
def test_a_courses_preview_image_is_made_once_for_all_its_sessions(client, course_with_sessions, monkeypatch):
    """A week's planning lists a course many times: its picture's preview (srcset, sizes, URLs) is made once per
    course, not once per session."""
    from courses import structured_data

    other = CourseFactory(title="Cabaret")
    for day in (2, 3, 4, 5):
        CourseSessionFactory(course=course_with_sessions, start=paris(day, 12))
        CourseSessionFactory(course=other, start=paris(day, 14))
    made = []
    real = structured_data.course_share_image
    monkeypatch.setattr(structured_data, "course_share_image", lambda *a, **kw: made.append(a[1].pk) or real(*a, **kw))
    events = of_type(client.get("/weekly").text, "Event")
    assert len(events) >= 10 and {event["name"] for event in events} == {"Cerceau aérien", "Cabaret"}
    assert sorted(made) == sorted([course_with_sessions.pk, other.pk])
