"""GET /api/dashboard/stats (docs/decisions.md 37): staff only, its dates refused in French, and the same
number of queries for a week as for a year, on a small studio as on a grown one."""

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from freezegun import freeze_time

from insights.errors import MSG_STATS_DATE, MSG_STATS_ORDER, MSG_STATS_TOO_LONG, MSG_STATS_YEARS
from insights.period import Period
from insights.selectors.classes import class_stats
from insights.selectors.members import member_stats
from insights.selectors.money import money_stats
from insights.selectors.upcoming import upcoming_stats
from studio.api import MSG_FORBIDDEN, MSG_NOT_AUTHENTICATED

from .studio import NOW, build_studio

URL = "/api/dashboard/stats"
WEEK = "from=2026-03-23&to=2026-03-29"
YEAR = "from=2025-03-30&to=2026-03-29"
# Per block, and for the whole answer (plus the session and the user of the request).
BLOCK_QUERIES = {"money": 6, "classes": 5, "members": 4, "upcoming": 3, "promo": 1}
REQUEST_QUERIES = 2


@pytest.mark.django_db
def test_visitors_and_members_are_refused(client, member):
    response = client.get(f"{URL}?{WEEK}")
    assert (response.status_code, response.json()["error"]) == (401, MSG_NOT_AUTHENTICATED)
    client.force_login(member)
    response = client.get(f"{URL}?{WEEK}")
    assert (response.status_code, response.json()["error"]) == (403, MSG_FORBIDDEN)


@pytest.mark.django_db
@pytest.mark.parametrize("role_fixture", ["supervisor", "staff"])
def test_admins_and_supervisors_read_it(client, request, role_fixture):
    client.force_login(request.getfixturevalue(role_fixture))
    response = client.get(f"{URL}?{WEEK}")
    assert response.status_code == 200
    assert set(response.json()) == {"period", "previous", "money", "classes", "members", "upcoming", "promo_codes"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("", "from", MSG_STATS_DATE),
        ("from=2026-03-01", "to", MSG_STATS_DATE),
        ("from=01/03/2026&to=2026-03-31", "from", MSG_STATS_DATE),
        ("from=2026-02-30&to=2026-03-31", "from", MSG_STATS_DATE),
        ("from=2026-03-01T10:00&to=2026-03-31", "from", MSG_STATS_DATE),
        ("from=2026-03-31&to=2026-03-01", "to", MSG_STATS_ORDER),
        ("from=2024-01-01&to=2026-03-01", "to", MSG_STATS_TOO_LONG),
        ("from=1999-12-31&to=2000-01-05", "from", MSG_STATS_YEARS),
        ("from=0001-01-01&to=0001-01-02", "from", MSG_STATS_YEARS),
        ("from=2100-12-30&to=2101-01-01", "to", MSG_STATS_YEARS),
        ("from=9999-12-30&to=9999-12-31", "from", MSG_STATS_YEARS),
    ],
)
def test_bad_dates_are_refused_in_french(client, supervisor, query, field, message):
    client.force_login(supervisor)
    response = client.get(f"{URL}?{query}")
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == message
    assert body["errors"][field] == [message]


@pytest.mark.django_db
def test_the_longest_period_and_a_single_day_are_accepted(client, supervisor):
    client.force_login(supervisor)
    assert client.get(f"{URL}?from=2025-01-01&to=2026-02-04").status_code == 200  # 400 days
    assert client.get(f"{URL}?from=2000-01-01&to=2000-01-01").json()["previous"] == {
        "from": "1999-12-31",
        "to": "1999-12-31",
        "days": 1,
    }


def _queries(client, query: str) -> int:
    with CaptureQueriesContext(connection) as context:
        assert client.get(f"{URL}?{query}").status_code == 200
    return len(context.captured_queries)


@pytest.mark.django_db
def test_the_same_queries_for_a_week_and_a_year_whatever_the_data(client, supervisor):
    with freeze_time(NOW):
        client.force_login(supervisor)
        empty = {q: _queries(client, q) for q in (WEEK, YEAR)}
        build_studio(sessions=30, members=10, reservations=40, seed=1)
        small = {q: _queries(client, q) for q in (WEEK, YEAR)}
        build_studio(sessions=200, members=50, reservations=700, seed=2, tag="2")
        grown = {q: _queries(client, q) for q in (WEEK, YEAR)}
    expected = sum(BLOCK_QUERIES.values()) + REQUEST_QUERIES
    assert empty == small == grown == {WEEK: expected, YEAR: expected}


@pytest.mark.django_db
def test_each_selector_keeps_its_number_of_queries(django_assert_num_queries):
    with freeze_time(NOW):
        build_studio(sessions=60, members=20, reservations=150)
        year = Period(first_day=date(2025, 3, 30), last_day=date(2026, 3, 29))
        with django_assert_num_queries(BLOCK_QUERIES["money"]):
            money_stats(period=year)
        with django_assert_num_queries(BLOCK_QUERIES["classes"]):
            class_stats(period=year)
        with django_assert_num_queries(BLOCK_QUERIES["members"]):
            member_stats(period=year)
        with django_assert_num_queries(BLOCK_QUERIES["upcoming"]):
            upcoming_stats()


@pytest.mark.django_db
def test_active_members_are_counted_from_the_periods_classes():
    """The active members are read from the classes of the two periods to their bookings: the database reads the
    classes by their start and each one's bookings by its index. From the bookings side, a database without fresh
    statistics (just after a large import) compared every booking with every class (a quarter of a second for the
    bench's year)."""
    with freeze_time(NOW):
        build_studio(sessions=20, members=10, reservations=40)
        with CaptureQueriesContext(connection) as context:
            member_stats(period=Period(first_day=date(2026, 3, 23), last_day=date(2026, 3, 29)))
    [active] = [q["sql"] for q in context.captured_queries if '"active_now"' in q["sql"]]
    assert active.split(" FROM ", 1)[1].startswith('"courses_coursesession"')
