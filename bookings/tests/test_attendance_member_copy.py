"""On PostgreSQL each attendance carries a copy of its reservation's member, kept by triggers (bookings 0015, issue
18): whatever writes the rows (the ORM, a bulk insert, a queryset update), and whichever of an attendance's marking
and a change of the reservation's member commits first, the copy equals the member once both have ended."""

import pytest

from accounts.tests.factories import UserFactory
from bookings.models import Attendance, AttendanceStatus, Reservation
from bookings.tests.db_copies import copies, in_step, second_waits_for_first
from bookings.tests.factories import ReservationFactory

pytestmark = pytest.mark.postgres


def _copies(*attendances) -> list:
    return copies("bookings_attendance", "member_id", attendances)


def _in_step() -> bool:
    return in_step(
        "bookings_attendance", "member_id", source="bookings_reservation", source_column="user_id", key="reservation_id"
    )


def test_every_way_of_writing_keeps_the_copy_equal_to_the_member():
    emma, zoe = UserFactory(), UserFactory()
    marked = Attendance.objects.create(reservation=ReservationFactory(user=emma), status=AttendanceStatus.ABSENT)
    assert _copies(marked) == [emma.pk]
    bulk = Attendance.objects.bulk_create(
        [Attendance(reservation=ReservationFactory(user=zoe), status=AttendanceStatus.PRESENT)]
    )
    assert _copies(*bulk) == [zoe.pk]
    reservation = marked.reservation
    reservation.user = zoe
    reservation.save()  # the ORM's save
    assert _copies(marked) == [zoe.pk]
    Reservation.objects.filter(pk=reservation.pk).update(user=emma)  # a queryset update
    assert _copies(marked) == [emma.pk]
    Attendance.objects.filter(pk=marked.pk).update(reservation=ReservationFactory(user=zoe))  # to another booking
    assert _copies(marked) == [zoe.pk]
    marked.refresh_from_db()
    marked.status = AttendanceStatus.PRESENT
    marked.save()  # a save that leaves the reservation as it is: the copy stays
    assert _copies(marked) == [zoe.pk]
    assert _in_step()


def test_an_absence_marked_while_the_member_changes_gets_the_new_member():
    reservation, zoe = ReservationFactory(), UserFactory()
    second_waits_for_first(
        lambda: Reservation.objects.filter(pk=reservation.pk).update(user=zoe),
        lambda: Attendance.objects.create(reservation=reservation, status=AttendanceStatus.ABSENT),
    )
    assert _copies(Attendance.objects.get(reservation=reservation)) == [zoe.pk]
    assert _in_step()


def test_a_member_changed_while_an_absence_is_marked_reaches_that_absence():
    reservation, zoe = ReservationFactory(), UserFactory()
    second_waits_for_first(
        lambda: Attendance.objects.create(reservation=reservation, status=AttendanceStatus.ABSENT),
        lambda: Reservation.objects.filter(pk=reservation.pk).update(user=zoe),
    )
    assert _copies(Attendance.objects.get(reservation=reservation)) == [zoe.pk]
    assert _in_step()
