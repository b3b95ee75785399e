"""Two waiting lists on overlapping classes, their seats freed at the same moment (PostgreSQL): the member's automatic
bookings never overlap (docs/decisions.md 53)."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import Pass, Reservation, ReservationStatus
from bookings.models_operations import WaitlistEntry, WaitlistStatus
from bookings.services import overlap
from bookings.services import waitlist as wl
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseSessionFactory


def _run_together(*calls):
    barrier = threading.Barrier(len(calls))
    errors = []

    def run(call):
        try:
            barrier.wait()
            call()
        except Exception as exc:  # noqa: BLE001 - asserted below
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


@pytest.fixture
def both_check_before_either_books(monkeypatch):
    """Holds each offer right after its overlap check until the other has checked too (or 2 s have passed): without
    the member's lock both would check before either books; with it the second waits for the first's commit."""
    barrier = threading.Barrier(2, timeout=2)
    real_check = overlap.overlapping_booking

    def check_then_wait(**kwargs):
        found = real_check(**kwargs)
        try:
            barrier.wait()
        except threading.BrokenBarrierError:
            pass
        return found

    monkeypatch.setattr(wl, "overlapping_booking", check_then_wait)


@pytest.mark.postgres
def test_seats_freed_at_once_in_two_overlapping_classes_book_only_one(both_check_before_either_books):
    start = (timezone.now() + timedelta(days=2)).replace(second=0, microsecond=0)
    sessions = [CourseSessionFactory(max_attendees=1, start=start + timedelta(minutes=m)) for m in (0, 30)]
    booked = [ReservationFactory(session=s) for s in sessions]
    member = UserFactory()
    # Two passes, one per line: the pass's row lock does not serialise the two bookings, only the member's lock does.
    cards = [PassFactory(member=member, credits_left=5) for _ in sessions]
    for session, card in zip(sessions, cards, strict=True):
        wl.waitlist_join(user=member, session_id=session.pk, auto_book=True, pass_id=card.pk)
    # Both seats free at once, before any offer runs (as two cancellations' offers queued together would find them).
    Reservation.objects.filter(pk__in=[r.pk for r in booked]).update(status=ReservationStatus.CANCELLED)

    offers = [(lambda s=s: wl.waitlist_offer_freed_seats(session_id=s.pk)) for s in sessions]
    errors = _run_together(*offers)

    assert errors == []
    live = Reservation.objects.filter(user=member, status=ReservationStatus.CONFIRMED)
    assert live.count() == 1
    statuses = sorted(WaitlistEntry.objects.filter(user=member).values_list("status", flat=True))
    assert statuses == sorted([WaitlistStatus.BOOKED, WaitlistStatus.SKIPPED])
    assert sorted(Pass.objects.filter(member=member).values_list("credits_left", flat=True)) == [4, 5]
