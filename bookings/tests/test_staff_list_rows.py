"""The staff session and passes lists, row by row, whatever the session's or the pass's state: each session row is
the staff session (feed.staff_session_data) with its seats, reservations and waiting list counted here apart; each
pass row is written here from the pass and its member."""

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.http import QueryDict
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.apis.feed import parse_feed_range, staff_session_data
from bookings.apis.session_filters import staff_sessions_filtered
from bookings.apis.session_list_extras import with_list_extras
from bookings.models import PassKind, PassOrigin, ReservationStatus
from bookings.selectors.sessions import sessions_staff_page_list, sessions_with_seats
from bookings.services import waitlist as wl
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.models import CourseSession, Level, SessionSeries, SessionStatus
from courses.tests.factories import CourseFactory, CourseSessionFactory, TariffFactory

LIST = "/api/course-sessions"
pytestmark = pytest.mark.django_db


def _studio():
    now = timezone.now()
    course = CourseFactory(title="Pole Flow", level=Level.BEGINNER)
    full = CourseSessionFactory(course=course, start=now + timedelta(days=1), max_attendees=2, level=Level.ADVANCED)
    ReservationFactory(session=full, participants=2)
    for _ in range(2):
        wl.waitlist_join(user=UserFactory(), session_id=full.pk)
    over = CourseSessionFactory(start=now + timedelta(days=2), max_attendees=1)
    ReservationFactory(session=over, participants=3)  # more seats than places: seats_left 0, seats_taken the places
    held = CourseSessionFactory(start=now + timedelta(days=3), price_per_participant=Decimal("12.5"))
    ReservationFactory(session=held, held=True)
    ReservationFactory(session=held, status=ReservationStatus.HELD, hold_expires_at=now - timedelta(minutes=1))
    ReservationFactory(session=held, status=ReservationStatus.CANCELLED)
    CourseSessionFactory(
        start=now + timedelta(days=4),
        status=SessionStatus.CANCELLED,
        cancelled_at=now,
        cancellation_reason="Salle inondée",
        instructor="Léa Garnier",
    )
    CourseSessionFactory(start=now - timedelta(days=3), details="Passée")
    nobody = CourseSessionFactory(start=now + timedelta(days=5))
    nobody.instructor = None
    nobody.save(update_fields=["instructor"])
    series = SessionSeries.objects.create(
        course=course, weekdays=[0], starts_on=timezone.localdate(), ends_on=timezone.localdate() + timedelta(days=70)
    )
    full.series = series
    full.save(update_fields=["series"])


def _expected(query: str) -> tuple[int, list[dict]]:
    params = QueryDict(query)
    now = timezone.now()
    ordering = "-start" if params.get("ordering", "date").startswith("-") else "start"
    qs = sessions_staff_page_list(ordering=ordering)
    if "start" in params or "end" in params:
        start, end = parse_feed_range(params)
        qs = qs.filter(start__lt=end, end__gt=start)
    qs = staff_sessions_filtered(qs, params, now=now)
    size = int(params.get("page_size", 10))
    page = int(params.get("page", 1))
    if params.get("focus"):
        ids = list(qs.values_list("pk", flat=True))
        page = ids.index(int(params["focus"])) // size + 1 if int(params["focus"]) in ids else page
    sessions = sessions_with_seats(list(qs[(page - 1) * size : page * size]), now=now)
    rows = with_list_extras([staff_session_data(s, now=now) for s in sessions], sessions)
    return qs.count(), json.loads(json.dumps(rows))


@pytest.mark.parametrize(
    "query",
    [
        "view=staff&page_size=20",
        "view=staff&page_size=3&page=2&ordering=-date",
        "view=staff&when=upcoming&page_size=20",
        "view=staff&when=full&page_size=20",
        "view=staff&when=past",
        "view=staff&when=cancelled",
        "view=staff&search=flow&page_size=20",
        "view=staff&instructor=garnier",
        "view=staff&page_size=2&page=2",
        "view=staff&page_size=2&page=3&ordering=-date",
        "view=staff&when=full&ordering=-date",
        "view=staff&when=upcoming&page_size=2&page=2",
        "view=staff&course_id={course}",
        "view=staff&course_id={course}&when=full",
        "view=staff&search=garnier&when=cancelled",
        "view=staff&start={tomorrow}&page_size=2&ordering=-date",
        "view=staff&start={yesterday}&end={week}&when=upcoming",
        "view=staff&page_size=2&focus={full}",
        "view=staff&page_size=1&ordering=-date&focus={full}",
        "view=staff&page_size=2&page=3&focus=999999",
    ],
)
def test_each_staff_session_row_is_what_staff_session_data_writes(api_client, staff, query):
    _studio()
    today = timezone.localdate()
    full = CourseSession.objects.filter(waitlist_entries__isnull=False).distinct().get()
    query = query.format(
        course=full.course_id,
        full=full.pk,
        tomorrow=today + timedelta(days=1),
        yesterday=today - timedelta(days=1),
        week=today + timedelta(days=7),
    )
    api_client.force_authenticate(staff)
    body = api_client.get(f"{LIST}?{query}").json()
    count, rows = _expected(query)
    assert body["count"] == count and body["results"] == rows
    assert list(body["results"][0]) == list(rows[0])  # the same keys in the same order


