"""The member's history orders the member's reservations by their session's start. On SQLite it is looked
up by the session's id once per reservation, which an index on (id, start) answers alone (courses migration 0010);
on PostgreSQL it is the copy each reservation carries (bookings migration 0014), and the sessions are read for the
page's rows only."""

import pytest
from django.db import connection, transaction
from django.utils import timezone

from bookings.member_history import _plain
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory

pytestmark = pytest.mark.django_db


def test_the_sessions_start_is_indexed_by_their_id():
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, "courses_coursesession")
    index = found.get("session_start_by_id_idx")
    assert index is not None and index["index"] and index["columns"] == ["id", "start"]


@pytest.mark.postgres
def test_on_postgresql_the_order_reads_the_reservations_alone(member):
    """The page's plan sorts on the reservations' copy of the start and reads no session to order them (forced off
    the sequential scan a test database's few rows would take)."""
    now = timezone.now()
    for days in (-3, 2, 5):
        ReservationFactory(session=CourseSessionFactory(start=now + timezone.timedelta(days=days)), user=member)
    sql, order = _plain()
    values = {"member": member.pk, "now": now, "limit": 20, "offset": 0}
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + sql, [values[name] for name in order])
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "Sort Key: (CASE WHEN (r.session_start > " in plan, plan
    assert "courses_coursesession s0" not in plan and "SubPlan" not in plan, plan  # the page rows' details only
