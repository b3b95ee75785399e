"""The full-class answer read from the cached seat state says what the plain database read says, through every
change that frees or takes a seat, and a second member's answer needs no database read."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import ReservationStatus
from bookings.models_operations import WaitlistEntry, WaitlistStatus
from bookings.services.locking import plainly_full_for
from bookings.tests.factories import ReservationFactory
from courses.models import SessionStatus
from courses.tests.factories import CourseSessionFactory


def _answer(session, member, now, settings, *, cached: bool):
    settings.SEAT_STATE_CACHE = cached
    refused = plainly_full_for(
        session_id=session.pk,
        user=member,
        participants=1,
        first_name="Emma",
        last_name="Petit",
        email=member.email,
        now=now,
    )
    if refused is None:
        return None
    return refused.message, refused.extra["waitlist_open"]


def _both(session, member, now, settings):
    cached = _answer(session, member, now, settings, cached=True)
    plain = _answer(session, member, now, settings, cached=False)
    assert cached == plain
    return cached


FULL = ("Cette session est complète.", True)


@pytest.mark.django_db
def test_the_cached_answer_follows_every_change_to_the_class(settings):
    now = timezone.now()
    session = CourseSessionFactory(max_attendees=2, start=now + timedelta(days=2))
    member, other = UserFactory(), UserFactory()
    assert _both(session, member, now, settings) is None

    taken = ReservationFactory(session=session, participants=2)
    assert _both(session, member, now, settings) == FULL
    assert _both(session, taken.user, now, settings) is None  # their own booking: the locked path answers

    taken.status = ReservationStatus.CANCELLED
    taken.save(update_fields=["status"])
    assert _both(session, member, now, settings) is None

    hold = ReservationFactory(
        session=session,
        user=other,
        participants=2,
        status=ReservationStatus.HELD,
        hold_expires_at=now + timedelta(minutes=10),
    )
    assert _both(session, member, now, settings) == FULL
    # The hold lapses with no write at all: the seats are free again at that time.
    assert _both(session, member, now + timedelta(minutes=11), settings) is None
    hold.delete()

    ReservationFactory(session=session, participants=1)
    entry = WaitlistEntry.objects.create(session=session, user=other, status=WaitlistStatus.WAITING)
    assert _both(session, member, now, settings) == FULL  # one seat left, owed to the member waiting
    entry.status = WaitlistStatus.EXPIRED
    entry.save(update_fields=["status"])
    assert _both(session, member, now, settings) is None

    ReservationFactory(session=session, participants=1)
    assert _both(session, member, now, settings) == FULL
    session.max_attendees = 3
    session.save(update_fields=["max_attendees"])
    assert _both(session, member, now, settings) is None

    session.max_attendees = 2
    session.status = SessionStatus.CANCELLED
    session.save(update_fields=["max_attendees", "status"])
    assert _both(session, member, now, settings) is None


@pytest.mark.django_db
def test_a_full_class_answers_the_next_members_without_reading_the_database(settings, django_assert_num_queries):
    settings.SEAT_STATE_CACHE = True
    now = timezone.now()
    session = CourseSessionFactory(max_attendees=1, start=now + timedelta(days=2))
    ReservationFactory(session=session)
    first, second = UserFactory(), UserFactory()
    assert _answer(session, first, now, settings, cached=True) == FULL
    with django_assert_num_queries(0):
        assert _answer(session, second, now, settings, cached=True) == FULL
