"""studio.compiled_queries: a list's queries compiled once per shape answer what the ORM answers, with
the per-request values (time, ids) put where they belong, and fall back to the ORM when a shape cannot be kept."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.db.models import Count, OuterRef, Subquery, Sum
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from bookings.models import Reservation, ReservationStatus
from bookings.tests.factories import ReservationFactory
from courses.models import CourseSession
from courses.tests.factories import CourseSessionFactory
from studio import compiled_queries
from studio.compiled_queries import CompiledList, count, rows

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_templates():
    compiled_queries.clear()
    yield
    compiled_queries.clear()


def _sessions(n=4):
    now = timezone.now()
    return [
        CourseSessionFactory(start=now + timedelta(days=i - 2), end=now + timedelta(days=i - 2, hours=1))
        for i in range(n)
    ]


def test_rows_are_the_orms_values_typed_as_the_orm_types_them():
    _sessions()
    build = lambda: CourseSession.objects.order_by("start", "id").values("id", "start", "price_per_participant")  # noqa: E731
    assert rows(("t",), build) == list(build())
    first = rows(("t",), build)[0]
    assert isinstance(first["price_per_participant"], Decimal) and first["start"].tzinfo is not None


def test_a_shape_is_compiled_once_then_run_from_its_sql():
    _sessions()
    calls = []

    def build():
        calls.append(1)
        return CourseSession.objects.order_by("id").values("id")

    expected = list(CourseSession.objects.order_by("id").values("id"))
    assert rows(("once",), build) == expected
    with CaptureQueriesContext(connection) as queries:
        assert rows(("once",), build) == expected
    assert len(calls) == 1 and len(queries) == 1  # the second answer ran the kept SQL: one query, no compilation


def test_a_late_time_goes_where_the_time_goes():
    sessions = _sessions()

    def build(*, now):
        return CourseSession.objects.filter(end__gt=now).order_by("id").values("id")

    for moment in (s.start + timedelta(minutes=30) for s in sessions):
        expected = list(CourseSession.objects.filter(end__gt=moment).order_by("id").values("id"))
        assert rows(("future",), build, now=moment) == expected
        assert count(("future",), lambda *, now: CourseSession.objects.filter(end__gt=now), now=moment) == len(expected)


def test_two_late_times_are_never_swapped():
    sessions = _sessions(6)

    def build(*, now, start, end):
        return CourseSession.objects.filter(start__lt=end, end__gt=start, start__gte=now).order_by("id").values("id")

    start, end, now = sessions[1].start, sessions[4].start, sessions[2].start
    expected = list(build(now=now, start=start, end=end))
    assert [row["id"] for row in expected] == [sessions[2].pk, sessions[3].pk]
    assert rows(("range",), build, now=now, start=start, end=end) == expected
    assert rows(("range",), build, now=sessions[3].start, start=start, end=end) == [{"id": sessions[3].pk}]


def test_late_ids_and_time_in_a_grouped_query():
    sessions = _sessions(3)
    now = timezone.now()
    ReservationFactory(session=sessions[0], participants=2)
    ReservationFactory(session=sessions[1], participants=3)
    ReservationFactory(session=sessions[1], held=True)
    ReservationFactory(
        session=sessions[1], status=ReservationStatus.HELD, hold_expires_at=now - timedelta(minutes=1)
    )  # lapsed

    def build(*, now, ids):
        live = Reservation.objects.filter(status=ReservationStatus.CONFIRMED) | Reservation.objects.filter(
            status=ReservationStatus.HELD, hold_expires_at__gt=now
        )
        return (
            live.filter(session_id__in=ids)
            .values("session_id")
            .annotate(seats=Sum("participants"), n=Count("id"))
            .order_by("session_id")
        )

    for ids in ([sessions[0].pk, sessions[1].pk], [sessions[1].pk, sessions[2].pk], [sessions[2].pk, sessions[0].pk]):
        assert rows(("seats",), build, now=now, ids=ids) == list(build(now=now, ids=ids))
    assert rows(("seats",), build, now=now, ids=[sessions[1].pk]) == [
        {"session_id": sessions[1].pk, "seats": 4, "n": 2}
    ]


def test_a_count_django_wraps_in_a_subquery_runs_through_the_orm():
    sessions = _sessions(3)
    ReservationFactory(session=sessions[0])
    ReservationFactory(session=sessions[0])

    def build():
        return CourseSession.objects.annotate(n=Count("reservations")).filter(n__gte=1)

    assert count(("grouped",), build) == 1
    assert count(("grouped",), build) == 1


def test_a_late_value_used_beyond_a_parameter_is_not_kept():
    sessions = _sessions(3)

    def build(*, now):  # a parameter computed from the late value: the ORM answers, never a wrong template
        return CourseSession.objects.filter(pk__gt=sessions[0].pk + now.year - 2000, end__gt=now).values("id")

    moment = sessions[0].start - timedelta(days=1)
    expected = list(build(now=moment))
    assert rows(("derived",), build, now=moment) == expected
    assert expected == []  # the stand-ins (1901, 1902) would have kept every session


def test_the_paginated_list_counts_and_slices():
    sessions = _sessions(5)
    listed = CompiledList(("paged",), lambda: CourseSession.objects.order_by("-start", "-id").values("id"))
    assert listed.count() == 5
    assert [row["id"] for row in listed[1:3]] == [sessions[3].pk, sessions[2].pk]
    with CaptureQueriesContext(connection) as queries:
        assert listed[0:0] == []
    assert len(queries) == 0


def test_frozen_time_is_a_late_time_like_any_other():
    """freezegun swaps the datetime class: a template kept before the freeze serves under it, and the other way."""
    from freezegun import freeze_time

    sessions = _sessions(4)

    def build(*, now):
        return CourseSession.objects.filter(end__gt=now).order_by("id").values("id")

    def expected(moment):
        return [{"id": s.pk} for s in sessions if s.end > moment]

    assert rows(("before",), build, now=timezone.now()) == expected(timezone.now())
    with freeze_time(sessions[1].start):
        moment = timezone.now()
        assert rows(("before",), build, now=moment) == expected(moment)
        assert rows(("during",), build, now=moment) == expected(moment)
    assert rows(("during",), build, now=sessions[3].start) == expected(sessions[3].start)


def _paged_list():
    return CompiledList(("paged-with-total",), lambda: CourseSession.objects.order_by("start", "id").values("id"))


@pytest.mark.parametrize(("number", "size"), [(1, 2), (2, 2), (3, 2), (1, 10), ("2", 3)])
def test_the_count_and_the_asked_page_come_back_in_one_query(number, size):
    """A list paged by CompiledPaginator answers what Django's paginator answers on the ORM's queryset, with one
    query for the count and the page (the count rides on the page's rows)."""
    from django.core.paginator import Paginator

    from studio.compiled_queries import CompiledPaginator

    _sessions(5)
    page = Paginator(CourseSession.objects.order_by("start", "id").values("id"), size).page(number)
    expected = (page.paginator.count, list(page), page.has_next())
    for _ in range(2):  # compiled, then from the kept SQL
        with CaptureQueriesContext(connection) as queries:
            page = CompiledPaginator(_paged_list(), size).page(number)
            assert (page.paginator.count, list(page), page.has_next()) == expected
        assert len(queries) == 1
        assert "COUNT(*)" in queries[0]["sql"]


def test_a_page_past_the_end_or_an_empty_list_still_counts():
    from django.core.paginator import EmptyPage

    from studio.compiled_queries import CompiledPaginator

    with CaptureQueriesContext(connection) as queries:
        page = CompiledPaginator(_paged_list(), 10).page(1)
    assert (page.paginator.count, list(page)) == (0, [])
    assert len(queries) == 2  # the page had no row to carry the count: the count ran alone
    _sessions(3)
    with pytest.raises(EmptyPage):
        CompiledPaginator(_paged_list(), 2).page(3)
    page = CompiledPaginator(_paged_list(), 2, orphans=1).page(1)  # orphans: the first page takes the third row
    assert len(page) == 3 and page.paginator.count == 3


def test_a_list_whose_count_needs_a_subquery_counts_alone():
    from studio.compiled_queries import CompiledPaginator

    sessions = _sessions(3)
    ReservationFactory(session=sessions[0])
    ReservationFactory(session=sessions[0])
    listed = CompiledList(
        ("distinct-count",),
        lambda: CourseSession.objects.filter(reservations__isnull=False).distinct().order_by("id").values("id"),
    )
    with CaptureQueriesContext(connection) as queries:
        page = CompiledPaginator(listed, 10).page(1)
    assert (page.paginator.count, list(page)) == (1, [{"id": sessions[0].pk}]) and len(queries) == 2


def test_a_later_page_picks_its_rows_by_id_before_computing_them():
    """From the second page on, the page's ids are chosen first (`pk IN (SELECT ... LIMIT/OFFSET)`), so the rows'
    own subqueries (the users list's no-shows) run for the page's rows only, not for every row skipped before it:
    page 99999 of the bench's users cost ~13 ms of PostgreSQL CPU when the skipped rows were computed."""
    from django.core.paginator import EmptyPage

    from studio.compiled_queries import CompiledPaginator

    sessions = _sessions(5)
    ReservationFactory(session=sessions[3], participants=2)

    def build():
        seats = Reservation.objects.filter(session=OuterRef("pk")).order_by().values(n=Sum("participants"))
        return CourseSession.objects.order_by("start", "id").values("id").annotate(seats=Subquery(seats))

    listed = CompiledList(("by-id",), build)
    with CaptureQueriesContext(connection) as queries:
        page = CompiledPaginator(listed, 2).page(2)
    assert list(page) == [{"id": sessions[2].pk, "seats": None}, {"id": sessions[3].pk, "seats": 2}]
    assert page.paginator.count == 5 and len(queries) == 1
    assert " IN (SELECT " in queries[0]["sql"]
    with pytest.raises(EmptyPage):
        CompiledPaginator(CompiledList(("by-id",), build), 2).page(99999)


@pytest.mark.postgres
def test_on_postgresql_a_kept_query_is_prepared_once_per_connection_then_executed(transactional_db):
    """Outside a transaction a list's query is an EXECUTE of its SQL prepared once per connection (studio.statements):
    PostgreSQL plans it once; the rows are the ORM's."""
    sessions = _sessions(3)

    def build(*, now):
        return CourseSession.objects.filter(end__gt=now).order_by("id").values("id", "start")

    moment = sessions[1].start
    expected = list(build(now=moment))
    for _ in range(3):
        with CaptureQueriesContext(connection) as queries:
            assert rows(("prepared",), build, now=moment) == expected
        assert [q["sql"].split("(")[0].split()[0] for q in queries.captured_queries] == ["EXECUTE"]


@pytest.mark.postgres
def test_on_postgresql_the_staff_session_lists_queries_are_all_prepared(transactional_db, client):
    """No parameter of the staff session list's queries is left untyped (a constant column such as `%s AS waiting`
    would make PostgreSQL refuse to prepare it, and the list would be planned at every request)."""
    from accounts.tests.factories import StaffFactory

    _sessions(3)
    client.force_login(StaffFactory())
    for _ in range(2):
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/api/course-sessions?view=staff&page=1").status_code == 200
    listed = [q["sql"] for q in queries.captured_queries if "studio_list_" in q["sql"] or "courses_" in q["sql"]]
    assert len(listed) == 1 and all(sql.startswith("EXECUTE studio_list_") for sql in listed), listed


@pytest.mark.postgres
def test_on_postgresql_only_the_first_page_is_prepared(transactional_db):
    """A later page's SQL holds its offset: prepared, each page would leave a statement in each connection."""
    from studio.compiled_queries import CompiledPaginator

    _sessions(5)
    for number, verb in ((1, "EXECUTE"), (2, "SELECT")):
        for _ in range(2):
            with CaptureQueriesContext(connection) as queries:
                CompiledPaginator(_paged_list(), 2).page(number)
            assert [q["sql"].split()[0] for q in queries.captured_queries] == [verb]
