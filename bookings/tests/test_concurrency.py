"""A session never takes more participants than max_attendees, under any concurrency (docs/decisions.md 13;
PostgreSQL)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import Pass, Reservation, ReservationStatus
from bookings.services.availability import session_seats_taken
from bookings.services.cancellation import MSG_CANCEL_NOT_CONFIRMED, reservation_cancel
from bookings.services.common import MSG_SESSION_FULL, ReservationError
from bookings.services.pass_rules import MSG_PASS_FUTURE_CAP
from bookings.services.passes import MSG_PASS_NO_CREDITS, reservation_book_with_pass
from bookings.services.reservations import reservation_confirm, reservation_hold
from bookings.services.session_places import course_session_update
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.services.sessions import SessionWriteError
from courses.tests.factories import CourseSessionFactory, TariffFactory
from studio.tests.races import race

THREADS = 60


@pytest.mark.postgres
def test_one_seat_left_and_sixty_members_reserving_at_once():
    session = CourseSessionFactory(max_attendees=5)
    ReservationFactory(session=session, participants=4)  # one seat left

    def reserve(user):
        return lambda: (
            reservation_hold(
                user=user,
                session_id=session.pk,
                participants=1,
                first_name="A",
                last_name="B",
                email=user.email,
            ).pk
        )

    successes, refusals, crashes = race(*(reserve(UserFactory()) for _ in range(THREADS)))

    assert crashes == []
    assert len(successes) == 1
    assert [refusal.message for refusal in refusals] == [MSG_SESSION_FULL] * (THREADS - 1)
    assert all(isinstance(refusal, ReservationError) for refusal in refusals)
    assert session_seats_taken(session=session) == session.max_attendees
    assert Reservation.objects.filter(session=session, status=ReservationStatus.HELD).count() == 1


@pytest.mark.postgres
def test_concurrent_confirmations_of_one_hold_confirm_it_once():
    session = CourseSessionFactory(max_attendees=2)
    member = UserFactory()
    held = reservation_hold(
        user=member, session_id=session.pk, participants=2, first_name="A", last_name="B", email=member.email
    )

    def confirm():
        return reservation_confirm(reservation_id=held.pk).status

    results, refusals, crashes = race(*[confirm] * 10)
    assert refusals == [] and crashes == []
    assert results == [ReservationStatus.CONFIRMED] * 10
    assert session_seats_taken(session=session) == 2


def _outcomes(*calls):
    """Race the calls: what each returned or, for a refused booking, its French message. Only a booking's refusal is
    an outcome; anything else raised fails the test."""
    results, refusals, crashes = race(*calls)
    assert crashes == []
    assert all(isinstance(refusal, ReservationError) for refusal in refusals), refusals
    return results + [refusal.message for refusal in refusals]


@pytest.mark.postgres
def test_two_concurrent_spends_of_the_last_credit_give_one_reservation():
    """Two sessions (so the session locks do not serialise them): only the pass's row lock stands between them."""
    member = UserFactory()
    card = PassFactory(member=member, credits_total=10, credits_left=1)
    sessions = [CourseSessionFactory(), CourseSessionFactory()]

    def spend(session):
        return lambda: (
            reservation_book_with_pass(
                user=member,
                session_id=session.pk,
                pass_id=card.pk,
                participants=1,
                first_name="A",
                last_name="B",
                email=member.email,
            ).pk
        )

    results = _outcomes(*(spend(session) for session in sessions))
    assert MSG_PASS_NO_CREDITS in results
    assert sum(isinstance(r, int) for r in results) == 1
    card.refresh_from_db()
    assert card.credits_left == 0
    assert Reservation.objects.filter(paid_with_pass=card, status=ReservationStatus.CONFIRMED).count() == 1


@pytest.mark.postgres
def test_concurrent_cancellations_return_the_credit_once():
    member = UserFactory()
    card = PassFactory(member=member)
    session = CourseSessionFactory(start=timezone.now() + timedelta(days=3))
    reservation = reservation_book_with_pass(
        user=member,
        session_id=session.pk,
        pass_id=card.pk,
        participants=2,
        first_name="A",
        last_name="B",
        email="a@b.fr",
    )
    results = _outcomes(*[lambda: reservation_cancel(user=member, reservation_id=reservation.pk).message] * 5)
    assert results.count(MSG_CANCEL_NOT_CONFIRMED) == 4
    card.refresh_from_db()
    assert card.credits_left == 10


