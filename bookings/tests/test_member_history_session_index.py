"""The member's history orders the member's reservations by their session's start, looked up by the session's id
once per reservation: an index on (id, start) answers each lookup alone (courses migration 0010, issue 18)."""

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
def test_on_postgresql_each_start_is_read_from_the_index_alone(member):
    """The page's plan looks the starts up with an index-only scan of that index (forced off the sequential scan
    a test database's few rows would take)."""
    now = timezone.now()
    for days in (-3, 2, 5):
        ReservationFactory(session=CourseSessionFactory(start=now + timezone.timedelta(days=days)), user=member)
    sql, order = _plain()
    values = {"member": member.pk, "now": now, "limit": 20, "offset": 0}
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + sql, [values[name] for name in order])
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "Index Only Scan using session_start_by_id_idx on courses_coursesession" in plan, plan
