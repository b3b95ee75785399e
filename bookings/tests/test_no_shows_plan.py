"""The staff's users list counts each member's no-shows from one index alone: the absences by member
(bookings 0015's copy of each attendance's member), one probe per listed member, reading no booking and no
attendance row. Going through the bookings costs far more: every booking of each listed member read from the table,
then each one's attendance row (~1,070 buffers for the bench's first page of ten members), or, with the bookings'
(user, id) index, that index then the absences' index for each booking (~850 buffers, ~0.45 ms of the database's
CPU)."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.tests.factories import UserFactory
from bookings.models import Attendance, AttendanceStatus
from bookings.tests.factories import ReservationFactory

pytestmark = pytest.mark.postgres


def _scans(plan: dict) -> list[tuple[str, str]]:
    found = [(plan["Relation Name"], plan["Node Type"])] if "Relation Name" in plan else []
    return found + [scan for child in plan.get("Plans", []) for scan in _scans(child)]


def test_the_no_show_count_reads_one_index_of_absences_by_member(client, staff):
    for n in range(12):
        member = UserFactory(last_name=f"Membre {n:02d}")
        for k in range(4):
            reservation = ReservationFactory(user=member, status="confirmed")
            status = AttendanceStatus.ABSENT if k % 2 else AttendanceStatus.PRESENT
            Attendance.objects.create(reservation=reservation, status=status)
    client.force_login(staff)
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/users?page=1")
    assert response.status_code == 200
    assert [row["no_shows"] for row in response.json()["results"] if row["last_name"].startswith("Membre")] == [2] * 9
    # The list is one prepared statement (studio/compiled_queries.py): its EXECUTE is explained as it runs.
    sql = next(q["sql"] for q in queries.captured_queries if q["sql"].startswith("EXECUTE studio_list_"))
    with connection.cursor() as cursor:
        # Vacuumed and analysed as autovacuum keeps a table in service (and the bench before it measures): an
        # index-only scan needs the visibility map, which freshly inserted rows do not have yet.
        cursor.execute("VACUUM ANALYZE bookings_reservation")
        cursor.execute("VACUUM ANALYZE bookings_attendance")
        # The plan PostgreSQL would choose at the bench's size, where reading tables whole costs more than indexes.
        cursor.execute("SET enable_seqscan = off")
        try:
            cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}")
            plan = cursor.fetchone()[0]
        finally:
            cursor.execute("RESET enable_seqscan")
    plan = plan if isinstance(plan, list) else json.loads(plan)
    scans = [scan for scan in _scans(plan[0]["Plan"]) if scan[0] in ("bookings_reservation", "bookings_attendance")]
    assert scans == [("bookings_attendance", "Index Only Scan")], scans
