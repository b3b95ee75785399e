"""On PostgreSQL each reservation carries a copy of its session's start, kept by triggers (bookings 0014, issue 18):
whatever writes the rows (the ORM, a bulk insert, a queryset update), and whichever of a booking and a change of
the session's start commits first, the copy equals the session's start once both have ended."""

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, transaction

from accounts.tests.factories import UserFactory
from bookings.models import Reservation, ReservationStatus
from bookings.tests.factories import ReservationFactory
from courses.models import CourseSession
from courses.tests.factories import CourseSessionFactory

pytestmark = pytest.mark.postgres


def _copies(*reservations) -> list:
    with connection.cursor() as cursor:
        cursor.execute(
            'SELECT "session_start" FROM "bookings_reservation" WHERE "id" = ANY(%s) ORDER BY "id"',
            [sorted(r.pk for r in reservations)],
        )
        return [row[0] for row in cursor.fetchall()]


def _starts(*reservations) -> list:
    return [CourseSession.objects.get(pk=r.session_id).start for r in sorted(reservations, key=lambda r: r.pk)]


def _in_step() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            'SELECT COUNT(*) FROM "bookings_reservation" r JOIN "courses_coursesession" s ON s."id" = r."session_id"'
            ' WHERE r."session_start" IS DISTINCT FROM s."start"'
        )
        return cursor.fetchone()[0] == 0


def test_every_way_of_writing_keeps_the_copy_equal_to_the_start():
    session, other = CourseSessionFactory(), CourseSessionFactory()
    booked = ReservationFactory(session=session)
    assert _copies(booked) == [session.start]
    bulk = Reservation.objects.bulk_create(
        [Reservation(session=session, user=UserFactory(), unit_price="10.00", status=ReservationStatus.CONFIRMED)]
    )
    assert _copies(*bulk) == [session.start]
    session.start += timedelta(hours=2)
    session.end += timedelta(hours=2)
    session.save()  # the ORM's save
    assert _copies(booked, *bulk) == [session.start, session.start]
    CourseSession.objects.filter(pk=session.pk).update(start=session.start - timedelta(days=1))  # a queryset update
    assert _copies(booked) == _starts(booked)
    Reservation.objects.filter(pk=booked.pk).update(session=other)  # moved to another session
    assert _copies(booked) == [other.start]
    booked.refresh_from_db()
    booked.status = ReservationStatus.CANCELLED
    booked.save()  # a save that leaves the session as it is: the copy stays
    assert _copies(booked) == [other.start]
    assert _in_step()


def _waiting_on_a_lock(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return bool(row) and row[0] == "Lock"


def _second_waits_for_first(first, second):
    """`first` runs in a transaction on a thread and stays open until `second`, on another thread, waits on a lock
    (polled in pg_stat_activity, not a fixed wait); then `first` commits and `second` ends. Any error fails."""
    errors, pids = [], []
    first_done_work, second_waiting = threading.Event(), threading.Event()

    def run_first():
        try:
            with transaction.atomic():
                first()
                first_done_work.set()
                assert second_waiting.wait(timeout=30), "the second transaction never waited"
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            first_done_work.set()
            connection.close()

    def run_second():
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pids.append(cursor.fetchone()[0])
            with transaction.atomic():
                second()
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    one, two = threading.Thread(target=run_first), threading.Thread(target=run_second)
    one.start()
    assert first_done_work.wait(timeout=30)
    two.start()
    deadline = time.monotonic() + 30
    while not pids or not _waiting_on_a_lock(pids[0]):
        assert two.is_alive(), f"the second transaction ended without waiting: {errors}"
        assert time.monotonic() < deadline, "the second transaction never waited"
        time.sleep(0.01)  # polling a condition (the other backend waits on a lock), not a fixed wait
    second_waiting.set()
    one.join(timeout=30)
    two.join(timeout=30)
    assert not errors, errors


def test_a_booking_made_while_the_start_changes_gets_the_new_start():
    session, member = CourseSessionFactory(), UserFactory()
    later = session.start + timedelta(days=1)
    _second_waits_for_first(
        lambda: CourseSession.objects.filter(pk=session.pk).update(start=later, end=later + timedelta(hours=1)),
        lambda: ReservationFactory(session=session, user=member),
    )
    assert _copies(Reservation.objects.get(user=member)) == [later]
    assert _in_step()


def test_a_start_changed_while_a_booking_is_made_reaches_that_booking():
    session, member = CourseSessionFactory(), UserFactory()
    later = session.start + timedelta(days=1)
    _second_waits_for_first(
        lambda: ReservationFactory(session=session, user=member),
        lambda: CourseSession.objects.filter(pk=session.pk).update(start=later, end=later + timedelta(hours=1)),
    )
    assert _copies(Reservation.objects.get(user=member)) == [later]
    assert _in_step()
