"""bookings 0018 gives each reservation its own `cancel_reason` and `payment_pending`, filled from today's data.

Migrated back to before it, rows are written as they were (the reason told only by timestamps and statuses, the
payment only by payments' orders), then the migration runs forward; and back again."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.database  # SQL migrations: run on SQLite and again on PostgreSQL

BEFORE = ("bookings", "0017_drop_copy_columns_and_triggers")
AFTER = ("bookings", "0018_reservation_cancel_reason_payment_pending")
START = datetime(2031, 1, 6, 18, 30, tzinfo=UTC)


def _migrate(target):
    """bookings at `target` (the other apps' later migrations unapplied too when they depend on it); the models as
    they were then."""
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # forwards first: a plan cannot go both ways
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    executor.loader.build_graph()
    return executor.loader.project_state(list(executor.loader.applied_migrations)).apps


def _back_to_latest():
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def _rows(old):
    User = old.get_model("accounts", "User")
    Course = old.get_model("courses", "Course")
    Session = old.get_model("courses", "CourseSession")
    Reservation = old.get_model("bookings", "Reservation")
    Order = old.get_model("payments", "PaymentOrder")
    member = User.objects.create(email="lea@example.fr", first_name="Léa", last_name="Garnier")
    course = Course.objects.create(title="Pole", description="Cours")

    def session(days, **fields):
        begin = START + timedelta(days=days)
        return Session.objects.create(course=course, start=begin, end=begin + timedelta(hours=1), **fields)

    def reservation(on, status, **fields):
        return Reservation.objects.create(
            session=on,
            user=member,
            unit_price=Decimal("25.00"),
            first_name="Léa",
            last_name="Garnier",
            email="lea@example.fr",
            status=status,
            **fields,
        )

    def order(on, status, **fields):
        return Order.objects.create(
            order_id=f"O-{on.pk}-{status}",
            email="lea@example.fr",
            title="Pole",
            amount=Decimal("25.00"),
            date="2031-01-06",
            reservation=on,
            status=status,
            **fields,
        )

    cancelled_class = session(1, status="cancelled", cancelled_at=START - timedelta(days=3))
    plain = session(2)
    rows = {
        "studio": reservation(
            cancelled_class,
            "cancelled",
            confirmed_at=START - timedelta(days=9),
            cancelled_at=cancelled_class.cancelled_at,
        ),
        # a member's own cancellation of the cancelled class, days before the studio's
        "member_before_studio": reservation(
            cancelled_class, "cancelled", confirmed_at=START - timedelta(days=9), cancelled_at=START - timedelta(days=5)
        ),
        "member": reservation(
            plain, "cancelled", confirmed_at=START - timedelta(days=9), cancelled_at=START - timedelta(days=4)
        ),
        "late": reservation(
            plain, "cancelled", confirmed_at=START - timedelta(days=9), cancelled_at=START + timedelta(days=2, hours=-1)
        ),
        "hold_released": reservation(plain, "cancelled", cancelled_at=START + timedelta(days=2, hours=-1)),
        "expired": reservation(plain, "expired", hold_expires_at=START - timedelta(days=1)),
        "refunded": reservation(
            plain, "cancelled", confirmed_at=START - timedelta(days=9), cancelled_at=START - timedelta(days=1)
        ),
        # one live booking per member and class
        "open": reservation(session(3), "held", hold_expires_at=START),
        "declined": reservation(session(4), "held", hold_expires_at=START),
        "approved": reservation(session(5), "held", hold_expires_at=START),
        "confirmed": reservation(session(6), "confirmed", confirmed_at=START - timedelta(days=9)),
    }
    order(rows["refunded"], "REFUNDED", completed_at=START - timedelta(days=9))
    order(rows["open"], "CREATED")
    order(rows["open"], "VOIDED")
    order(rows["declined"], "DECLINED")
    order(rows["approved"], "APPROVED")
    order(rows["confirmed"], "COMPLETED", completed_at=START - timedelta(days=9))
    return {name: row.pk for name, row in rows.items()}


@pytest.mark.django_db(transaction=True)
def test_every_reservation_gets_the_reason_and_the_payment_state_its_rows_tell():
    try:
        ids = _rows(_migrate(BEFORE))
        Reservation = _migrate(AFTER).get_model("bookings", "Reservation")
        state = {
            name: Reservation.objects.values_list("cancel_reason", "payment_pending").get(pk=pk)
            for name, pk in ids.items()
        }
        assert state == {
            "studio": ("studio", ""),
            "member_before_studio": ("member", ""),
            "member": ("member", ""),
            "late": ("late", ""),  # inside the cancellation window: only an account's deletion did that
            "hold_released": ("member", ""),
            "expired": ("expired", ""),
            "refunded": ("refunded", ""),
            "open": ("", "open"),
            "declined": ("", "open"),
            "approved": ("", "approved"),
            "confirmed": ("", ""),
        }

        old = _migrate(BEFORE)  # reversible: the columns go, the rows stay
        assert old.get_model("bookings", "Reservation").objects.count() == len(ids)
        columns = [
            c.name for c in connection.introspection.get_table_description(connection.cursor(), "bookings_reservation")
        ]
        assert "cancel_reason" not in columns and "payment_pending" not in columns
    finally:
        _back_to_latest()
