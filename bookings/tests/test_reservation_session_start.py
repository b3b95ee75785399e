"""On PostgreSQL each reservation carries a copy of its session's start, kept by triggers (bookings migration 0014):
whatever writes the rows (the ORM, a bulk insert, a queryset update), and whichever of a booking and a change of
the session's start commits first, the copy equals the session's start once both have ended."""

from datetime import timedelta

import pytest

from accounts.tests.factories import UserFactory
from bookings.models import Reservation, ReservationStatus
from bookings.tests.db_copies import copies, in_step, second_waits_for_first
from bookings.tests.factories import ReservationFactory
from courses.models import CourseSession
from courses.tests.factories import CourseSessionFactory

pytestmark = pytest.mark.postgres


def _copies(*reservations) -> list:
    return copies("bookings_reservation", "session_start", reservations)


def _starts(*reservations) -> list:
    return [CourseSession.objects.get(pk=r.session_id).start for r in sorted(reservations, key=lambda r: r.pk)]


def _in_step() -> bool:
    return in_step(
        "bookings_reservation", "session_start", source="courses_coursesession", source_column="start", key="session_id"
    )


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


def test_a_booking_made_while_the_start_changes_gets_the_new_start():
    session, member = CourseSessionFactory(), UserFactory()
    later = session.start + timedelta(days=1)
    second_waits_for_first(
        lambda: CourseSession.objects.filter(pk=session.pk).update(start=later, end=later + timedelta(hours=1)),
        lambda: ReservationFactory(session=session, user=member),
    )
    assert _copies(Reservation.objects.get(user=member)) == [later]
    assert _in_step()


def test_a_start_changed_while_a_booking_is_made_reaches_that_booking():
    session, member = CourseSessionFactory(), UserFactory()
    later = session.start + timedelta(days=1)
    second_waits_for_first(
        lambda: ReservationFactory(session=session, user=member),
        lambda: CourseSession.objects.filter(pk=session.pk).update(start=later, end=later + timedelta(hours=1)),
    )
    assert _copies(Reservation.objects.get(user=member)) == [later]
    assert _in_step()
