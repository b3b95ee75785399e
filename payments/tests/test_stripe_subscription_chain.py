"""A monthly plan through Stripe, from the mandate to the second period, on the server against the fake Stripe: the
member accepts a SEPA mandate (SetupIntent), pays the first period by card, the scheduler debits the second off-session
("processing"), and Stripe's webhook settles it, paid or returned."""

from decimal import Decimal

import pytest
from freezegun import freeze_time

from bookings.services.passes import add_months
from courses.tests.factories import TariffFactory
from payments.subscriptions.models import ChargeStatus, Subscription, SubscriptionStatus
from payments.subscriptions.services.lifecycle import subscription_charges_run

from .conftest import after_commit, tariff_payload
from .stripe_checkout_helpers import post_event

pytestmark = pytest.mark.django_db

PAID_IBAN = "FR1420041010050500013M02606"
RETURNED_IBAN = "FR8420041010050500013M02607"


def second_period_debited(api_client, member, fake_stripe, iban):
    tariff = TariffFactory(
        type="abonnement",
        price=Decimal("55.00"),
        frequency="par mois",
        validity="12 mois",
        pass_unlimited=True,
        pass_validity_months=12,
    )
    api_client.force_authenticate(member)
    setup = api_client.post("/api/subscriptions/method/stripe/setup", {"kind": "sepa_debit"}, format="json").json()
    fake_stripe.save(setup["setupIntentId"], iban=iban)
    saved = api_client.post(
        "/api/subscriptions/method/stripe/complete", {"setupIntentId": setup["setupIntentId"]}, format="json"
    )
    assert saved.status_code == 200
    payload = tariff_payload(tariff, member, provider="stripe")
    order_id = api_client.post("/api/paypal/create-order", payload, format="json").json()["id"]
    fake_stripe.pay(order_id, payment_method="pm_card_visa")
    with after_commit():
        assert api_client.post("/api/stripe/complete-payment", {"orderId": order_id}, format="json").status_code == 200
    subscription = Subscription.objects.get()
    assert subscription.provider == "stripe" and subscription.saved_method.kind == "sepa_debit"
    subscription_charges_run(as_of=add_months(subscription.starts_on, 1))
    charge = subscription.charges.get(period=2)
    assert charge.status == ChargeStatus.PROCESSING
    assert charge.amount == Decimal("55.00")
    return charge


@freeze_time("2030-01-10 10:00:00")
def test_the_second_period_debited_by_sepa_is_paid_when_stripe_says_it_succeeded(
    api_client, client, member, stripe_settings, fake_stripe
):
    charge = second_period_debited(api_client, member, fake_stripe, PAID_IBAN)
    fake_stripe.settle_sepa(charge.provider_reference)
    event = fake_stripe.events_of("payment_intent.succeeded")[-1]
    with after_commit():
        assert post_event(client, event).status_code == 200
        assert post_event(client, event).status_code == 200  # Stripe delivers again: applied once
    charge.refresh_from_db()
    assert charge.status == ChargeStatus.PAID


@freeze_time("2030-01-10 10:00:00")
def test_a_returned_sepa_debit_leaves_the_period_unpaid(api_client, client, member, stripe_settings, fake_stripe):
    charge = second_period_debited(api_client, member, fake_stripe, RETURNED_IBAN)
    fake_stripe.settle_sepa(charge.provider_reference)
    event = fake_stripe.events_of("payment_intent.payment_failed")[-1]
    with after_commit():
        assert post_event(client, event).status_code == 200
    charge.refresh_from_db()
    assert charge.status == ChargeStatus.FAILED and charge.next_attempt_on is not None
    assert charge.subscription.charges.filter(status=ChargeStatus.PAID).count() == 1
    charge.subscription.refresh_from_db()
    assert charge.subscription.status == SubscriptionStatus.UNPAID
