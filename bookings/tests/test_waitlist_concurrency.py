"""Waiting lists under concurrency (PostgreSQL): offers in order, never more seats than places."""

import pytest

from accounts.tests.factories import UserFactory
from bookings.models import Pass, Reservation, ReservationStatus
from bookings.models_operations import WaitlistEntry, WaitlistStatus
from bookings.services import waitlist as wl
from bookings.services.availability import session_seats_left, session_seats_taken
from bookings.services.cancellation import reservation_cancel
from bookings.services.reservations import reservation_confirm
from bookings.tasks import waitlist_offers_sweep
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseSessionFactory
from studio.tests.races import run_together


@pytest.mark.postgres
def test_five_waiting_three_cancellations_at_once_offers_in_order_never_overbooks():
    session = CourseSessionFactory(max_attendees=3)
    booked = [ReservationFactory(session=session) for _ in range(3)]
    waiting = [UserFactory() for _ in range(5)]
    # The first in line asked for automatic booking, but their card's last credit goes elsewhere meanwhile.
    empty = PassFactory(member=waiting[0], credits_total=5, credits_left=1)
    wl.waitlist_join(user=waiting[0], session_id=session.pk, auto_book=True, pass_id=empty.pk)
    for user in waiting[1:]:
        wl.waitlist_join(user=user, session_id=session.pk)
    Pass.objects.filter(pk=empty.pk).update(credits_left=0)

    cancels = [(lambda r=r: reservation_cancel(user=r.user, reservation_id=r.pk)) for r in booked]
    errors = run_together(*cancels, waitlist_offers_sweep.call, waitlist_offers_sweep.call)

    assert errors == []
    statuses = [WaitlistEntry.objects.get(session=session, user=u).status for u in waiting]
    assert statuses == [
        WaitlistStatus.SKIPPED,  # not charged: the pass no longer pays
        WaitlistStatus.OFFERED,
        WaitlistStatus.OFFERED,
        WaitlistStatus.OFFERED,
        WaitlistStatus.WAITING,
    ]
    assert Pass.objects.get(pk=empty.pk).credits_left == 0
    assert not Reservation.objects.filter(session=session, user=waiting[0]).exists()
    live = Reservation.objects.filter(session=session, status__in=[ReservationStatus.HELD, ReservationStatus.CONFIRMED])
    assert session_seats_taken(session=session) == session.max_attendees == live.count()
    for user in waiting[1:4]:  # each offered exactly once
        assert Reservation.objects.filter(session=session, user=user).count() == 1
    assert wl.waitlist_position(WaitlistEntry.objects.get(session=session, user=waiting[4])) == 1


@pytest.mark.postgres
def test_offered_members_paying_while_schedulers_sweep_confirm_each_seat_once():
    session = CourseSessionFactory(max_attendees=2)
    booked = [ReservationFactory(session=session) for _ in range(2)]
    waiting = [UserFactory() for _ in range(5)]
    for user in waiting:
        wl.waitlist_join(user=user, session_id=session.pk)
    for reservation in booked:
        reservation_cancel(user=reservation.user, reservation_id=reservation.pk)
    offers = list(WaitlistEntry.objects.filter(session=session, status=WaitlistStatus.OFFERED))
    assert [e.user_id for e in offers] == [u.pk for u in waiting[:2]]
    confirms = [(lambda e=e: reservation_confirm(reservation_id=e.reservation_id)) for e in offers]
    errors = run_together(*confirms, waitlist_offers_sweep.call, waitlist_offers_sweep.call)
    assert errors == []
    confirmed = Reservation.objects.filter(session=session, status=ReservationStatus.CONFIRMED)
    assert confirmed.count() == 2 and session_seats_left(session=session) == 0
    waitlist_offers_sweep.call()
    assert [WaitlistEntry.objects.get(session=session, user=u).status for u in waiting] == [
        WaitlistStatus.BOOKED,
        WaitlistStatus.BOOKED,
        WaitlistStatus.WAITING,
        WaitlistStatus.WAITING,
        WaitlistStatus.WAITING,
    ]
