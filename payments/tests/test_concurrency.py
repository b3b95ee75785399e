"""DECISIONS.md 14 on PostgreSQL (real row locks): however captures and webhooks race, one payment is recorded,
one reservation confirmed, one receipt sent."""

import threading

import pytest
from django.db import connection

from bookings.models import ReservationStatus
from payments import services
from payments.models import PaymentOrder, PaymentStatus
from payments.providers import SimulatorProvider

from .conftest import reservation_payload

pytestmark = pytest.mark.postgres

ROUNDS = 4


def _race(*calls):
    """Run the calls at the same moment, each on its own thread and database connection."""
    barrier = threading.Barrier(len(calls))
    errors, results = [], []

    def run(call):
        try:
            barrier.wait(timeout=10)
            results.append(call())
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors
    return results


def _receipts(mailoutbox, order_id):
    return [m for m in mailoutbox if services.RECEIPT_SUBJECT in m.subject and order_id in m.body]


def _open_order(member, reservation):
    data = reservation_payload(reservation)
    return services.payment_order_create(
        user=member,
        amount=data["amount"],
        email=data["email"],
        first_name=data["first_name"],
        last_name=data["last_name"],
        title=data["title"],
        type=data["type"],
        reservation_id=reservation.pk,
    )


def _assert_paid_once(order, reservation, mailoutbox):
    order.refresh_from_db()
    reservation.refresh_from_db()
    assert order.status == PaymentStatus.COMPLETED
    assert reservation.status == ReservationStatus.CONFIRMED
    assert PaymentOrder.objects.filter(reservation=reservation, status=PaymentStatus.COMPLETED).count() == 1
    assert len(_receipts(mailoutbox, order.order_id)) == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_concurrent_captures_pay_once_with_the_simulator(member, make_reservation, mailoutbox, round_):
    reservation = make_reservation(member)
    order = _open_order(member, reservation)
    SimulatorProvider().approve_order(order_id=order.order_id, card_declined=False)
    outcomes = _race(
        lambda: services.payment_order_capture(order_id=order.order_id, user=member),
        lambda: services.payment_order_capture(order_id=order.order_id, user=member),
    )
    assert all(o.completed for o in outcomes)
    _assert_paid_once(order, reservation, mailoutbox)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_concurrent_captures_pay_once_with_paypal(
    member, make_reservation, paypal_settings, fake_paypal, mailoutbox, round_
):
    reservation = make_reservation(member)
    order = _open_order(member, reservation)
    fake_paypal.approve(order.order_id)
    outcomes = _race(
        lambda: services.payment_order_capture(order_id=order.order_id, user=member),
        lambda: services.payment_order_capture(order_id=order.order_id, user=member),
    )
    assert all(o.completed for o in outcomes)
    _assert_paid_once(order, reservation, mailoutbox)
    assert len({c["headers"]["paypal-request-id"] for c in fake_paypal.calls("/capture")}) == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_capture_racing_the_capture_completed_webhook(
    member, make_reservation, paypal_settings, fake_paypal, mailoutbox, round_
):
    reservation = make_reservation(member)
    order = _open_order(member, reservation)
    fake_paypal.approve(order.order_id)
    event = {
        "id": f"WH-RACE-{round_}",
        "event_type": "PAYMENT.CAPTURE.COMPLETED",
        "resource": {
            "id": "CAPTURE-RACE",
            "status": "COMPLETED",
            "amount": {"currency_code": "EUR", "value": f"{order.amount:.2f}"},
            "supplementary_data": {"related_ids": {"order_id": order.order_id}},
        },
    }
    _race(
        lambda: services.payment_order_capture(order_id=order.order_id, user=member),
        lambda: services.payment_webhook_handle(event=event),
    )
    _assert_paid_once(order, reservation, mailoutbox)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_capture_racing_the_order_approved_webhook(
    member, make_reservation, paypal_settings, fake_paypal, mailoutbox, round_
):
    reservation = make_reservation(member)
    order = _open_order(member, reservation)
    fake_paypal.approve(order.order_id)
    event = {
        "id": f"WH-APPROVED-{round_}",
        "event_type": "CHECKOUT.ORDER.APPROVED",
        "resource": {"id": order.order_id, "status": "APPROVED"},
    }
    _race(
        lambda: services.payment_order_capture(order_id=order.order_id, user=member),
        lambda: services.payment_webhook_handle(event=event),
        lambda: services.payment_webhook_handle(event=event),  # PayPal delivering the same event twice at once
    )
    _assert_paid_once(order, reservation, mailoutbox)
