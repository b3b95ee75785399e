"""The personal calendar feed and the reminder switches (docs/decisions.md 29)."""

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import icalendar
import pytest
import vobject
from django.utils import timezone

from bookings.models import ReservationStatus
from bookings.services.cancellation import reservation_cancel
from bookings.services.reminders import booking_preferences_get
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory

PREFS = "/api/booking-preferences"
PARIS = ZoneInfo("Europe/Paris")
pytestmark = pytest.mark.django_db


def strict_rfc5545(body: bytes) -> None:
    """What a strict parser refuses: bare LF, lines over 75 octets, unbalanced components, missing required
    properties, a TZID with no VTIMEZONE."""
    assert body.endswith(b"\r\n") and b"\n" not in body.replace(b"\r\n", b"")
    lines = body.split(b"\r\n")[:-1]
    assert all(len(line) <= 75 for line in lines)
    unfolded = body.replace(b"\r\n ", b"").decode("utf-8").split("\r\n")[:-1]
    stack = []
    for line in unfolded:
        assert re.match(r"^[A-Z0-9-]+[;:]", line), line
        if line.startswith("BEGIN:"):
            stack.append(line[6:])
        elif line.startswith("END:"):
            assert stack.pop() == line[4:]
    assert stack == []
    text = "\r\n".join(unfolded)
    assert "VERSION:2.0" in text and "PRODID:" in text
    for event in text.split("BEGIN:VEVENT")[1:]:
        assert "UID:" in event and "DTSTAMP:" in event and "DTSTART" in event
    for tzid in set(re.findall(r"TZID=([^:;]+)", text)):
        assert f"TZID:{tzid}" in text


def _feed_url(client, member):
    client.force_authenticate(member)
    return client.post(f"{PREFS}/calendar-link").json()["calendar_url"]


def test_the_feed_lists_upcoming_bookings_in_paris_time_and_validates(api_client, client, member):
    course = CourseFactory(title="Pole, Flow; « débutant » – un titre assez long pour être replié à 75 octets")
    booked = ReservationFactory(user=member, session=CourseSessionFactory(course=course))
    ReservationFactory(user=member, status=ReservationStatus.CANCELLED)  # a member's cancellation disappears
    ReservationFactory(user=member, session=CourseSessionFactory(start=timezone.now() - timedelta(days=100)))
    ReservationFactory()  # someone else's
    url = _feed_url(api_client, member)
    assert url.startswith("http") and url.endswith(".ics")
    response = client.get("/" + url.split("://", 1)[1].split("/", 1)[1])
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    strict_rfc5545(response.content)
    # A second, strict parser (vobject with validation on, unreadable lines refused) accepts it too.
    parsed = vobject.readOne(response.content.decode("utf-8"), validate=True, ignoreUnreadable=False)
    strict_event = parsed.vevent_list[0]
    assert strict_event.dtstart.value == booked.session.start
    assert strict_event.dtstart.value.utcoffset() == booked.session.start.astimezone(PARIS).utcoffset()
    calendar = icalendar.Calendar.from_ical(response.content)
    events = calendar.walk("VEVENT")
    assert len(events) == 1
    event = events[0]
    assert str(event["summary"]) == course.title
    assert str(event["uid"]).startswith(f"reservation-{booked.pk}@")
    start = event.decoded("dtstart")
    assert start.tzinfo.key == "Europe/Paris" and start == booked.session.start.astimezone(PARIS)
    assert "Camille Laurent" in str(event["description"]) and "Lyon" in str(event["location"])


def test_the_feed_follows_a_cancellation_and_a_new_booking(api_client, client, member):
    reservation = ReservationFactory(
        user=member, session=CourseSessionFactory(start=timezone.now() + timedelta(days=5))
    )
    path = "/" + _feed_url(api_client, member).split("://", 1)[1].split("/", 1)[1]
    assert len(icalendar.Calendar.from_ical(client.get(path).content).walk("VEVENT")) == 1
    reservation_cancel(user=member, reservation_id=reservation.pk)
    assert icalendar.Calendar.from_ical(client.get(path).content).walk("VEVENT") == []


def test_regenerating_the_link_revokes_the_old_url(api_client, client, member):
    old = "/" + _feed_url(api_client, member).split("://", 1)[1].split("/", 1)[1]
    renewed = api_client.post(f"{PREFS}/calendar-link").json()
    assert renewed["message"] == "Nouveau lien créé : l'ancien ne fonctionne plus."
    new = "/" + renewed["calendar_url"].split("://", 1)[1].split("/", 1)[1]
    assert new != old
    assert client.get(old).status_code == 404
    assert client.get(new).status_code == 200
    assert client.get("/calendar/pas-un-jeton.ics").status_code == 404


