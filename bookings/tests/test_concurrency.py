"""DECISIONS.md 13: a session never takes more participants than max_attendees, under any concurrency (PostgreSQL)."""

import threading

import pytest
from django.db import connection

from accounts.tests.factories import UserFactory
from bookings import services
from bookings.models import Reservation, ReservationStatus
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory

THREADS = 60


@pytest.mark.postgres
def test_one_seat_left_and_sixty_members_reserving_at_once():
    session = CourseSessionFactory(max_attendees=5)
    ReservationFactory(session=session, participants=4)  # one seat left
    members = [UserFactory() for _ in range(THREADS)]
    barrier = threading.Barrier(THREADS)
    successes, refusals, crashes = [], [], []

    def reserve(user):
        try:
            barrier.wait()
            reservation = services.reservation_hold(
                user=user,
                session_id=session.pk,
                participants=1,
                first_name="A",
                last_name="B",
                email=user.email,
            )
            successes.append(reservation.pk)
        except services.ReservationError as exc:
            refusals.append(exc.message)
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            crashes.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=reserve, args=(user,)) for user in members]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert crashes == []
    assert len(successes) == 1
    assert refusals == [services.MSG_SESSION_FULL] * (THREADS - 1)
    assert services.session_seats_taken(session=session) == session.max_attendees
    assert Reservation.objects.filter(session=session, status=ReservationStatus.HELD).count() == 1


@pytest.mark.postgres
def test_concurrent_confirmations_of_one_hold_confirm_it_once():
    session = CourseSessionFactory(max_attendees=2)
    member = UserFactory()
    held = services.reservation_hold(
        user=member, session_id=session.pk, participants=2, first_name="A", last_name="B", email=member.email
    )
    barrier = threading.Barrier(10)
    results = []

    def confirm():
        try:
            barrier.wait()
            results.append(services.reservation_confirm(reservation_id=held.pk).status)
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [ReservationStatus.CONFIRMED] * 10
    assert services.session_seats_taken(session=session) == 2