def test_the_full_filter_lists_the_upcoming_sessions_without_a_seat_left(api_client, staff):
    _studio()
    api_client.force_authenticate(staff)
    body = api_client.get(LIST, {"view": "staff", "when": "full"}).json()
    assert body["count"] == 2 and all(row["seats_left"] == 0 for row in body["results"])
    assert {row["seats_taken"] for row in body["results"]} == {1, 2}


def test_a_range_and_the_time_are_applied_each_request(api_client, staff):
    _studio()
    api_client.force_authenticate(staff)
    today = timezone.localdate()
    first = api_client.get(LIST, {"view": "staff", "start": str(today + timedelta(days=2))}).json()
    later = api_client.get(LIST, {"view": "staff", "start": str(today + timedelta(days=4))}).json()
    assert first["count"] > later["count"] >= 1


PASS_STATE_LABELS = {"active": "Valable", "upcoming": "À venir", "expired": "Expirée", "used": "Épuisée"}


def _pass_row(pass_obj, state: str) -> dict:
    """A row as the dashboard's passes list reads it."""
    member = pass_obj.member
    return {
        "id": pass_obj.pk,
        "kind": pass_obj.kind,
        "kind_label": pass_obj.get_kind_display(),
        "origin": pass_obj.origin,
        "origin_label": pass_obj.get_origin_display(),
        "title": pass_obj.title,
        "tariff_id": pass_obj.tariff_id,
        "credits_total": pass_obj.credits_total,
        "credits_left": pass_obj.credits_left,
        "starts_on": pass_obj.starts_on.isoformat(),
        "expires_on": pass_obj.expires_on.isoformat(),
        "state": state,
        "state_label": PASS_STATE_LABELS[state],
        "member_id": member.pk,
        "member_name": f"{member.first_name} {member.last_name}".strip(),
        "member_email": member.email,
        "created_at": timezone.localtime(pass_obj.created_at).isoformat(),
    }


def test_each_staff_pass_row_is_the_pass_as_staff_read_it(api_client, staff):
    today = timezone.localdate()
    petit = UserFactory(first_name="", last_name="Petit")
    states = {
        PassFactory(member=petit, credits_total=10, credits_left=0): "used",
        PassFactory(
            kind=PassKind.SUBSCRIPTION, credits_total=None, credits_left=None, tariff=TariffFactory()
        ): "active",
        PassFactory(starts_on=today + timedelta(days=3), expires_on=today + timedelta(days=30)): "upcoming",
        PassFactory(
            origin=PassOrigin.CANCELLATION, starts_on=today - timedelta(days=9), expires_on=today - timedelta(days=1)
        ): "expired",
    }
    newest_first = [_pass_row(p, states[p]) for p in sorted(states, key=lambda p: (p.created_at, p.pk), reverse=True)]
    by_member = sorted(states, key=lambda p: -p.pk)
    by_member.sort(key=lambda p: p.member.last_name)
    api_client.force_authenticate(staff)
    for query, rows in (
        ({}, newest_first),
        ({"ordering": "bogus"}, newest_first),
        ({"ordering": "member"}, [_pass_row(p, states[p]) for p in by_member]),
        ({"search": "petit"}, [row for row in newest_first if row["member_id"] == petit.pk]),
        ({"page_size": 2, "page": 2}, newest_first),
    ):
        body = api_client.get("/api/passes", query).json()
        page, size = query.get("page", 1), query.get("page_size", 10)
        assert body["count"] == len(rows)
        assert body["results"] == rows[(page - 1) * size : page * size]
        assert list(body["results"][0]) == list(rows[0])  # the same fields in the same order


def test_the_staff_session_list_is_its_count_then_its_page(api_client, staff):
    """The page's seats, reservations and waiting lists come with its rows: two queries whatever the page."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _studio()
    api_client.force_authenticate(staff)
    for query in ({"page_size": 20}, {"page_size": 2, "page": 2}, {"when": "upcoming", "ordering": "-date"}):
        with CaptureQueriesContext(connection) as queries:
            body = api_client.get(LIST, {"view": "staff", **query}).json()
        sql = [q["sql"] for q in queries.captured_queries if "courses_coursesession" in q["sql"]]
        assert len(sql) == 2, sql
    body = api_client.get(LIST, {"view": "staff", "page_size": 20}).json()
    assert body["count"] == 6 and sum(row["waitlist_count"] for row in body["results"]) == 2
