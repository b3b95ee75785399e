"""The front desk under concurrency (PostgreSQL, real row locks, threads): a seat is given once whoever books it
(docs/decisions.md 13, 50), and a desk sale submitted twice records one order, one pass and one invoice
(docs/decisions.md 43)."""

import uuid
from decimal import Decimal

import pytest

from accounts.tests.factories import StaffFactory, UserFactory
from bookings.models import Pass, Reservation, ReservationStatus
from bookings.services.availability import session_seats_taken
from bookings.services.common import MSG_ALREADY_RESERVED, MSG_SESSION_FULL
from bookings.services.passes import reservation_book_with_pass
from bookings.tests.factories import PassFactory
from courses.tests.factories import CourseSessionFactory, TariffFactory
from invoices.models import Invoice
from payments.models import DeskPaymentLine, PaymentOrder
from payments.services.desk import DeskLine, desk_booking_record, desk_sale_record
from studio.tests.races import race


def _race(*calls):
    """Run the calls at once, each in its own thread and connection: (results, French refusals, crashes)."""
    results, refusals, crashes = race(*calls)
    return results, [refusal.message for refusal in refusals], crashes


def _books_herself(member, card, session):
    """The member's own booking of one seat with her card, as the calendar makes it."""
    return reservation_book_with_pass(
        user=member,
        session_id=session.pk,
        pass_id=card.pk,
        participants=1,
        first_name="Emma",
        last_name="Petit",
        email=member.email,
    )


@pytest.mark.postgres
def test_two_staff_booking_the_last_seat_at_once_give_one_seat():
    session = CourseSessionFactory(max_attendees=1, price_per_participant=Decimal("25.00"))
    first, second = StaffFactory(), StaffFactory()
    emma, lucie = UserFactory(), UserFactory()

    def book(staff, member, paid_with):
        lines = [DeskLine(means="cash", amount=Decimal("25.00"))] if paid_with == "desk" else None
        return lambda: desk_booking_record(
            staff=staff,
            member_id=member.pk,
            session_id=session.pk,
            participants=1,
            paid_with=paid_with,
            lines=lines,
            idempotency_key=uuid.uuid4(),
        )

    results, refusals, crashes = _race(book(first, emma, "due"), book(second, lucie, "desk"))
    assert crashes == []
    assert len(results) == 1 and refusals == [MSG_SESSION_FULL]
    assert session_seats_taken(session=session) == 1
    assert Reservation.objects.filter(session=session, status=ReservationStatus.CONFIRMED).count() == 1
    # A refused desk booking leaves no sale behind.
    assert PaymentOrder.objects.count() == Invoice.objects.count() == (1 if results[0].user_id == lucie.pk else 0)


@pytest.mark.postgres
def test_a_desk_booking_racing_the_members_own_booking_gives_one_seat():
    session = CourseSessionFactory(max_attendees=1)
    staff, member, other = StaffFactory(), UserFactory(), UserFactory()
    card = PassFactory(member=member)

    def own():
        return _books_herself(member, card, session)

    def desk():
        return desk_booking_record(
            staff=staff, member_id=other.pk, session_id=session.pk, participants=1, paid_with="pass"
        )

    PassFactory(member=other)
    results, refusals, crashes = _race(own, desk)
    assert crashes == []
    assert len(results) == 1 and refusals == [MSG_SESSION_FULL]
    assert session_seats_taken(session=session) == 1
    spent = sum(10 - p.credits_left for p in Pass.objects.all())
    assert spent == 1  # the refused booking spent no credit


@pytest.mark.postgres
def test_the_same_desk_sale_submitted_twice_at_once_is_recorded_once():
    staff, member = StaffFactory(), UserFactory()
    tariff = TariffFactory(price=Decimal("190.00"), pass_credits=10, pass_validity_months=6, title="Carte 10 cours")
    key = uuid.uuid4()
    lines = [DeskLine(means="pass_sport", amount=Decimal("50.00")), DeskLine(means="cash", amount=Decimal("140.00"))]

    def sell():
        return desk_sale_record(
            staff=staff, member_id=member.pk, tariff_id=tariff.pk, lines=lines, idempotency_key=key
        ).order_id

    results, refusals, crashes = _race(*[sell for _ in range(6)])
    assert crashes == [] and refusals == []
    assert len(set(results)) == 1 and len(results) == 6
    assert PaymentOrder.objects.count() == 1
    assert Pass.objects.filter(member=member).count() == 1
    assert Invoice.objects.count() == 1
    assert DeskPaymentLine.objects.count() == 2


@pytest.mark.postgres
def test_staff_booking_a_member_while_she_books_herself_gives_her_one_seat():
    session = CourseSessionFactory(max_attendees=10)
    staff, member = StaffFactory(), UserFactory()
    card = PassFactory(member=member)

    def own():
        return _books_herself(member, card, session)

    def desk():
        return desk_booking_record(
            staff=staff, member_id=member.pk, session_id=session.pk, participants=1, paid_with="pass"
        )

    results, refusals, crashes = _race(own, desk)
    assert crashes == []
    assert len(results) == 1 and refusals == [MSG_ALREADY_RESERVED]
    assert Reservation.objects.filter(session=session, user=member, status=ReservationStatus.CONFIRMED).count() == 1
    card.refresh_from_db()
    assert card.credits_left == 9
