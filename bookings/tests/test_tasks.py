"""The periodic hold expiry (docs/decisions.md 41): idempotent, and safe when two schedulers run it at once."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from bookings.models import Reservation, ReservationStatus
from bookings.tasks import holds_release_expired
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory


def _holds(count, *, lapsed=True):
    session = CourseSessionFactory(max_attendees=count + 5)
    expires = timezone.now() + (timedelta(minutes=-1) if lapsed else timedelta(minutes=10))
    return [
        ReservationFactory(session=session, status=ReservationStatus.HELD, hold_expires_at=expires).pk
        for _ in range(count)
    ]


@pytest.mark.django_db
def test_the_job_frees_lapsed_holds_only_and_runs_again_harmlessly():
    lapsed = _holds(3)
    live = _holds(2, lapsed=False)
    confirmed = ReservationFactory().pk
    assert holds_release_expired.call() == 3
    assert holds_release_expired.call() == 0
    statuses = dict(Reservation.objects.values_list("pk", "status"))
    assert {statuses[pk] for pk in lapsed} == {ReservationStatus.EXPIRED}
    assert {statuses[pk] for pk in live} == {ReservationStatus.HELD}
    assert statuses[confirmed] == ReservationStatus.CONFIRMED


@pytest.mark.postgres
def test_two_schedulers_running_the_hold_expiry_together_release_each_hold_once():
    lapsed = _holds(40)
    barrier = threading.Barrier(2)
    released, errors = [], []

    def scheduler():
        try:
            barrier.wait()
            released.append(holds_release_expired.call())
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=scheduler) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sum(released) == len(lapsed)  # each hold counted by exactly one of the two runs
    assert set(Reservation.objects.filter(pk__in=lapsed).values_list("status", flat=True)) == {
        ReservationStatus.EXPIRED
    }
