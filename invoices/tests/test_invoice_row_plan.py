"""An order's invoice row reads its class's start through the order's own reservation: joined, PostgreSQL
merged the order with the reservations' primary-key index and read it up to the order's reservation, every
reservation of the studio for a new booking (1.7 ms at 9,000 reservations, 6.3 ms at 12,000, inside each capture's
locks)."""

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory
from invoices import services
from payments.models import PaymentOrder, PaymentStatus

pytestmark = pytest.mark.postgres


def _rows_read(plan: dict, table: str) -> int:
    found = plan.get("Actual Rows", 0) * plan.get("Actual Loops", 1) if plan.get("Relation Name") == table else 0
    return found + sum(_rows_read(child, table) for child in plan.get("Plans", []))


def test_the_row_reads_one_reservation_whatever_the_studio_holds(member):
    session = CourseSessionFactory(start=timezone.now() + timedelta(days=3))
    for _ in range(60):
        ReservationFactory(session=session)
    newest = ReservationFactory(session=session, user=member)
    order = PaymentOrder.objects.create(
        order_id="ORDER-PLAN-1", user=member, reservation=newest, title="Cours", amount="25.00", currency="EUR",
        status=PaymentStatus.COMPLETED, first_name="Emma", last_name="Petit", email=member.email,
    )  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    sql, params = services._order_invoice_queryset(order.pk).query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET enable_nestloop = off")  # the planner's other choices, which read the index in order
        try:
            cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}", params)
            plan = cursor.fetchone()[0]
        finally:
            cursor.execute("RESET enable_nestloop")
    plan = plan if isinstance(plan, list) else json.loads(plan)
    assert _rows_read(plan[0]["Plan"], "bookings_reservation") <= 1
    row = services._ORDER_INVOICE_ROW.dicts(order_id=order.pk)[0]
    assert row["session_start"] == session.start
