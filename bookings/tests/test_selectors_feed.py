"""The member's feed overlay (bookings/selectors/feed.py) finds the member's reservations that take a seat
(`active_reservations_q`: confirmed, or held and not lapsed) on the sessions the feed shows, those overlapping its
range, in one query, on SQLite and on PostgreSQL."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import Reservation, ReservationStatus
from bookings.selectors.feed import member_reservations_in_range
from bookings.services.availability import active_reservations_q
from bookings.tests.factories import ReservationFactory
from courses.models import CourseSession
from courses.tests.factories import CourseSessionFactory

pytestmark = [pytest.mark.django_db, pytest.mark.database]


def orm_definition(*, user, session_ids, now):
    rows = (
        Reservation.objects.filter(active_reservations_q(now), user=user)
        .filter(session_id__in=session_ids)
        .values_list("session_id", "pk", "status", "participants")
    )
    return {sid: {"id": pk, "status": status, "participants": n} for sid, pk, status, n in rows}


def test_the_overlay_is_the_orm_definition_on_every_kind_of_reservation():
    now = timezone.now().replace(microsecond=0)
    start, end = now + timedelta(days=1), now + timedelta(days=8)
    member, other = UserFactory(), UserFactory()

    def session(at):
        return CourseSessionFactory(start=at, end=at + timedelta(minutes=75))

    inside = [session(start + timedelta(days=d)) for d in range(6)]
    confirmed = ReservationFactory(session=inside[0], user=member, participants=3)
    live_hold = ReservationFactory(session=inside[1], user=member, held=True)
    ReservationFactory(
        session=inside[2], user=member, status=ReservationStatus.HELD, hold_expires_at=now - timedelta(seconds=1)
    )
    ReservationFactory(session=inside[3], user=member, status=ReservationStatus.CANCELLED)
    ReservationFactory(session=inside[4], user=member, status=ReservationStatus.EXPIRED)
    ReservationFactory(session=inside[5], user=other)
    # A class that began before the range and ends inside it overlaps; one ending at the range's start does not.
    overlapping = ReservationFactory(
        session=CourseSessionFactory(start=start - timedelta(minutes=30), end=start + timedelta(minutes=45)),
        user=member,
    )
    ReservationFactory(session=CourseSessionFactory(start=start - timedelta(hours=2), end=start), user=member)
    ReservationFactory(session=session(end), user=member)  # starts at the range's end: outside

    # The feed's sessions: those overlapping the range (what public_feed_encoded holds).
    feed = list(CourseSession.objects.filter(start__lt=end, end__gt=start).values_list("pk", flat=True))
    with CaptureQueriesContext(connection) as queries:
        found = member_reservations_in_range(user=member, start=start, end=end, now=now)

    assert len(queries) == 1
    assert found == orm_definition(user=member, session_ids=feed, now=now)
    assert found == {
        confirmed.session_id: {"id": confirmed.pk, "status": "confirmed", "participants": 3},
        live_hold.session_id: {"id": live_hold.pk, "status": "held", "participants": 1},
        overlapping.session_id: {"id": overlapping.pk, "status": "confirmed", "participants": 1},
    }


def test_a_member_without_reservations_gets_an_empty_overlay():
    now = timezone.now()
    taken = ReservationFactory(session=CourseSessionFactory(start=now + timedelta(days=2)))
    start, end = now, now + timedelta(days=7)
    assert member_reservations_in_range(user=UserFactory(), start=start, end=end, now=now) == {}
    assert member_reservations_in_range(user=taken.user, start=start, end=end, now=now) != {}


def test_a_range_without_sessions_finds_nothing_in_the_same_one_query():
    now = timezone.now()
    member = UserFactory()
    ReservationFactory(user=member, session=CourseSessionFactory(start=now + timedelta(days=2)))
    with CaptureQueriesContext(connection) as queries:
        empty = member_reservations_in_range(
            user=member, start=now + timedelta(days=30), end=now + timedelta(days=37), now=now
        )
    assert empty == {} and len(queries) == 1