def test_reminder_switches_on_the_profile_api(api_client, member):
    assert api_client.get(PREFS).status_code in (401, 403)
    api_client.force_authenticate(member)
    assert api_client.get(PREFS).json() == {
        "remind_day_before": True,
        "remind_cancellation_deadline": True,
        "calendar_url": None,
    }
    saved = api_client.patch(PREFS, {"remind_day_before": False}, format="json").json()
    assert saved["message"] == "Vos préférences de rappel sont enregistrées."
    assert saved["remind_day_before"] is False and saved["remind_cancellation_deadline"] is True
    bad = api_client.patch(PREFS, {"remind_day_before": 0}, format="json")
    assert bad.status_code == 400 and "Chaque rappel s'active ou se désactive par vrai ou faux." in str(bad.json())


def test_the_feed_answers_in_a_fixed_number_of_queries(api_client, client, member, django_assert_max_num_queries):
    for _ in range(5):
        ReservationFactory(user=member)
    path = "/" + _feed_url(api_client, member).split("://", 1)[1].split("/", 1)[1]
    with django_assert_max_num_queries(3):
        assert client.get(path).status_code == 200


def test_add_to_my_calendar_downloads_my_own_booking_only(client, member):
    mine = ReservationFactory(user=member)
    other = ReservationFactory()
    assert client.get(f"/my-courses/{mine.pk}.ics").status_code == 404  # not logged in
    client.force_login(member)
    response = client.get(f"/my-courses/{mine.pk}.ics")
    assert response.status_code == 200 and response["Content-Disposition"].startswith("attachment;")
    strict_rfc5545(response.content)
    assert len(icalendar.Calendar.from_ical(response.content).walk("VEVENT")) == 1
    assert client.get(f"/my-courses/{other.pk}.ics").status_code == 404


def test_my_courses_page_gives_the_island_the_new_urls(client, member):
    client.force_login(member)
    body = client.get("/my-courses").content.decode()
    assert "/api/booking-preferences" in body and "/api/waitlist/mine" in body


def test_the_reminder_switches_on_the_profile_page_work_without_javascript(client, member):
    client.force_login(member)
    page = client.get("/user/profile").content.decode()
    assert "Rappels et agenda" in page
    assert "M'envoyer un rappel par e-mail 24 heures avant chaque cours" in page
    assert page.count("checked> M") == 2  # both on by default
    response = client.post("/my-courses/preferences", {"remind_day_before": "on"}, follow=True)
    assert response.redirect_chain[-1][0] == "/user/profile"
    assert "Vos préférences de rappel sont enregistrées." in response.content.decode()
    prefs = booking_preferences_get(user=member)
    assert prefs.remind_day_before is True and prefs.remind_cancellation_deadline is False
    client.logout()
    assert client.post("/my-courses/preferences", {}).status_code == 404


def test_a_class_the_studio_cancels_stays_in_the_feed_as_cancelled(api_client, client, member):
    from bookings.services.class_cancellation import course_session_cancel

    reservation = ReservationFactory(
        user=member, session=CourseSessionFactory(start=timezone.now() + timedelta(days=4))
    )
    path = "/" + _feed_url(api_client, member).split("://", 1)[1].split("/", 1)[1]
    course_session_cancel(session_id=reservation.session_id, reason="Professeure malade")
    events = icalendar.Calendar.from_ical(client.get(path).content).walk("VEVENT")
    assert len(events) == 1 and str(events[0]["status"]) == "CANCELLED"
    assert str(events[0]["summary"]).startswith("Annulé : ")


def test_preferences_answer_in_a_fixed_number_of_queries(api_client, member, django_assert_max_num_queries):
    api_client.force_authenticate(member)
    with django_assert_max_num_queries(3):
        assert api_client.get(PREFS).status_code == 200


def _feed_path(api_client, member) -> str:
    return "/" + _feed_url(api_client, member).split("://", 1)[1].split("/", 1)[1]


def test_head_answers_like_get_without_a_body(api_client, client, member):
    booked = ReservationFactory(user=member)
    path = _feed_path(api_client, member)
    get, head = client.get(path), client.head(path)
    assert head.status_code == 200 and head.content == b""
    assert head["Content-Type"] == get["Content-Type"] and head["Content-Length"] == str(len(get.content))
    assert client.head("/calendar/pas-un-jeton.ics").status_code == 404
    client.force_login(member)
    download = client.head(f"/my-courses/{booked.pk}.ics")
    assert download.status_code == 200 and download.content == b""
    assert download["Content-Disposition"].startswith("attachment;")
    # The public sessions feed answers HEAD too.
    public = client.head("/api/course-sessions")
    assert public.status_code == 200 and public.content == b""


