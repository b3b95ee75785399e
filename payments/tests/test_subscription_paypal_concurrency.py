"""On PostgreSQL (real row locks): a PayPal subscription's period reported by the PAYMENT.SALE.COMPLETED
webhook while two schedulers read the same sale from PayPal at once is paid once: one charge row, PAID, with the
sale's id, one receipt."""

from decimal import Decimal

import pytest

from courses.tests.factories import TariffFactory
from payments.models import PaymentWebhookEvent
from payments.services.webhooks import payment_webhook_handle
from payments.subscriptions import periods
from payments.subscriptions.models import ChargeStatus, Subscription, SubscriptionCharge
from payments.subscriptions.services.lifecycle import subscription_charges_run
from payments.subscriptions.services.paypal_purchase import paypal_subscription_create
from studio.models import OutgoingEmail

from .test_concurrency import _race

pytestmark = pytest.mark.postgres

ROUNDS = 3


def _paypal_subscription(member, fake_paypal) -> tuple[str, Subscription]:
    tariff = TariffFactory(
        type="abonnement", price=Decimal("55.00"), frequency="par mois", pass_unlimited=True, pass_validity_months=12
    )
    order = paypal_subscription_create(
        user=member, tariff_id=tariff.pk, email=member.email, first_name="Emma", last_name="Petit"
    )
    for event in fake_paypal.approve_subscription(order.order_id):
        payment_webhook_handle(event=event)
    return order.order_id, Subscription.objects.get(source_order=order)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_the_sale_webhook_racing_two_schedulers_pays_the_period_once(member, paypal_settings, fake_paypal, round_):
    sub_id, subscription = _paypal_subscription(member, fake_paypal)
    due = periods.period_due_on(subscription, 2)
    sale_event = fake_paypal.bill_cycle(sub_id)  # PayPal billed period 2; its webhook and the daily job race
    outcomes = _race(
        lambda: payment_webhook_handle(event=sale_event),
        lambda: subscription_charges_run(as_of=due),
        lambda: subscription_charges_run(as_of=due),
    )
    assert len(outcomes) == 3
    charges = SubscriptionCharge.objects.filter(subscription=subscription)
    assert list(charges.values_list("period", "status")) == [(1, ChargeStatus.PAID), (2, ChargeStatus.PAID)]
    assert charges.get(period=2).provider_reference == sale_event["resource"]["id"]
    subscription.refresh_from_db()
    assert subscription.periods_paid == 2
    assert PaymentWebhookEvent.objects.filter(event_id=sale_event["id"]).count() == 1
    second = charges.get(period=2)
    receipts = OutgoingEmail.objects.filter(topic="payments.subscription_charge", topic_id=str(second.pk))
    assert receipts.count() == 1
