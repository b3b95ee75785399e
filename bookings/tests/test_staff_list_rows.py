"""The staff session and passes lists build their rows from `.values()` rows and compiled queries; each
row is exactly what the model-based builders write (feed.staff_session_data with its list extras, pass_data as
PassOutput writes it), whatever the session's or the pass's state."""

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.http import QueryDict
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings import selectors
from bookings.apis.feed import parse_feed_range, staff_session_data
from bookings.apis.passes import PassOutput, pass_data
from bookings.apis.session_filters import staff_sessions_filtered
from bookings.apis.session_list_extras import with_list_extras
from bookings.models import PassKind, PassOrigin, ReservationStatus
from bookings.services import waitlist as wl
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.models import CourseSession, Level, SessionSeries, SessionStatus
from courses.tests.factories import CourseFactory, CourseSessionFactory, TariffFactory
from studio import compiled_queries

LIST = "/api/course-sessions"
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_templates():
    compiled_queries.clear()


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
    qs = selectors.sessions_staff_page_list(ordering=ordering)
    if "start" in params or "end" in params:
        start, end = parse_feed_range(params)
        qs = qs.filter(start__lt=end, end__gt=start)
    qs = staff_sessions_filtered(qs, params, now=now)
    size = int(params.get("page_size", 10))
    page = int(params.get("page", 1))
    if params.get("focus"):
        ids = list(qs.values_list("pk", flat=True))
        page = ids.index(int(params["focus"])) // size + 1 if int(params["focus"]) in ids else page
    sessions = selectors.sessions_with_seats(list(qs[(page - 1) * size : page * size]), now=now)
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
    for _ in range(2):  # compiled, then from the kept SQL
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


def test_each_staff_pass_row_is_what_pass_data_writes(api_client, staff):
    today = timezone.localdate()
    member = UserFactory(first_name="", last_name="Petit")
    PassFactory(member=member, credits_total=10, credits_left=0)  # used
    PassFactory(kind=PassKind.SUBSCRIPTION, credits_total=None, credits_left=None, tariff=TariffFactory())
    PassFactory(starts_on=today + timedelta(days=3), expires_on=today + timedelta(days=30))  # upcoming
    PassFactory(
        origin=PassOrigin.CANCELLATION, starts_on=today - timedelta(days=9), expires_on=today - timedelta(days=1)
    )
    api_client.force_authenticate(staff)
    for query in ({}, {"ordering": "member"}, {"search": "petit"}, {"page_size": 2, "page": 2}):
        for _ in range(2):
            body = api_client.get("/api/passes", query).json()
            qs = selectors.passes_staff_list(search=query.get("search", ""), ordering=query.get("ordering", ""))
            size, page = query.get("page_size", 10), query.get("page", 1)
            passes = qs[(page - 1) * size : page * size]
            expected = json.loads(json.dumps(PassOutput([pass_data(p, today=today) for p in passes], many=True).data))
            assert body["count"] == qs.count() and body["results"] == expected
            assert list(body["results"][0]) == list(expected[0])


def test_the_staff_session_list_is_one_query_its_page_with_the_count_seats_and_waiting_lists(api_client, staff):
    """The count, the page's seats and its waiting lists ride on the page's rows: one round trip."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _studio()
    api_client.force_authenticate(staff)
    for query in ({"page_size": 20}, {"page_size": 2, "page": 2}, {"when": "upcoming", "ordering": "-date"}):
        for _ in range(2):  # compiled, then from the kept SQL
            with CaptureQueriesContext(connection) as queries:
                body = api_client.get(LIST, {"view": "staff", **query}).json()
            sql = [
                q["sql"]
                for q in queries.captured_queries
                if "courses_coursesession" in q["sql"] or "bookings_" in q["sql"]
            ]
            assert len(sql) == 1, sql
            assert "bookings_reservation" in sql[0] and "bookings_waitlistentry" in sql[0]
    body = api_client.get(LIST, {"view": "staff", "page_size": 20}).json()
    assert body["count"] == 6 and sum(row["waitlist_count"] for row in body["results"]) == 2


@pytest.mark.parametrize(
    "moment",
    [
        "2026-03-29T00:59:59.999999+00:00",  # the last instant before summer time
        "2026-03-29T01:00:00+00:00",
        "2026-10-25T00:30:00+00:00",
        "2026-07-14T12:00:00.5+00:00",
        "1900-05-01T08:00:00+00:00",  # Paris's local mean time: RFC 3339 in UTC, the Paris text as the clock said
        "0999-12-31T23:00:00+00:00",
    ],
)
def test_a_sessions_two_date_texts_come_from_one_conversion(moment):
    from datetime import datetime

    from bookings.apis.session_rows import _date_texts, _paris_text
    from studio.fields import rfc3339

    value = datetime.fromisoformat(moment)
    tz = timezone.get_current_timezone()
    assert _date_texts(value, tz) == (rfc3339(value, tz), _paris_text(value.astimezone(tz)))


def test_the_page_query_writes_its_statuses_and_sends_only_the_time():
    """On PostgreSQL the first page is a statement planned once, generically: statuses sent as parameters kept it from
    the partial indexes on live reservations and waiting-list entries (a scan of the waiting list per row)."""
    from bookings.apis.session_rows import COLUMNS, _with_seats_and_waiting, _Written, staff_sessions_query

    now = timezone.now()
    qs = _with_seats_and_waiting(staff_sessions_query({}, ordering="start", now=now).values(*COLUMNS), now=now)
    sql, params = qs.query.sql_with_params()
    assert params and all(str(param).startswith(str(now.date())) for param in params)  # the time only
    assert "'confirmed'" in sql and "'held'" in sql and "IN ('waiting', 'offered')" in sql
    with pytest.raises(ValueError):
        _Written("x' OR '1")


def test_the_page_query_reads_each_rows_reservations_once():
    """A row's seats taken and reservations come from one subquery (two cost PostgreSQL 0.02-0.05 ms a page more)."""
    from bookings.apis.session_rows import COLUMNS, _with_seats_and_waiting, staff_sessions_query

    now = timezone.now()
    qs = _with_seats_and_waiting(staff_sessions_query({}, ordering="start", now=now).values(*COLUMNS), now=now)
    sql, _params = qs.query.sql_with_params()
    assert sql.count('"bookings_reservation"') == 1 and sql.count('"bookings_waitlistentry"') == 1
