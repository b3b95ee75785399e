"""docs/decisions.md 14 on PostgreSQL (real row locks): however captures and webhooks race, one payment is recorded,
one reservation confirmed, one receipt sent."""

import pytest

from bookings.models import ReservationStatus
from bookings.services.passes import reservation_book_with_pass
from bookings.services.reservations import reservation_hold
from payments.models import PaymentOrder, PaymentStatus, SimulatedProviderOrder
from payments.providers import get_provider
from payments.services.capture import payment_order_cancel, payment_order_capture, simulator_order_approve
from payments.services.common import PaymentError
from payments.services.receipts import RECEIPT_SUBJECT
from payments.services.webhooks import payment_webhook_handle
from payments.simulator import SimulatorProvider
from studio.tests.races import outcomes, race, run_together

from .conftest import open_reservation_order

pytestmark = pytest.mark.postgres

ROUNDS = 4


def _race(*calls):
    """Run the calls at once; each must succeed: what they returned."""
    results, refusals, crashes = race(*calls)
    assert not refusals and not crashes, (refusals, crashes)
    return results


def _race_all(calls):
    """Run the calls at once; a refused request is an outcome here, not a test failure: one outcome per call."""
    return outcomes(*calls)


def _receipts(mailoutbox, order_id):
    return [m for m in mailoutbox if RECEIPT_SUBJECT in m.subject and order_id in m.body]


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
    order = open_reservation_order(member, reservation)
    SimulatorProvider().approve_order(order_id=order.order_id, card_declined=False)
    outcomes, refusals, crashes = race(
        lambda: payment_order_capture(order_id=order.order_id, user=member),
        lambda: payment_order_capture(order_id=order.order_id, user=member),
    )
    assert refusals == [] and crashes == []
    assert all(o.completed for o in outcomes)
    _assert_paid_once(order, reservation, mailoutbox)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_concurrent_captures_pay_once_with_paypal(
    member, make_reservation, paypal_settings, fake_paypal, mailoutbox, round_
):
    reservation = make_reservation(member)
    order = open_reservation_order(member, reservation)
    fake_paypal.approve(order.order_id)
    outcomes, refusals, crashes = race(
        lambda: payment_order_capture(order_id=order.order_id, user=member),
        lambda: payment_order_capture(order_id=order.order_id, user=member),
    )
    assert refusals == [] and crashes == []
    assert all(o.completed for o in outcomes)
    _assert_paid_once(order, reservation, mailoutbox)
    assert len({c["headers"]["paypal-request-id"] for c in fake_paypal.calls("/capture")}) == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_capture_racing_the_capture_completed_webhook(
    member, make_reservation, paypal_settings, fake_paypal, mailoutbox, round_
):
    reservation = make_reservation(member)
    order = open_reservation_order(member, reservation)
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
    errors = run_together(
        lambda: payment_order_capture(order_id=order.order_id, user=member),
        lambda: payment_webhook_handle(event=event),
    )
    assert errors == []
    _assert_paid_once(order, reservation, mailoutbox)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_capture_racing_the_order_approved_webhook(
    member, make_reservation, paypal_settings, fake_paypal, mailoutbox, round_
):
    reservation = make_reservation(member)
    order = open_reservation_order(member, reservation)
    fake_paypal.approve(order.order_id)
    event = {
        "id": f"WH-APPROVED-{round_}",
        "event_type": "CHECKOUT.ORDER.APPROVED",
        "resource": {"id": order.order_id, "status": "APPROVED"},
    }
    errors = run_together(
        lambda: payment_order_capture(order_id=order.order_id, user=member),
        lambda: payment_webhook_handle(event=event),
        lambda: payment_webhook_handle(event=event),  # PayPal delivering the same event twice at once
    )
    assert errors == []
    _assert_paid_once(order, reservation, mailoutbox)


# --- What is confirmed equals what was paid, under races (docs/decisions.md 14) -----------------------------------

MANY = 20


def _captured_and_kept(reservation) -> list[SimulatedProviderOrder]:
    """The simulator's captures for this reservation's orders that were not refunded: the money the studio keeps."""
    order_ids = PaymentOrder.objects.filter(reservation=reservation).values_list("order_id", flat=True)
    return list(
        SimulatedProviderOrder.objects.filter(order_id__in=list(order_ids), capture_status="COMPLETED", refund_id="")
    )


