"""QR check-in under concurrency (PostgreSQL, docs/decisions.md 58): two phones at the door scanning the same code
at once record one presence, and exactly one of them is told the member was already checked in."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import Role
from accounts.tests.factories import UserFactory
from bookings.checkin_codes import checkin_code
from bookings.models_operations import Attendance, AttendanceStatus
from bookings.services.checkin import checkin_scan
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory


@pytest.mark.postgres
def test_two_phones_scanning_one_code_at_once_record_one_presence():
    start = timezone.now() + timedelta(minutes=30)
    session = CourseSessionFactory(start=start, end=start + timedelta(hours=1))
    emma = ReservationFactory(session=session)
    code = checkin_code(reservation_id=emma.pk, session_id=session.pk)
    desks = [UserFactory(role=Role.ADMIN) for _ in range(2)]
    barrier = threading.Barrier(len(desks))
    answers, errors = [], []

    def scan(desk):
        try:
            barrier.wait()
            answers.append(checkin_scan(session_id=session.pk, code=code, by=desk)[1])
        except Exception as exc:  # noqa: BLE001 - asserted below
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=scan, args=(desk,)) for desk in desks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert sorted(answers) == [False, True]  # one "pointé(e) présent(e)", one "déjà pointé(e)"
    assert Attendance.objects.filter(reservation=emma).count() == 1
    assert Attendance.objects.get(reservation=emma).status == AttendanceStatus.PRESENT
