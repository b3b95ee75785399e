"""Two waiting lists on overlapping classes, their seats freed at the same moment (PostgreSQL): the member's automatic
bookings never overlap (docs/decisions.md 53)."""

import threading
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import Pass, Reservation, ReservationStatus
from bookings.models_operations import WaitlistEntry, WaitlistStatus
from bookings.services import overlap
from bookings.services import waitlist as wl
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseSessionFactory
from studio.tests.races import run_together


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
    errors = run_together(*offers)

    assert errors == []
    live = Reservation.objects.filter(user=member, status=ReservationStatus.CONFIRMED)
    assert live.count() == 1
    statuses = sorted(WaitlistEntry.objects.filter(user=member).values_list("status", flat=True))
    assert statuses == sorted([WaitlistStatus.BOOKED, WaitlistStatus.SKIPPED])
    assert sorted(Pass.objects.filter(member=member).values_list("credits_left", flat=True)) == [4, 5]


@pytest.fixture
def direct_booking_written_first(monkeypatch):
    """Orders the race: the automatic booking takes the member's lock only once the direct booking has written its
    reservation, and the direct booking commits only once the automatic booking has checked for an overlap (or 2 s
    have passed, when that check waits for the direct booking's lock). Without the member's lock on the direct path
    the check runs beside the uncommitted booking, sees nothing, and books both."""
    from bookings.services import passes, reservations

    written, checked = threading.Event(), threading.Event()

    def then_wait_for_check(real):
        def wrapped(*args, **kwargs):
            result = real(*args, **kwargs)
            written.set()
            checked.wait(timeout=2)
            return result

        return wrapped

    def lock_once_written(**kwargs):
        written.wait(timeout=2)
        real_lock(**kwargs)

    def check_then_tell(**kwargs):
        found = real_check(**kwargs)
        checked.set()
        return found

    real_lock, real_check = wl.lock_member_bookings, overlap.overlapping_booking
    monkeypatch.setattr(wl, "lock_member_bookings", lock_once_written)
    monkeypatch.setattr(wl, "overlapping_booking", check_then_tell)
    monkeypatch.setattr(passes, "pass_spend", then_wait_for_check(passes.pass_spend))
    monkeypatch.setattr(reservations, "_reservation_save", then_wait_for_check(reservations._reservation_save))


@pytest.mark.postgres
@pytest.mark.parametrize("paid_with", ["pass", "card_hold"])
def test_a_members_own_booking_racing_an_automatic_booking_never_makes_them_overlap(
    direct_booking_written_first, paid_with
):
    """The member books a class themselves (with a pass, or a hold before paying by card) while a seat of an
    overlapping class frees for their waiting line with automatic booking: the automatic booking is skipped."""
    from bookings.services import passes, reservations

    start = (timezone.now() + timedelta(days=2)).replace(second=0, microsecond=0)
    full, chosen = (
        CourseSessionFactory(max_attendees=1, start=start),
        CourseSessionFactory(start=start + timedelta(minutes=30)),
    )
    seat = ReservationFactory(session=full)
    member = UserFactory()
    line_pass, own_pass = PassFactory(member=member, credits_left=5), PassFactory(member=member, credits_left=5)
    wl.waitlist_join(user=member, session_id=full.pk, auto_book=True, pass_id=line_pass.pk)
    Reservation.objects.filter(pk=seat.pk).update(status=ReservationStatus.CANCELLED)
    names = {"participants": 1, "first_name": "Léa", "last_name": "Martin", "email": member.email}

    def book_directly():
        if paid_with == "pass":
            passes.reservation_book_with_pass(user=member, session_id=chosen.pk, pass_id=own_pass.pk, **names)
        else:
            reservations.reservation_hold(user=member, session_id=chosen.pk, **names)

    errors = run_together(book_directly, lambda: wl.waitlist_offer_freed_seats(session_id=full.pk))

    assert errors == []
    live = Reservation.objects.filter(user=member, status__in=[ReservationStatus.HELD, ReservationStatus.CONFIRMED])
    assert list(live.values_list("session_id", flat=True)) == [chosen.pk]
    assert WaitlistEntry.objects.get(user=member).status == WaitlistStatus.SKIPPED
    assert Pass.objects.get(pk=line_pass.pk).credits_left == 5