def test_twenty_tabs_paying_one_hold_at_once_pay_once(member, make_reservation):
    """Each tab opens an order, approves it and captures it, all at the same moment: one order, one payment."""
    reservation = make_reservation(member, participants=1)

    def pay():
        order = open_reservation_order(member, reservation)
        try:
            simulator_order_approve(order_id=order.order_id, user=member, card_declined=False)
        except PaymentError:
            pass  # another tab captured it first: the order is no longer open
        return payment_order_capture(order_id=order.order_id, user=member)

    race(*[pay] * MANY)  # a refused or failed request is an outcome here
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    assert PaymentOrder.objects.filter(reservation=reservation, status=PaymentStatus.COMPLETED).count() == 1
    assert len(_captured_and_kept(reservation)) == 1


def test_twenty_captures_of_two_orders_on_one_reservation_keep_one_payment(
    member, make_reservation, paypal_settings, fake_paypal, mailoutbox
):
    """Order A was cancelled by the buyer, B opened; yet PayPal captured A too. Ten deliveries of A's capture race
    ten browser captures of B: B is kept, A refunded once."""
    reservation = make_reservation(member, participants=1)
    order_a = open_reservation_order(member, reservation)
    payment_order_cancel(order_id=order_a.order_id, user=member)
    order_b = open_reservation_order(member, reservation)
    assert order_b.order_id != order_a.order_id
    fake_paypal.approve(order_a.order_id)
    fake_paypal.approve(order_b.order_id)
    captured_a = get_provider().capture_order(order_id=order_a.order_id, request_id="paypal-side")

    def a_capture_event(n):
        return {
            "id": f"WH-A-{n}",
            "event_type": "PAYMENT.CAPTURE.COMPLETED",
            "resource": {
                "id": captured_a.capture_id,
                "status": "COMPLETED",
                "amount": {"currency_code": "EUR", "value": f"{order_a.amount:.2f}"},
                "supplementary_data": {"related_ids": {"order_id": order_a.order_id}},
            },
        }

    calls = []
    for n in range(MANY // 2):
        calls.append(lambda n=n: payment_webhook_handle(event=a_capture_event(n)))
        calls.append(lambda: payment_order_capture(order_id=order_b.order_id, user=member))
    race(*calls)  # a refused or failed request is an outcome here

    order_a.refresh_from_db()
    order_b.refresh_from_db()
    reservation.refresh_from_db()
    assert order_b.status == PaymentStatus.COMPLETED
    assert order_a.status == PaymentStatus.REFUNDED and order_a.refund_id
    assert reservation.status == ReservationStatus.CONFIRMED
    assert len(fake_paypal.refunds) == 1 and captured_a.capture_id in fake_paypal.refunds
    assert len({c["headers"]["paypal-request-id"] for c in fake_paypal.calls("/refund")}) == 1
    assert len(_receipts(mailoutbox, order_b.order_id)) == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_pass_booking_racing_a_card_capture_pays_once(member, make_reservation, round_):
    from bookings.tests.factories import PassFactory

    card = PassFactory(member=member, credits_total=10)
    reservation = make_reservation(member, participants=1)
    order = open_reservation_order(member, reservation)
    SimulatorProvider().approve_order(order_id=order.order_id, card_declined=False)

    def book_with_pass():
        return reservation_book_with_pass(
            user=member,
            session_id=reservation.session_id,
            pass_id=card.pk,
            participants=1,
            first_name=member.first_name,
            last_name=member.last_name,
            email=member.email,
        )

    # A refused or failed request is an outcome here.
    race(lambda: payment_order_capture(order_id=order.order_id, user=member), book_with_pass)
    card.refresh_from_db()
    order.refresh_from_db()
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    paid_by_card = order.status == PaymentStatus.COMPLETED
    paid_by_pass = card.credits_left == 9
    assert paid_by_card != paid_by_pass  # exactly one of the two
    assert len(_captured_and_kept(reservation)) == (1 if paid_by_card else 0)
    assert reservation.paid_with_pass_id == (None if paid_by_card else card.pk)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_growing_the_hold_racing_its_capture_never_confirms_unpaid_seats(member, make_reservation, round_):
    reservation = make_reservation(member, participants=1)
    order = open_reservation_order(member, reservation)
    SimulatorProvider().approve_order(order_id=order.order_id, card_declined=False)

    def grow():
        return reservation_hold(
            user=member,
            session_id=reservation.session_id,
            participants=5,
            first_name=member.first_name,
            last_name=member.last_name,
            email=member.email,
        )

    # A refused or failed request is an outcome here.
    race(lambda: payment_order_capture(order_id=order.order_id, user=member), grow)
    reservation.refresh_from_db()
    order.refresh_from_db()
    assert reservation.participants == 1
    if reservation.status == ReservationStatus.CONFIRMED:
        assert order.status == PaymentStatus.COMPLETED and order.amount == reservation.total_amount
    else:
        assert order.status != PaymentStatus.COMPLETED
