"""Subscriptions paid by a method saved with Stripe, against the fake Stripe: a SetupIntent saves a card or accepts a
SEPA mandate, each later period is charged off-session once per attempt, and Stripe's events (heard through
`payments.signals.stripe_event_received`) settle SEPA debits, save methods and make a revoked mandate unusable."""

from datetime import timedelta

import pytest
from django.core import mail
from freezegun import freeze_time

from bookings.services.passes import add_months
from payments.signals import stripe_event_received
from payments.stripe_events import parse_event
from payments.subscriptions.models import (
    ChargeStatus,
    SavedMethodStatus,
    SavedPaymentMethod,
    Subscription,
    SubscriptionCharge,
    SubscriptionStatus,
)
from payments.subscriptions.services import saved_methods as methods
from payments.subscriptions.services.common import CHARGE_FAILED_SUBJECT
from payments.subscriptions.services.lifecycle import subscription_charges_run

from . import fake_stripe as fs
from .test_subscriptions import buy

pytestmark = pytest.mark.django_db


SETUP = "/api/subscriptions/method/stripe/setup"
COMPLETE = "/api/subscriptions/method/stripe/complete"
METHOD = "/api/subscriptions/method"
SEPA_OK = "FR1420041010050500013M02606"
SEPA_FAILS = "FR8420041010050500013M02607"


