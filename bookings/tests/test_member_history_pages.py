"""The member's history API answers every page as the models give it, byte for byte as Django REST framework's
JSONRenderer writes it: whatever changed in between (a course, a session, a booking, a feedback, a pass, an
instructor), as time passes (started, past the cancellation deadline, a hold lapsed), in another time zone or
cancellation window, indented when asked."""

import json
from datetime import datetime, timedelta

import pytest
from django.test import override_settings
from django.utils import timezone
from freezegun import freeze_time
from rest_framework.renderers import JSONRenderer

from accounts.tests.factories import UserFactory
from bookings.models import CourseFeedback, Pass, Reservation, ReservationStatus
from bookings.tests.factories import CourseFeedbackFactory, PassFactory, ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory

pytestmark = [pytest.mark.django_db, pytest.mark.database]

NOW = datetime(2030, 3, 15, 9, 0, tzinfo=timezone.get_fixed_timezone(0))


def _expected_page(member, now, page, size) -> dict:
    """The page as the models give it (test_feedback_history's history), with its links."""
    from bookings.tests.test_feedback_history import _expected_history

    rows = _expected_history(member, now)
    url = f"http://testserver/api/course-feedback/user/{member.pk}"
    last = (len(rows) + size - 1) // size
    suffix = "" if size == 20 else f"&page_size={size}"

    def link(number):
        if number < 1 or number > last:
            return None
        if number == 1:
            return url + ("" if size == 20 else f"?page_size={size}")
        return f"{url}?page={number}{suffix}"

    return {
        "count": len(rows),
        "next": link(page + 1),
        "previous": link(page - 1),
        "results": rows[(page - 1) * size : page * size],
    }


def _varied_history(member, other_member):
    courses = [
        CourseFactory(title="Pole Débutant", description="Premiers pas.", level="Débutant"),
        # JSON that DRF escapes (quotes, backslash, control characters, U+2028 / U+2029) and non-ASCII text
        CourseFactory(title='Exotic « talons » "hauts" \\ \u2028', description="a\u2029b\tc\x01", level=""),
    ]
    card = PassFactory(member=member, title="Carte 10 cours", credits_left=7)
    CourseFeedbackFactory(user=member, course=courses[0], rating=4, comment="Très bien\u2028!")
    offsets = [
        timedelta(hours=5), timedelta(hours=23, minutes=59), timedelta(days=1, minutes=1), timedelta(days=20),
        timedelta(minutes=-1), timedelta(days=-3), timedelta(days=-200), timedelta(days=9, microseconds=250),
        timedelta(days=16, hours=1),
    ]  # fmt: skip
    for n, offset in enumerate(offsets):
        session = CourseSessionFactory(
            course=courses[n % 2], start=NOW + offset, level="Avancé" if n % 4 == 1 else "",
            instructor=None if n % 5 == 2 else "Camille Laurent",
        )  # fmt: skip
        paid = {"paid_with_pass": card, "credits_spent": 1} if n % 3 == 1 else {}
        ReservationFactory(session=session, user=member, participants=1 + n % 3, **paid)
        ReservationFactory(session=session, user=other_member)
    twins = NOW + timedelta(days=6)
    for _ in range(2):
        ReservationFactory(session=CourseSessionFactory(course=courses[1], start=twins), user=member)
    ReservationFactory(session=CourseSessionFactory(start=NOW + timedelta(days=2)), user=member, held=True)
    ReservationFactory(
        session=CourseSessionFactory(start=NOW + timedelta(days=4)), user=member, status=ReservationStatus.CANCELLED
    )
    return courses