@pytest.mark.postgres
def test_concurrent_captures_of_a_card_order_grant_one_pass():
    from payments.models import PaymentOrder, PaymentStatus
    from payments.services.capture import payment_order_fulfil

    member = UserFactory()
    tariff = TariffFactory(title="Carte 10 cours", type="forfait", pass_credits=10, pass_validity_months=6)
    order = PaymentOrder.objects.create(
        order_id="RACE-1",
        provider="simulator",
        user=member,
        email=member.email,
        title=tariff.title,
        amount=tariff.price,
        date="2030-01-01",
        tariff=tariff,
        status=PaymentStatus.APPROVED,
    )
    results = _outcomes(*[lambda: payment_order_fulfil(order_id=order.order_id).completed] * 8)
    assert results == [True] * 8
    assert Pass.objects.filter(source_order=order).count() == 1
    assert Pass.objects.get().credits_left == 10


@pytest.mark.postgres
def test_staff_lowering_the_places_while_members_reserve_never_leaves_more_seats_taken_than_places():
    """The staff's change counts the seats under the session lock the holds take first (courses' write, bookings'
    count): either the places drop before the holds, which then stop at them, or the change is refused."""
    session = CourseSessionFactory(max_attendees=10)
    ReservationFactory(session=session, participants=2)

    def reserve(user):
        def hold():
            reservation_hold(
                user=user, session_id=session.pk, participants=1, first_name="A", last_name="B", email=user.email
            )
            return "held"

        return hold

    def lower_places():
        # The change answers with its own refusal's code, so that every refusal race() collects is a hold's.
        try:
            course_session_update(
                session_id=session.pk,
                course_id=session.course_id,
                start=session.start,
                instructor_id=session.instructor_id,
                max_attendees=4,
            )
        except SessionWriteError as exc:
            return exc.code
        return "lowered"

    results, refusals, crashes = race(*(reserve(UserFactory()) for _ in range(20)), lower_places)

    assert crashes == []
    assert all(isinstance(refusal, ReservationError) for refusal in refusals), refusals  # refused holds only
    holds = results.count("held")
    changes = [result for result in results if result != "held"]
    session.refresh_from_db()
    assert session_seats_taken(session=session) <= session.max_attendees
    if changes == ["lowered"]:
        assert session.max_attendees == 4 and holds == 2
    else:
        assert changes == ["max_below_taken"] and session.max_attendees == 10 and holds == 8


@pytest.mark.postgres
@pytest.mark.parametrize("round_", range(3))
def test_two_cards_of_a_capped_tariff_booking_at_once_hold_the_cap(round_):
    """Each booking locks only the pass it spends, so two passes of one tariff capped at one future booking would
    both see none held: the cap is counted under one lock per member and tariff."""
    member = UserFactory()
    tariff = TariffFactory(title="Carte découverte", pass_credits=5, pass_validity_months=2, max_future_bookings=1)
    cards = [PassFactory(member=member, tariff=tariff, title="Carte découverte") for _ in range(2)]
    sessions = [CourseSessionFactory(start=timezone.now() + timedelta(days=day)) for day in (3, 4)]

    def book(session, card):
        return lambda: reservation_book_with_pass(
            user=member,
            session_id=session.pk,
            pass_id=card.pk,
            participants=1,
            first_name="E",
            last_name="P",
            email=member.email,
        )

    booked, refused, crashes = race(*(book(*pair) for pair in zip(sessions, cards, strict=True)))
    assert crashes == []
    assert len(booked) == 1 and len(refused) == 1, (booked, refused)
    assert isinstance(refused[0], ReservationError)
    assert refused[0].message == MSG_PASS_FUTURE_CAP.format(cap=1, title="Carte découverte")
    assert Reservation.objects.filter(user=member, status=ReservationStatus.CONFIRMED).count() == 1