def start(api_client, member, kind="card"):
    api_client.force_authenticate(member)
    response = api_client.post(SETUP, {"kind": kind}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def save(api_client, member, fake_stripe, *, kind="card", payment_method="pm_card_visa", iban=""):
    body = start(api_client, member, kind)
    fake_stripe.save(body["setupIntentId"], payment_method=payment_method, iban=iban)
    response = api_client.post(COMPLETE, {"setupIntentId": body["setupIntentId"]}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def deliver(event: dict):
    """What the Stripe webhook's task does with a verified event that one-off payments do not apply."""
    stripe_event_received.send(sender=None, event=parse_event(event))


def stripe_subscription(api_client, member, tariff):
    """A subscription the studio charges with Stripe: bought (its first period paid), then on the member's method."""
    subscription = buy(api_client, member, tariff)
    method = SavedPaymentMethod.objects.get(member=member, status=SavedMethodStatus.ACTIVE)
    Subscription.objects.filter(pk=subscription.pk).update(provider="stripe", saved_method=method)
    return Subscription.objects.get(pk=subscription.pk)


def mails(subject):
    return [m for m in mail.outbox if m.subject.endswith(subject)]


# --- saving -------------------------------------------------------------------------------------------------------


def test_the_setup_answers_the_client_secret_and_the_publishable_key(api_client, member, stripe_settings, fake_stripe):
    body = start(api_client, member, "sepa_debit")
    setup = fake_stripe.objects.setups[body["setupIntentId"]]
    assert body["clientSecret"] == setup["client_secret"] and body["publishableKey"] == fs.PUBLISHABLE_KEY
    assert setup["payment_method_types"] == ["sepa_debit"] and setup["usage"] == "off_session"
    assert api_client.get(METHOD).json()["provider"] == "stripe"
    assert api_client.get(METHOD).json()["publishableKey"] == fs.PUBLISHABLE_KEY


def test_a_card_saved_with_stripe_is_shown_by_its_last_digits_and_expiry(
    api_client, member, stripe_settings, fake_stripe
):
    body = save(api_client, member, fake_stripe)
    year = fake_stripe.objects.methods[SavedPaymentMethod.objects.get().method_id]["card"]["exp_year"]
    assert body["label"] == f"Carte •••• 4242, expire 12/{year % 100:02d}"
    assert api_client.get(METHOD).json()["method"]["label"] == body["label"]
    # The customer is reused for the next method.
    save(api_client, member, fake_stripe, payment_method="pm_card_mastercard")
    assert len(fake_stripe.objects.customers) == 1
    assert SavedPaymentMethod.objects.filter(status=SavedMethodStatus.ACTIVE).get().last4 == "4444"


def test_a_sepa_mandate_accepted_with_stripe_keeps_its_reference_and_date(
    api_client, member, stripe_settings, fake_stripe
):
    body = save(api_client, member, fake_stripe, kind="sepa_debit", payment_method="", iban=SEPA_OK)
    method = SavedPaymentMethod.objects.get()
    mandate = fake_stripe.objects.mandates[method.mandate_id]
    assert method.mandate_reference == mandate["payment_method_details"]["sepa_debit"]["reference"]
    assert body["label"].startswith("Prélèvement SEPA FR •••• 2606, mandat du ")


def test_an_unconfirmed_setup_is_refused_in_french_and_saves_nothing(api_client, member, stripe_settings, fake_stripe):
    body = start(api_client, member)
    response = api_client.post(COMPLETE, {"setupIntentId": body["setupIntentId"]}, format="json")
    assert response.status_code == 402 and response.json()["error"] == methods.MSG_SETUP_NOT_DONE
    assert SavedPaymentMethod.objects.get().status == SavedMethodStatus.PENDING
    assert (
        methods.MSG_SETUP_NOT_DONE
        == "Votre moyen de paiement n'a pas été enregistré. Réessayez ou choisissez-en un autre."
    )


def test_another_members_setup_is_not_found(api_client, member, other_member, stripe_settings, fake_stripe):
    body = start(api_client, member)
    fake_stripe.save(body["setupIntentId"], payment_method="pm_card_visa")
    api_client.force_authenticate(other_member)
    response = api_client.post(COMPLETE, {"setupIntentId": body["setupIntentId"]}, format="json")
    assert response.status_code == 404 and response.json()["error"] == methods.MSG_SETUP_NOT_FOUND
    missing = api_client.post(COMPLETE, {}, format="json")
    assert missing.status_code == 400 and missing.json()["error"] == methods.MSG_SETUP_NOT_FOUND
    assert not SavedPaymentMethod.objects.filter(status=SavedMethodStatus.ACTIVE).exists()


def test_an_unknown_kind_is_refused(api_client, member, stripe_settings):
    api_client.force_authenticate(member)
    response = api_client.post(SETUP, {"kind": "cheque"}, format="json")
    assert response.status_code == 400 and response.json()["error"] == methods.MSG_KIND


def test_stripe_unreachable_is_told_in_french(api_client, member, stripe_settings, fake_stripe):
    stripe_settings.STRIPE_API_BASE = "http://127.0.0.1:9"
    api_client.force_authenticate(member)
    response = api_client.post(SETUP, {"kind": "card"}, format="json")
    assert response.status_code == 502 and response.json()["error"] == methods.MSG_STRIPE_DOWN
    assert not SavedPaymentMethod.objects.exists()


def test_setup_intent_succeeded_saves_the_method_without_the_page(api_client, member, stripe_settings, fake_stripe):
    body = start(api_client, member)
    fake_stripe.save(body["setupIntentId"], payment_method="pm_card_visa")
    deliver(fake_stripe.events_of("setup_intent.succeeded")[-1])
    deliver(fake_stripe.events_of("setup_intent.succeeded")[-1])
    assert SavedPaymentMethod.objects.get().status == SavedMethodStatus.ACTIVE
    assert api_client.post(COMPLETE, {"setupIntentId": body["setupIntentId"]}, format="json").status_code == 200


def test_setup_intent_failed_leaves_the_method_unusable(api_client, member, stripe_settings, fake_stripe):
    body = start(api_client, member)
    fake_stripe.save(body["setupIntentId"], payment_method="pm_card_chargeDeclined")
    deliver(fake_stripe.events_of("setup_intent.setup_failed")[-1])
    assert SavedPaymentMethod.objects.get().status == SavedMethodStatus.INACTIVE


# --- charging -----------------------------------------------------------------------------------------------------


@freeze_time("2030-01-10 10:00:00")
def test_a_period_is_charged_off_session_to_the_saved_card_once(
    api_client, member, annual, stripe_settings, fake_stripe
):
    save(api_client, member, fake_stripe)
    stripe_settings.STRIPE_SECRET_KEY = ""  # the first period is bought with the simulator
    subscription = stripe_subscription(api_client, member, annual)
    stripe_settings.STRIPE_SECRET_KEY = fs.SECRET_KEY
    due = add_months(subscription.starts_on, 1)
    assert subscription_charges_run(as_of=due)["paid"] == 1
    assert subscription_charges_run(as_of=due)["paid"] == 0
    charge = subscription.charges.get(period=2)
    assert charge.status == ChargeStatus.PAID and charge.provider_reference.startswith("pi_")
    (request,) = fake_stripe.calls("POST", "/v1/payment_intents")
    key = f"charge-subscription-{subscription.pk}-period-2-attempt-1"
    assert request["headers"]["idempotency-key"] == key
    assert "off_session=true" in request["body"] and "amount=5500" in request["body"]
    intent = fake_stripe.objects.intents[charge.provider_reference]
    assert intent["metadata"]["purpose"] == "subscription_charge"
    assert intent["metadata"]["charge_id"] == str(charge.pk)
    # Stripe's own payment_intent.succeeded for it changes nothing more.
    deliver(fake_stripe.events_of("payment_intent.succeeded")[-1])
    assert Subscription.objects.get(pk=subscription.pk).periods_paid == 2


@freeze_time("2030-01-10 10:00:00")
def test_a_declined_saved_card_makes_the_period_unpaid_with_the_banks_reason(
    api_client,
    member,
    annual,
    stripe_settings,
    fake_stripe,
    django_capture_on_commit_callbacks,
):
    save(api_client, member, fake_stripe, payment_method="pm_card_chargeCustomerFail")
    stripe_settings.STRIPE_SECRET_KEY = ""
    subscription = stripe_subscription(api_client, member, annual)
    stripe_settings.STRIPE_SECRET_KEY = fs.SECRET_KEY
    with django_capture_on_commit_callbacks(execute=True):
        subscription_charges_run(as_of=add_months(subscription.starts_on, 1))
    charge = subscription.charges.get(period=2)
    assert charge.status == ChargeStatus.FAILED and charge.failure_note
    assert Subscription.objects.get(pk=subscription.pk).status == SubscriptionStatus.UNPAID
    assert len(mails(CHARGE_FAILED_SUBJECT)) == 1


@freeze_time("2030-01-10 10:00:00")
@pytest.mark.parametrize(("iban", "paid"), [(SEPA_OK, True), (SEPA_FAILS, False)])
def test_a_sepa_debit_is_in_progress_until_stripe_settles_it(
    api_client,
    member,
    annual,
    stripe_settings,
    fake_stripe,
    django_capture_on_commit_callbacks,
    iban,
    paid,
):
    save(api_client, member, fake_stripe, kind="sepa_debit", payment_method="", iban=iban)
    stripe_settings.STRIPE_SECRET_KEY = ""
    subscription = stripe_subscription(api_client, member, annual)
    stripe_settings.STRIPE_SECRET_KEY = fs.SECRET_KEY
    due = add_months(subscription.starts_on, 1)
    subscription_charges_run(as_of=due)
    charge = subscription.charges.get(period=2)
    assert (charge.status, charge.provider_reference[:3]) == (ChargeStatus.PROCESSING, "pi_")
    assert subscription_charges_run(as_of=due + timedelta(days=1))["skipped"] == 0
    assert len(fake_stripe.calls("POST", "/v1/payment_intents")) == 1
    fake_stripe.settle_sepa(charge.provider_reference)
    event = fake_stripe.events_of("payment_intent.succeeded" if paid else "payment_intent.payment_failed")[-1]
    with django_capture_on_commit_callbacks(execute=True):
        deliver(event)
        deliver(event)  # a redelivery
    charge.refresh_from_db()
    subscription.refresh_from_db()
    if paid:
        assert (charge.status, subscription.periods_paid) == (ChargeStatus.PAID, 2)
        assert not mails(CHARGE_FAILED_SUBJECT)
    else:
        assert (charge.status, subscription.status) == (ChargeStatus.FAILED, SubscriptionStatus.UNPAID)
        assert len(mails(CHARGE_FAILED_SUBJECT)) == 1


@freeze_time("2030-01-10 10:00:00")
def test_a_revoked_mandate_makes_the_method_unusable_and_the_next_period_unpaid(
    api_client,
    member,
    annual,
    stripe_settings,
    fake_stripe,
):
    save(api_client, member, fake_stripe, kind="sepa_debit", payment_method="", iban=SEPA_OK)
    method = SavedPaymentMethod.objects.get()
    mandate = dict(fake_stripe.objects.mandates[method.mandate_id], status="inactive")
    deliver(fake_stripe.event("mandate.updated", mandate))
    method.refresh_from_db()
    assert method.status == SavedMethodStatus.INACTIVE
    stripe_settings.STRIPE_SECRET_KEY = ""
    subscription = buy(api_client, member, annual)
    Subscription.objects.filter(pk=subscription.pk).update(provider="stripe", saved_method=method)
    stripe_settings.STRIPE_SECRET_KEY = fs.SECRET_KEY
    subscription_charges_run(as_of=add_months(subscription.starts_on, 1))
    charge = subscription.charges.get(period=2)
    assert (charge.status, charge.failure_note) == (ChargeStatus.FAILED, methods.MSG_METHOD_UNUSABLE)
    assert not fake_stripe.calls("POST", "/v1/payment_intents")


def test_an_event_of_another_purpose_or_charge_changes_nothing(api_client, member, stripe_settings, fake_stripe):
    intent = {"id": "pi_x", "object": "payment_intent", "amount": 5500, "metadata": {"purpose": "order"}}
    deliver(fake_stripe.event("payment_intent.succeeded", intent))
    intent["metadata"] = {"purpose": "subscription_charge", "charge_id": "999999"}
    deliver(fake_stripe.event("payment_intent.succeeded", intent))
    assert not SubscriptionCharge.objects.exists()  # nothing raised, nothing made up


@freeze_time("2030-01-10 10:00:00")
def test_staff_cancel_with_refund_refunds_the_periods_payment_intent_once(
    api_client, member, annual, staff, stripe_settings, fake_stripe, django_capture_on_commit_callbacks
):
    from payments.subscriptions.services.staff import subscription_cancel, subscription_charge_refund_run

    save(api_client, member, fake_stripe)
    stripe_settings.STRIPE_SECRET_KEY = ""
    subscription = stripe_subscription(api_client, member, annual)
    stripe_settings.STRIPE_SECRET_KEY = fs.SECRET_KEY
    due = add_months(subscription.starts_on, 1)
    subscription_charges_run(as_of=due)
    with django_capture_on_commit_callbacks(execute=True):
        subscription_cancel(subscription_id=subscription.pk, by=staff, reason="Déménagement", refund=True, today=due)
    charge = subscription.charges.get(period=2)
    assert charge.status == ChargeStatus.REFUNDED and charge.refund_id.startswith("re_")
    assert subscription_charge_refund_run(charge_id=charge.pk) == "nothing to refund"
    (refund,) = fake_stripe.calls("POST", "/v1/refunds")
    assert f"payment_intent={charge.provider_reference}" in refund["body"]
    assert refund["headers"]["idempotency-key"] == f"refund-refund-subscription-charge-{charge.pk}"
