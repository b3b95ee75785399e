"""A session never takes more participants than max_attendees, under any concurrency (docs/decisions.md 13;
PostgreSQL)."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
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
            reservation = reservation_hold(
                user=user,
                session_id=session.pk,
                participants=1,
                first_name="A",
                last_name="B",
                email=user.email,
            )
            successes.append(reservation.pk)
        except ReservationError as exc:
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
    assert refusals == [MSG_SESSION_FULL] * (THREADS - 1)
    assert session_seats_taken(session=session) == session.max_attendees
    assert Reservation.objects.filter(session=session, status=ReservationStatus.HELD).count() == 1


@pytest.mark.postgres
def test_concurrent_confirmations_of_one_hold_confirm_it_once():
    session = CourseSessionFactory(max_attendees=2)
    member = UserFactory()
    held = reservation_hold(
        user=member, session_id=session.pk, participants=2, first_name="A", last_name="B", email=member.email
    )
    barrier = threading.Barrier(10)
    results = []

    def confirm():
        try:
            barrier.wait()
            results.append(reservation_confirm(reservation_id=held.pk).status)
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [ReservationStatus.CONFIRMED] * 10
    assert session_seats_taken(session=session) == 2


def _race(count, target):
    """Run `target(i)` in `count` threads released together; each thread closes its own connection."""
    barrier = threading.Barrier(count)
    results, crashes = [], []

    def run(i):
        try:
            barrier.wait()
            results.append(target(i))
        except ReservationError as exc:
            results.append(exc.message)
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            crashes.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert crashes == []
    return results


@pytest.mark.postgres
def test_two_concurrent_spends_of_the_last_credit_give_one_reservation():
    """Two sessions (so the session locks do not serialise them): only the pass's row lock stands between them."""
    member = UserFactory()
    card = PassFactory(member=member, credits_total=10, credits_left=1)
    sessions = [CourseSessionFactory(), CourseSessionFactory()]

    def spend(i):
        return reservation_book_with_pass(
            user=member,
            session_id=sessions[i].pk,
            pass_id=card.pk,
            participants=1,
            first_name="A",
            last_name="B",
            email=member.email,
        ).pk

    results = _race(2, spend)
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
    results = _race(5, lambda i: reservation_cancel(user=member, reservation_id=reservation.pk).message)
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
    results = _race(8, lambda i: payment_order_fulfil(order_id=order.order_id).completed)
    assert results == [True] * 8
    assert Pass.objects.filter(source_order=order).count() == 1
    assert Pass.objects.get().credits_left == 10


@pytest.mark.postgres
def test_staff_lowering_the_places_while_members_reserve_never_leaves_more_seats_taken_than_places():
    """The staff's change counts the seats under the session lock the holds take first (courses' write, bookings'
    count): either the places drop before the holds, which then stop at them, or the change is refused."""
    session = CourseSessionFactory(max_attendees=10)
    ReservationFactory(session=session, participants=2)
    members = [UserFactory() for _ in range(20)]
    barrier = threading.Barrier(len(members) + 1)
    holds, changes, crashes = [], [], []

    def reserve(user):
        try:
            barrier.wait()
            reservation_hold(
                user=user, session_id=session.pk, participants=1, first_name="A", last_name="B", email=user.email
            )
            holds.append(user.pk)
        except ReservationError:
            pass
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            crashes.append(repr(exc))
        finally:
            connection.close()

    def lower_places():
        try:
            barrier.wait()
            course_session_update(
                session_id=session.pk,
                course_id=session.course_id,
                start=session.start,
                instructor_id=session.instructor_id,
                max_attendees=4,
            )
            changes.append("lowered")
        except SessionWriteError as exc:
            changes.append(exc.code)
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            crashes.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=reserve, args=(user,)) for user in members]
    threads.append(threading.Thread(target=lower_places))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert crashes == []
    session.refresh_from_db()
    assert session_seats_taken(session=session) <= session.max_attendees
    if changes == ["lowered"]:
        assert session.max_attendees == 4 and len(holds) == 2
    else:
        assert changes == ["max_below_taken"] and session.max_attendees == 10 and len(holds) == 8


@pytest.mark.postgres
@pytest.mark.parametrize("round_", range(3))
def test_two_cards_of_a_capped_tariff_booking_at_once_hold_the_cap(round_):
    """Each booking locks only the pass it spends, so two passes of one tariff capped at one future booking would
    both see none held: the cap is counted under one lock per member and tariff."""
    member = UserFactory()
    tariff = TariffFactory(title="Carte découverte", pass_credits=5, pass_validity_months=2, max_future_bookings=1)
    cards = [PassFactory(member=member, tariff=tariff, title="Carte découverte") for _ in range(2)]
    sessions = [CourseSessionFactory(start=timezone.now() + timedelta(days=day)) for day in (3, 4)]
    barrier = threading.Barrier(2)
    outcomes = []

    def book(session, card):
        try:
            barrier.wait(timeout=20)
            outcomes.append(
                reservation_book_with_pass(
                    user=member,
                    session_id=session.pk,
                    pass_id=card.pk,
                    participants=1,
                    first_name="E",
                    last_name="P",
                    email=member.email,
                )  # fmt: skip
            )
        except ReservationError as exc:
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=book, args=pair) for pair in zip(sessions, cards, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    refused = [o for o in outcomes if isinstance(o, ReservationError)]
    assert len(outcomes) == 2 and len(refused) == 1, outcomes
    assert refused[0].message == MSG_PASS_FUTURE_CAP.format(cap=1, title="Carte découverte")
    assert Reservation.objects.filter(user=member, status=ReservationStatus.CONFIRMED).count() == 1