def _assert_every_page_as_drf_writes_it(api_client, member, now, size=4):
    url = f"/api/course-feedback/user/{member.pk}"
    total = _expected_page(member, now, 1, size)["count"]
    assert total
    for page in range(1, (total + size - 1) // size + 1):
        params = {"page": page} if page > 1 else {}
        if size != 20:
            params["page_size"] = size
        response = api_client.get(url, params)
        expected = _expected_page(member, now, page, size)
        assert response.status_code == 200
        assert response.content == JSONRenderer().render(expected), page
        assert response["Content-Type"] == "application/json"


@freeze_time(NOW)
def test_every_page_is_the_bytes_drf_writes_for_the_models_rows(api_client, member, other_member):
    _varied_history(member, other_member)
    api_client.force_authenticate(member)
    _assert_every_page_as_drf_writes_it(api_client, member, NOW)
    assert api_client.get(f"/api/course-feedback/user/{member.pk}").content == JSONRenderer().render(
        _expected_page(member, NOW, 1, 20)
    )


@freeze_time(NOW)
def test_every_change_to_a_row_shows_at_once(api_client, member, other_member):
    """Queryset updates send no signal: each value a row shows is read with the page."""
    courses = _varied_history(member, other_member)
    api_client.force_authenticate(member)
    url = f"/api/course-feedback/user/{member.pk}"
    api_client.get(url)
    # queryset updates: no signal is sent, nothing is told to forget a row
    reservation = (
        Reservation.objects.filter(user=member, status=ReservationStatus.CONFIRMED, session__instructor__isnull=False)
        .select_related("session__instructor")
        .order_by("pk")
        .first()
    )
    session = reservation.session
    sessions = type(session).objects.filter(pk=session.pk)
    changes = [
        lambda: type(courses[0]).objects.filter(pk=courses[0].pk).update(title="Pole Niveau 1", description="Autre"),
        lambda: sessions.update(start=session.start + timedelta(minutes=30), end=session.end + timedelta(minutes=30)),
        lambda: sessions.update(end=session.end + timedelta(minutes=45)),
        lambda: sessions.update(level="Expert"),
        lambda: Reservation.objects.filter(pk=reservation.pk).update(participants=3),
        lambda: CourseFeedback.objects.filter(user=member).update(rating=1, comment="Changé"),
        lambda: CourseFeedbackFactory(user=member, course=courses[1], rating=5, comment="Nouveau"),
        lambda: Pass.objects.filter(member=member).update(title="Carte 20 cours"),
        lambda: type(session.instructor).objects.filter(pk=session.instructor_id).update(name="Alex Martin"),
        lambda: Reservation.objects.filter(pk=reservation.pk).update(
            status=ReservationStatus.HELD, hold_expires_at=NOW + timedelta(minutes=5)
        ),
        lambda: Reservation.objects.filter(pk=reservation.pk).update(status=ReservationStatus.CANCELLED),
    ]
    for change in changes:
        change()
        _assert_every_page_as_drf_writes_it(api_client, member, NOW)


def test_time_passing_moves_rows_and_their_flags(api_client, member, other_member):
    """is_past, can_give_feedback and can_cancel follow the clock: past a row's deadline, then its start; a hold
    lapses; the time zone and the cancellation window change the dates and flags."""
    with freeze_time(NOW):
        _varied_history(member, other_member)
    api_client.force_authenticate(member)
    for moment in (
        NOW,
        NOW + timedelta(hours=4, minutes=59),  # the first session's deadline passed, not its start
        NOW + timedelta(hours=5),  # its start
        NOW + timedelta(hours=5, seconds=1),
        NOW + timedelta(days=3),  # the hold lapsed, more sessions past
        NOW,  # back again
    ):
        with freeze_time(moment):
            _assert_every_page_as_drf_writes_it(api_client, member, moment)
    with freeze_time(NOW), override_settings(CANCELLATION_WINDOW_HOURS=1):
        _assert_every_page_as_drf_writes_it(api_client, member, NOW)
    with freeze_time(NOW), timezone.override("America/New_York"):
        _assert_every_page_as_drf_writes_it(api_client, member, NOW)


@freeze_time(NOW)
def test_an_indented_answer_asked_by_accept_is_the_one_drf_writes(api_client, member, other_member):
    _varied_history(member, other_member)
    api_client.force_authenticate(member)
    url = f"/api/course-feedback/user/{member.pk}"
    response = api_client.get(url, HTTP_ACCEPT="application/json; indent=4")
    expected = JSONRenderer().render(_expected_page(member, NOW, 1, 20), "application/json; indent=4")
    assert response.content == expected and b"\n    " in expected
    assert json.loads(response.content) == _expected_page(member, NOW, 1, 20)


def test_another_member_rows_and_an_empty_history(api_client, member, other_member, staff):
    with freeze_time(NOW):
        _varied_history(member, other_member)
        api_client.force_authenticate(staff)
        for who in (member, other_member):
            _assert_every_page_as_drf_writes_it(api_client, who, NOW, size=20)
        empty = UserFactory()
        body = api_client.get(f"/api/course-feedback/user/{empty.pk}").content
        assert body == b'{"count":0,"next":null,"previous":null,"results":[]}'


@freeze_time(NOW)
def test_the_islands_cache_buster_is_kept_in_the_links(client, member, other_member):
    """/my-courses' island adds `t` to every request (frontend/src/components/useApi.js): answered, and kept in the
    next and previous links, through the member's session as the island sends it."""
    _varied_history(member, other_member)
    client.force_login(member)
    url = f"/api/course-feedback/user/{member.pk}"
    response = client.get(url, {"page": "2", "page_size": "4", "t": "1764000000000"})
    assert response.status_code == 200
    assert response.json()["results"] == _expected_page(member, NOW, 2, 4)["results"]
    assert response.json()["next"] == f"http://testserver{url}?page=3&page_size=4&t=1764000000000"
    assert response.json()["previous"] == f"http://testserver{url}?page_size=4&t=1764000000000"
