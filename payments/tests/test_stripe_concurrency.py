"""Stripe's one-off payments on PostgreSQL (real row locks, docs/architecture.md "Lock order"): however the member's
tabs, Stripe's webhook, a class cancellation and the refund sweep race, a payment is applied once, a booking
confirmed once, and money going back is refunded once at Stripe."""

import pytest

from bookings.models import ReservationStatus
from bookings.services.class_cancellation import course_session_cancel
from payments.models import PaymentOrder, PaymentStatus, PaymentWebhookEvent
from payments.services.class_refunds import payment_orders_refund_cancelled_class
from payments.services.refunds import REFUND_SUBJECT, payment_refunds_retry
from payments.services.stripe_payments import stripe_payment_complete
from payments.services.stripe_webhooks import stripe_webhook_receive

from .stripe_checkout_helpers import last_event, open_stripe_order, signed
from .test_concurrency import _assert_paid_once, _race, _race_all

pytestmark = pytest.mark.postgres

ROUNDS = 3


def _refunds_at_stripe(fake, order):
    return [r for r in fake.objects.refunds.values() if r["payment_intent"] == order.order_id]


def _refund_mails(mailoutbox, order):
    return [m for m in mailoutbox if REFUND_SUBJECT in m.subject and order.email in m.to]


def _deliver(event):
    payload, signature = signed(event)
    return lambda: stripe_webhook_receive(payload=payload, signature=signature)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_tabs_completing_one_hold_pay_once(
    member, make_reservation, stripe_settings, fake_stripe, mailoutbox, round_
):
    reservation = make_reservation(member)
    order = open_stripe_order(member, reservation)
    fake_stripe.pay(order.order_id, payment_method="pm_card_visa")
    outcomes = _race(
        lambda: stripe_payment_complete(order_id=order.order_id, user=member),
        lambda: stripe_payment_complete(order_id=order.order_id, user=member),
    )
    assert all(o.completed for o in outcomes)
    _assert_paid_once(order, reservation, mailoutbox)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_the_succeeded_webhook_racing_complete_payment_is_applied_once(
    member, make_reservation, stripe_settings, fake_stripe, mailoutbox, round_
):
    reservation = make_reservation(member)
    order = open_stripe_order(member, reservation)
    fake_stripe.pay(order.order_id, payment_method="pm_card_visa")
    event = last_event(fake_stripe, "payment_intent.succeeded", order.order_id)
    _race(
        lambda: stripe_payment_complete(order_id=order.order_id, user=member),
        _deliver(event),
        _deliver(event),  # Stripe delivering the same event twice at once
    )
    _assert_paid_once(order, reservation, mailoutbox)
    assert PaymentWebhookEvent.objects.filter(event_id=event["id"]).count() == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_class_cancelled_while_the_member_pays_is_refunded_once(
    member, make_reservation, stripe_settings, fake_stripe, mailoutbox, round_
):
    """The member's completion, Stripe's webhook and the studio's cancellation of the class at the same moment:
    whichever comes first, the money is refunded once at Stripe, the member told once."""
    reservation = make_reservation(member, participants=1)
    order = open_stripe_order(member, reservation)
    fake_stripe.pay(order.order_id, payment_method="pm_card_visa")
    event = last_event(fake_stripe, "payment_intent.succeeded", order.order_id)
    _race_all(
        [
            lambda: stripe_payment_complete(order_id=order.order_id, user=member),
            _deliver(event),
            lambda: course_session_cancel(session_id=reservation.session_id, reason="Professeure malade."),
        ]
    )
    # The sweeps that catch a lost task, racing each other.
    _race(payment_orders_refund_cancelled_class, payment_refunds_retry)
    order.refresh_from_db()
    reservation.refresh_from_db()
    assert order.status == PaymentStatus.REFUNDED
    assert reservation.status == ReservationStatus.CANCELLED
    assert len(_refunds_at_stripe(fake_stripe, order)) == 1
    assert len(_refund_mails(mailoutbox, order)) == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_refunds_racing_for_a_payment_that_bought_nothing_refund_once(
    member, make_reservation, stripe_settings, fake_stripe, mailoutbox, round_
):
    """The member cancelled the booking, then the payment went through: two tabs, two deliveries of the webhook and
    the retry job all try to give the money back."""
    reservation = make_reservation(member, participants=1)
    order = open_stripe_order(member, reservation)
    fake_stripe.pay(order.order_id, payment_method="pm_card_visa")
    reservation.status = ReservationStatus.CANCELLED
    reservation.save(update_fields=["status"])
    event = last_event(fake_stripe, "payment_intent.succeeded", order.order_id)
    _race_all(
        [
            lambda: stripe_payment_complete(order_id=order.order_id, user=member),
            lambda: stripe_payment_complete(order_id=order.order_id, user=member),
            _deliver(event),
            _deliver(event),
            payment_refunds_retry,
        ]
    )
    order.refresh_from_db()
    assert order.status == PaymentStatus.REFUNDED
    assert PaymentOrder.objects.filter(reservation=reservation, status=PaymentStatus.COMPLETED).count() == 0
    assert len(_refunds_at_stripe(fake_stripe, order)) == 1
    assert len(_refund_mails(mailoutbox, order)) == 1
