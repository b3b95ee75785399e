"""A period debited from a saved method, on PostgreSQL (real row locks): the scheduler and Stripe's webhook (or the
simulated bank's settling job run twice) act on the same period at once, and the period is charged once and paid
once."""

from datetime import timedelta
from decimal import Decimal

import pytest

from bookings.services.passes import add_months
from courses.tests.factories import TariffFactory
from payments.models import PaymentOrder
from payments.services.capture import payment_order_capture
from payments.services.orders import payment_order_create
from payments.signals import stripe_event_received
from payments.simulator import SimulatorProvider
from payments.stripe_events import parse_event
from payments.subscriptions.models import (
    ChargeStatus,
    SavedPaymentMethod,
    Subscription,
    SubscriptionCharge,
)
from payments.subscriptions.services.debits import simulated_debits_settle
from payments.subscriptions.services.lifecycle import subscription_charges_run
from payments.subscriptions.services.saved_methods import (
    simulated_mandate_save,
    stripe_saving_complete,
    stripe_saving_start,
)
from payments.subscriptions.simulated_debits import IBAN_SUCCEEDS

from . import fake_stripe as fs
from .test_concurrency import _race

pytestmark = pytest.mark.postgres

ROUNDS = 3


def _subscribe(member):
    tariff = TariffFactory(
        type="abonnement", price=Decimal("55.00"), frequency="par mois", pass_unlimited=True, pass_validity_months=12
    )
    order = payment_order_create(
        user=member,
        amount=Decimal("55.00"),
        email=member.email,
        first_name=member.first_name,
        last_name=member.last_name,
        title=tariff.title,
        type="abonnement",
        tariff_id=tariff.pk,
    )
    SimulatorProvider().approve_order(order_id=order.order_id, card_declined=False)
    assert payment_order_capture(order_id=order.order_id, user=member).completed
    return PaymentOrder.objects.get(pk=order.pk).subscription


@pytest.fixture
def fake():
    server = fs.FakeStripe().start()
    yield server
    server.stop()


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_the_scheduler_and_stripes_webhook_settle_a_sepa_period_once(member, settings, fake, round_):
    subscription = _subscribe(member)
    settings.STRIPE_SECRET_KEY, settings.STRIPE_PUBLISHABLE_KEY = fs.SECRET_KEY, fs.PUBLISHABLE_KEY
    settings.STRIPE_API_BASE = fake.url
    method, _secret = stripe_saving_start(user=member, kind="sepa_debit")
    fake.save(method.setup_id, iban=IBAN_SUCCEEDS)
    method = stripe_saving_complete(setup_intent_id=method.setup_id, user=member)
    Subscription.objects.filter(pk=subscription.pk).update(provider="stripe", saved_method=method)
    due = add_months(subscription.starts_on, 1)
    subscription_charges_run(as_of=due)
    charge = SubscriptionCharge.objects.get(subscription=subscription, period=2)
    assert charge.status == ChargeStatus.PROCESSING
    fake.settle_sepa(charge.provider_reference)
    event = parse_event(fake.events_of("payment_intent.succeeded")[-1])

    def webhook():
        stripe_event_received.send(sender=None, event=event)

    _race(lambda: subscription_charges_run(as_of=due + timedelta(days=3)), webhook, webhook)

    charge.refresh_from_db()
    assert (charge.status, charge.attempts) == (ChargeStatus.PAID, 1)
    assert len(fake.calls("POST", "/v1/payment_intents")) == 1
    assert Subscription.objects.get(pk=subscription.pk).periods_paid == 2


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_the_scheduler_and_two_settling_jobs_pay_a_simulated_debit_once(member, round_):
    subscription = _subscribe(member)
    method = simulated_mandate_save(user=member, iban=IBAN_SUCCEEDS, holder="Emma Petit", accepted=True)
    Subscription.objects.filter(pk=subscription.pk).update(saved_method=method)
    due = add_months(subscription.starts_on, 1)
    subscription_charges_run(as_of=due)

    outcomes = _race(
        lambda: subscription_charges_run(as_of=due + timedelta(days=3)),
        lambda: simulated_debits_settle(delay_days=0),
        lambda: simulated_debits_settle(delay_days=0),
    )

    charge = SubscriptionCharge.objects.get(subscription=subscription, period=2)
    assert (charge.status, charge.attempts) == (ChargeStatus.PAID, 1)
    assert sum(o.get("paid", 0) for o in outcomes if "returned" in o) == 1
    assert Subscription.objects.get(pk=subscription.pk).periods_paid == 2
    assert SavedPaymentMethod.objects.get().status == "active"


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_methods_saved_at_once_leave_one_usable(member, round_):
    _race(
        lambda: simulated_mandate_save(user=member, iban=IBAN_SUCCEEDS, holder="Emma Petit", accepted=True),
        lambda: simulated_mandate_save(user=member, iban=IBAN_SUCCEEDS, holder="Emma Petit", accepted=True),
    )
    statuses = sorted(SavedPaymentMethod.objects.filter(member=member).values_list("status", flat=True))
    assert statuses == ["active", "replaced"]
