"""Class cancellation on PostgreSQL (real row locks): a class cancellation racing a booking with a class card and the
capture of another member's card payment on the same class ends with no confirmed booking, every card payment refunded
exactly once, and every credit back on its card, whatever the order the three land in."""

import threading

import pytest
from django.db import connection

from bookings.models import ReservationStatus
from bookings.services.class_cancellation import course_session_cancel
from bookings.services.passes import reservation_book_with_pass
from bookings.tests.factories import PassFactory
from courses.tests.factories import CourseSessionFactory
from payments.models import PaymentOrder, PaymentStatus, SimulatedProviderOrder
from payments.services.capture import payment_order_capture
from payments.services.class_refunds import payment_orders_refund_cancelled_class
from payments.simulator import SimulatorProvider

from .conftest import open_reservation_order

pytestmark = pytest.mark.postgres

ROUNDS = 4


def _race(*calls):
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait(timeout=10)
            results[index] = call()
        except Exception as exc:  # noqa: BLE001 - refusals are expected, checked through the database
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_cancel_racing_a_booking_and_a_capture(member, other_member, make_reservation, round_):
    session = CourseSessionFactory()
    held = make_reservation(member, participants=1, session=session)
    order = open_reservation_order(member, held)
    SimulatorProvider().approve_order(order_id=order.order_id, card_declined=False)
    card = PassFactory(member=other_member, credits_total=10)

    results = _race(
        lambda: course_session_cancel(session_id=session.pk, reason="Salle inondée"),
        lambda: payment_order_capture(order_id=order.order_id, user=member),
        lambda: reservation_book_with_pass(
            user=other_member,
            session_id=session.pk,
            pass_id=card.pk,
            participants=1,
            first_name=other_member.first_name,
            last_name=other_member.last_name,
            email=other_member.email,
        ),
    )
    assert not isinstance(results[0], Exception), results[0]  # the cancellation never fails
    payment_orders_refund_cancelled_class()  # what the periodic job does (the immediate task ran it already)

    session.refresh_from_db()
    assert session.status == "cancelled"
    assert not session.reservations.filter(status__in=[ReservationStatus.CONFIRMED, ReservationStatus.HELD]).exists()
    order.refresh_from_db()
    assert order.status == PaymentStatus.REFUNDED and order.refund_id
    simulated = SimulatedProviderOrder.objects.get(order_id=order.order_id)
    assert simulated.capture_id and simulated.refund_id == order.refund_id  # captured, then refunded once
    assert PaymentOrder.objects.filter(reservation__session=session, status=PaymentStatus.COMPLETED).count() == 0
    card.refresh_from_db()
    assert card.credits_left == 10
