"""QR check-in under concurrency (PostgreSQL, docs/decisions.md 58): two phones at the door scanning the same code
at once record one presence, and exactly one of them is told the member was already checked in."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Role
from accounts.tests.factories import UserFactory
from bookings.checkin_codes import checkin_code
from bookings.models_operations import Attendance, AttendanceStatus
from bookings.services.checkin import checkin_scan
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory
from studio.tests.races import race


@pytest.mark.postgres
def test_two_phones_scanning_one_code_at_once_record_one_presence():
    start = timezone.now() + timedelta(minutes=30)
    session = CourseSessionFactory(start=start, end=start + timedelta(hours=1))
    emma = ReservationFactory(session=session)
    code = checkin_code(reservation_id=emma.pk, session_id=session.pk)

    def scan(desk):
        return lambda: checkin_scan(session_id=session.pk, code=code, by=desk)[1]

    answers, refusals, crashes = race(*(scan(UserFactory(role=Role.ADMIN)) for _ in range(2)))

    assert refusals == [] and crashes == []  # the second scan is answered, not refused
    assert sorted(answers) == [False, True]  # one "pointé(e) présent(e)", one "déjà pointé(e)"
    assert Attendance.objects.filter(reservation=emma).count() == 1
    assert Attendance.objects.get(reservation=emma).status == AttendanceStatus.PRESENT