def test_the_feed_keeps_ninety_days_of_history(api_client, client, member):
    now = timezone.now()
    yesterday = ReservationFactory(user=member, session=CourseSessionFactory(start=now - timedelta(days=1)))
    old = ReservationFactory(user=member, session=CourseSessionFactory(start=now - timedelta(days=89)))
    ReservationFactory(user=member, session=CourseSessionFactory(start=now - timedelta(days=92)))
    upcoming = ReservationFactory(user=member, session=CourseSessionFactory(start=now + timedelta(days=2)))
    body = client.get(_feed_path(api_client, member)).content
    uids = {str(event["UID"]).split("@")[0] for event in icalendar.Calendar.from_ical(body).walk("VEVENT")}
    assert uids == {f"reservation-{r.pk}" for r in (yesterday, old, upcoming)}


def test_the_feed_says_how_often_to_refresh_and_writes_amounts_the_french_way(api_client, client, member):
    ReservationFactory(user=member, participants=1)
    body = client.get(_feed_path(api_client, member)).content
    strict_rfc5545(body)
    unfolded = body.replace(b"\r\n ", b"").decode("utf-8")
    assert "\r\nREFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n" in unfolded
    assert "\r\nX-PUBLISHED-TTL:PT1H\r\n" in unfolded
    parsed = vobject.readOne(body.decode("utf-8"), validate=True, ignoreUnreadable=False)
    (event,) = icalendar.Calendar.from_ical(body).walk("VEVENT")
    assert "1 participant(s) – 25,00\u00a0€ – " in str(event["DESCRIPTION"])
    assert "25.00" not in str(event["DESCRIPTION"])
    assert parsed.vevent.description.value == str(event["DESCRIPTION"])


def test_an_unchanged_feed_is_not_built_again_and_a_change_shows_at_once(api_client, client, member, monkeypatch):
    """A calendar app fetches the feed every hour: while nothing it shows has changed, the answer is the one already
    built (the events are not serialised again); any change to what it shows is in the next answer."""
    from bookings import ics

    reservation = ReservationFactory(
        user=member, session=CourseSessionFactory(start=timezone.now() + timedelta(days=3))
    )
    path = _feed_path(api_client, member)
    built = []
    real_event = ics.reservation_event
    monkeypatch.setattr(ics, "reservation_event", lambda *a, **kw: built.append(1) or real_event(*a, **kw))
    first = client.get(path).content
    assert built == [1]
    assert client.get(path).content == first and client.head(path)["Content-Length"] == str(len(first))
    assert built == [1]
    # What the feed shows changed: the course's title, the instructor, a new booking.
    course = reservation.session.course
    course.title = "Pole exotique"
    course.save()
    events = icalendar.Calendar.from_ical(client.get(path).content).walk("VEVENT")
    assert [str(event["summary"]) for event in events] == ["Pole exotique"]
    ReservationFactory(user=member, session=CourseSessionFactory(start=timezone.now() + timedelta(days=6)))
    assert len(icalendar.Calendar.from_ical(client.get(path).content).walk("VEVENT")) == 2


def test_a_new_release_of_the_feeds_text_is_served_at_once(api_client, client, member, monkeypatch):
    """A feed kept in the cache was written by the code of its day: once the feed's text changes (FEED_FORMAT), the
    next answer is written anew, not the one kept from before."""
    from bookings import ics

    ReservationFactory(user=member, session=CourseSessionFactory(start=timezone.now() + timedelta(days=3)))
    path = _feed_path(api_client, member)
    client.get(path)
    built = []
    real_event = ics.reservation_event
    monkeypatch.setattr(ics, "reservation_event", lambda *a, **kw: built.append(1) or real_event(*a, **kw))
    client.get(path)
    assert built == []
    monkeypatch.setattr(ics, "FEED_FORMAT", ics.FEED_FORMAT + 1)
    client.get(path)
    assert built == [1]


def test_an_erased_members_built_feed_leaves_the_cache_with_the_account(api_client, client, member):
    """The feed's text names the member's classes: once they erase their account, the address answers 404 and the
    text built for it is no longer kept."""
    from django.core.cache import cache

    from accounts.tests.factories import DEFAULT_PASSWORD
    from bookings import ics
    from privacy.services import account_delete_by_member

    ReservationFactory(user=member, session=CourseSessionFactory(start=timezone.now() + timedelta(days=3)))
    path = _feed_path(api_client, member)
    assert client.get(path).status_code == 200
    assert cache.get(ics.feed_cache_key(member.pk)) is not None  # built and kept
    account_delete_by_member(user=member, password=DEFAULT_PASSWORD)
    assert client.get(path).status_code == 404
    assert cache.get(ics.feed_cache_key(member.pk)) is None
