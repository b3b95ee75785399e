"""One-off payments through Stripe against the fake Stripe (docs/decisions.md 42): the providers offered, the
PaymentIntent opened with the database's amount, complete-payment read from Stripe (paid, 3-D Secure, declined in
French, processing), Stripe's signed webhooks applied once, refunds through Stripe once, reconciliation, disputes."""

from datetime import time, timedelta
from decimal import Decimal
from urllib.parse import parse_qsl

import pytest
from django.utils import timezone

from bookings.models import ReservationStatus
from bookings.services.class_cancellation import course_session_cancel
from payments.models import PaymentDispute, PaymentOrder, PaymentStatus, PaymentWebhookEvent
from payments.reconcile import stripe_orders_reconcile
from payments.selectors import payment_client_config
from payments.services.class_refunds import payment_orders_refund_cancelled_class
from payments.services.common import MSG_AMOUNT_CAPTURED_MISMATCH, MSG_ORDER_CLOSED, MSG_PROVIDER_NOT_OFFERED
from payments.services.receipts import RECEIPT_SUBJECT
from payments.services.refunds import REFUND_SUBJECT
from payments.services.stripe_payments import MSG_STRIPE_ACTION_REQUIRED, MSG_STRIPE_PENDING
from payments.services.stripe_webhooks import MSG_STRIPE_WEBHOOK_REFUSED, stripe_webhooks_unapplied_apply
from payments.signals import stripe_event_received
from payments.stripe_answers import method_used
from quotes.models import PartyReservation
from quotes.services import parties

from . import fake_paypal as fp
from . import fake_stripe as fs
from .conftest import after_commit, reservation_payload, tariff_payload
from .stripe_checkout_helpers import (
    COMPLETE,
    CREATE,
    last_event,
    old_timestamp,
    open_stripe_order,
    post_event,
    signed,
)

pytestmark = pytest.mark.django_db

SEPA_OK = "FR1420041010050500013M02606"
DEPOSIT = "/api/paypal/deposit-order"


def _receipts(mailoutbox):
    return [m for m in mailoutbox if RECEIPT_SUBJECT in m.subject]


def _refund_mails(mailoutbox):
    return [m for m in mailoutbox if REFUND_SUBJECT in m.subject]


def _complete(api_client, order_id, **extra):
    with after_commit():
        return api_client.post(COMPLETE, {"orderId": order_id, **extra}, format="json")


def _intent_form(fake, intent_id=None) -> dict:
    """The body our server sent to create the PaymentIntent, and its Idempotency-Key."""
    calls = [c for c in fake.calls("POST", "/v1/payment_intents") if c["path"] == "/v1/payment_intents"]
    call = calls[-1]
    return {"form": dict(parse_qsl(call["body"])), "key": call["headers"].get("idempotency-key", "")}


# --- which providers the page offers ------------------------------------------------------------------------------


def test_the_config_offers_stripe_first_with_its_publishable_key_never_the_secret(stripe_settings, settings):
    config = payment_client_config()
    assert config["providers"] == ["stripe"]
    assert config["stripePublishableKey"] == fs.PUBLISHABLE_KEY
    settings.PAYPAL_CLIENT_ID, settings.PAYPAL_CLIENT_SECRET = fp.CLIENT_ID, fp.CLIENT_SECRET
    config = payment_client_config()
    assert config["providers"] == ["stripe", "paypal"]
    assert fs.SECRET_KEY not in str(config) and fs.WEBHOOK_SECRET not in str(config)


def test_stripe_needs_both_keys_to_be_offered(stripe_settings, settings, api_client):
    settings.STRIPE_PUBLISHABLE_KEY = ""
    body = api_client.get("/api/paypal/config").json()
    assert body["providers"] == ["simulator"]
    assert body["stripePublishableKey"] == ""


# --- opening the order ----------------------------------------------------------------------------------------------


def test_create_order_opens_a_payment_intent_priced_from_the_database(
    api_client, member, make_reservation, stripe_settings, fake_stripe
):
    reservation = make_reservation(member, participants=2, price=Decimal("25.00"))
    api_client.force_authenticate(member)
    response = api_client.post(CREATE, reservation_payload(reservation), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    order = PaymentOrder.objects.get()
    assert body["provider"] == "stripe" and order.provider == "stripe"
    assert body["id"] == order.order_id and order.order_id.startswith("pi_")
    intent = fake_stripe.objects.intents[order.order_id]
    assert body["clientSecret"] == intent["client_secret"]
    assert intent["amount"] == 5000 and intent["currency"] == "eur"
    sent = _intent_form(fake_stripe)
    reference = sent["form"]["metadata[reference]"]
    assert sent["form"]["metadata[purpose]"] == "reservation"
    assert sent["key"] == f"payment-{reference}"
    # A second tab asking again gets the same order and client secret; no second PaymentIntent.
    again = api_client.post(CREATE, reservation_payload(reservation, provider="stripe"), format="json")
    assert again.json()["id"] == order.order_id and again.json()["clientSecret"] == intent["client_secret"]
    assert len(fake_stripe.objects.intents) == 1


def test_the_browser_amount_is_only_compared_never_charged(
    api_client, member, make_reservation, stripe_settings, fake_stripe
):
    reservation = make_reservation(member, participants=1, price=Decimal("25.00"))
    api_client.force_authenticate(member)
    response = api_client.post(CREATE, reservation_payload(reservation, amount="1.00"), format="json")
    assert response.status_code == 409
    assert not fake_stripe.objects.intents and not PaymentOrder.objects.exists()


@pytest.mark.parametrize(
    ("provider", "status"),
    [("bitcoin", 400), ("paypal", 409), ("simulator", 409)],  # no provider at all; one this studio does not offer
)
def test_a_provider_not_offered_is_refused_in_french(
    api_client, member, card_tariff, stripe_settings, fake_stripe, provider, status
):
    api_client.force_authenticate(member)
    response = api_client.post(CREATE, tariff_payload(card_tariff, member, provider=provider), format="json")
    assert response.status_code == status
    assert response.json()["error"] == MSG_PROVIDER_NOT_OFFERED
    assert not PaymentOrder.objects.exists() and not fake_stripe.objects.intents


def test_a_tariff_order_through_stripe_grants_its_card(api_client, member, card_tariff, stripe_settings, fake_stripe):
    api_client.force_authenticate(member)
    response = api_client.post(CREATE, tariff_payload(card_tariff, member, provider="stripe"), format="json")
    assert response.status_code == 201
    order_id = response.json()["id"]
    assert _intent_form(fake_stripe)["form"]["metadata[purpose]"] == "tariff"
    assert fake_stripe.objects.intents[order_id]["amount"] == 19000
    fake_stripe.pay(order_id, payment_method="pm_card_visa_cartesBancaires")
    assert _complete(api_client, order_id).status_code == 200
    order = PaymentOrder.objects.get()
    assert order.status == PaymentStatus.COMPLETED and order.amount == Decimal("190.00")


def test_a_stripe_order_given_up_is_canceled_at_stripe(
    api_client, member, make_reservation, stripe_settings, fake_stripe
):
    reservation = make_reservation(member)
    order = open_stripe_order(member, reservation)
    api_client.force_authenticate(member)
    with after_commit():
        response = api_client.post("/api/paypal/cancel-order", {"orderId": order.order_id}, format="json")
    assert response.status_code == 200
    assert fake_stripe.objects.intents[order.order_id]["status"] == "canceled"
    # Paid anyway in a page left open (Stripe refuses: the intent is canceled); completing says the order is closed.
    response = _complete(api_client, order.order_id)
    assert response.status_code == 409 and response.json()["error"] == MSG_ORDER_CLOSED


def test_choosing_paypal_after_stripe_voids_and_cancels_the_payment_intent(
    api_client, member, make_reservation, stripe_settings, fake_stripe, settings, fake_paypal
):
    settings.PAYPAL_CLIENT_ID, settings.PAYPAL_CLIENT_SECRET = fp.CLIENT_ID, fp.CLIENT_SECRET
    settings.PAYPAL_API_BASE = fake_paypal.url
    reservation = make_reservation(member)
    api_client.force_authenticate(member)
    first = api_client.post(CREATE, reservation_payload(reservation), format="json").json()
    assert first["provider"] == "stripe"
    with after_commit():
        second = api_client.post(CREATE, reservation_payload(reservation, provider="paypal"), format="json")
    assert second.status_code == 201 and second.json()["provider"] == "paypal"
    assert "clientSecret" not in second.json()
    assert PaymentOrder.objects.get(order_id=first["id"]).status == PaymentStatus.VOIDED
    assert fake_stripe.objects.intents[first["id"]]["status"] == "canceled"


# --- complete-payment -----------------------------------------------------------------------------------------------


def test_complete_payment_confirms_the_reservation_once(
    api_client, member, make_reservation, stripe_settings, fake_stripe, mailoutbox
):
    reservation = make_reservation(member)
    order = open_stripe_order(member, reservation)
    fake_stripe.pay(order.order_id, payment_method="pm_card_visa")
    api_client.force_authenticate(member)
    response = _complete(api_client, order.order_id)
    assert response.status_code == 200, response.json()
    assert response.json() == {
        "id": order.order_id,
        "status": "COMPLETED",
        "amount": "50.00",
        "currency": "EUR",
        "title": order.title,
    }
    order.refresh_from_db()
    reservation.refresh_from_db()
    assert order.capture_id == fake_stripe.objects.intents[order.order_id]["latest_charge"]
    assert reservation.status == ReservationStatus.CONFIRMED
    assert _complete(api_client, order.order_id).status_code == 200  # asking again: the same success
    assert len(_receipts(mailoutbox)) == 1


def test_the_invoice_of_a_stripe_payment_names_its_method(
    api_client, member, make_reservation, stripe_settings, fake_stripe
):
    from invoices.models import Invoice

    order = open_stripe_order(member, make_reservation(member))
    fake_stripe.pay(order.order_id, payment_method="pm_card_visa")
    api_client.force_authenticate(member)
    assert _complete(api_client, order.order_id).status_code == 200
    # The method actually used, as the order records it, rather than the provider's generic wording.
    assert Invoice.objects.get(payment_order=order).payment_method == "Carte •••• 4242 (Visa)"


@pytest.mark.parametrize(
    ("payment_method", "method", "label"),
    [
        ("pm_card_visa", "card", "Carte •••• 4242 (Visa)"),
        ("pm_card_visa_cartesBancaires", "card", "Carte •••• 1001 (CB)"),
    ],
)
def test_the_order_records_the_card_it_was_paid_with(
    api_client, member, make_reservation, stripe_settings, fake_stripe, payment_method, method, label
):
    order = open_stripe_order(member, make_reservation(member))
    fake_stripe.pay(order.order_id, payment_method=payment_method)
    api_client.force_authenticate(member)
    assert _complete(api_client, order.order_id).status_code == 200
    order.refresh_from_db()
    assert (order.payment_method, order.payment_method_label) == (method, label)


@pytest.mark.parametrize(
    ("payment_method", "expected"),
    [
        ({"type": "card", "card": {"brand": "visa", "last4": "4242", "wallet": {"type": "apple_pay"}}}, "Apple Pay"),
        (
            {"type": "card", "card": {"brand": "mastercard", "last4": "4444", "wallet": {"type": "google_pay"}}},
            "Google Pay",
        ),
        ({"type": "card", "card": {"brand": "amex", "last4": "8431"}}, "Carte •••• 8431 (American Express)"),
        ({"type": "sepa_debit", "sepa_debit": {"country": "FR", "last4": "2606"}}, "Prélèvement SEPA FR •••• 2606"),
    ],
)
def test_stripe_methods_are_named_as_the_staff_read_them(payment_method, expected):
    assert method_used(payment_method)[1] == expected


def test_three_d_secure_asked_then_passed(api_client, member, make_reservation, stripe_settings, fake_stripe):
    reservation = make_reservation(member)
    order = open_stripe_order(member, reservation)
    fake_stripe.pay(order.order_id, payment_method="pm_card_threeDSecure2Required")
    api_client.force_authenticate(member)
    response = _complete(api_client, order.order_id)
    assert response.status_code == 402
    assert response.json()["code"] == "payment_not_completed"
    assert response.json()["error"] == MSG_STRIPE_ACTION_REQUIRED
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.HELD
    fake_stripe.complete_3ds(order.order_id)
    assert _complete(api_client, order.order_id).status_code == 200
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED


def test_a_declined_card_says_why_in_french_and_the_member_can_retry(
    api_client, member, make_reservation, stripe_settings, fake_stripe
):
    reservation = make_reservation(member)
    order = open_stripe_order(member, reservation)
    fake_stripe.pay(order.order_id, payment_method="pm_card_visa_chargeDeclinedInsufficientFunds")
    api_client.force_authenticate(member)
    response = _complete(api_client, order.order_id)
    assert response.status_code == 402
    until = timezone.localtime(reservation.hold_expires_at).strftime("%H:%M")
    assert response.json()["error"] == (
        f"Fonds insuffisants. Aucun montant n'a été débité. Votre place reste réservée jusqu'à {until} : vous pouvez "
        "réessayer avec une autre carte ou un autre moyen de paiement."
    )
    order.refresh_from_db()
    assert order.status == PaymentStatus.DECLINED
    # The same PaymentIntent takes another card.
    fake_stripe.pay(order.order_id, payment_method="pm_card_visa")
    assert _complete(api_client, order.order_id).status_code == 200


def test_a_stolen_card_gets_the_generic_refusal(api_client, member, card_tariff, stripe_settings, fake_stripe):
    api_client.force_authenticate(member)
    order_id = api_client.post(CREATE, tariff_payload(card_tariff, member), format="json").json()["id"]
    fake_stripe.pay(order_id, payment_method="pm_card_visa_chargeDeclinedStolenCard")
    response = _complete(api_client, order_id)
    assert response.status_code == 402
    assert response.json()["error"] == (
        "Votre banque a refusé le paiement. Aucun montant n'a été débité. Vous pouvez réessayer avec une autre carte "
        "ou un autre moyen de paiement."
    )


def test_processing_is_a_202_then_the_webhook_pays(
    client, api_client, member, make_reservation, stripe_settings, fake_stripe, mailoutbox
):
    reservation = make_reservation(member)
    order = open_stripe_order(member, reservation)
    fake_stripe.pay(order.order_id, iban=SEPA_OK)
    api_client.force_authenticate(member)
    response = _complete(api_client, order.order_id)
    assert response.status_code == 202
    assert response.json() == {
        "id": order.order_id,
        "status": "PENDING",
        "amount": "50.00",
        "currency": "EUR",
        "title": order.title,
        "message": MSG_STRIPE_PENDING,
    }
    fake_stripe.settle_sepa(order.order_id)
    with after_commit():
        answer = post_event(client, last_event(fake_stripe, "payment_intent.succeeded", order.order_id))
    assert answer.status_code == 200
    order.refresh_from_db()
    assert order.status == PaymentStatus.COMPLETED
    assert (order.payment_method, order.payment_method_label) == ("sepa_debit", "Prélèvement SEPA FR •••• 2606")
    assert len(_receipts(mailoutbox)) == 1


def test_only_the_orders_member_may_complete_it(
    api_client, member, other_member, staff, make_reservation, stripe_settings, fake_stripe
):
    order = open_stripe_order(member, make_reservation(member))
    fake_stripe.pay(order.order_id, payment_method="pm_card_visa")
    for someone in (other_member, staff):
        api_client.force_authenticate(someone)
        response = _complete(api_client, order.order_id)
        assert response.status_code == 404
    order.refresh_from_db()
    assert order.status == PaymentStatus.CREATED


def test_complete_payment_never_reads_an_amount_from_the_browser(
    api_client, member, make_reservation, stripe_settings, fake_stripe
):
    """The member's page sends only the order's id; an amount it adds is ignored. A PaymentIntent whose amount is
    not the order's (changed at Stripe) confirms nothing."""
    reservation = make_reservation(member)
    order = open_stripe_order(member, reservation)
    fake_stripe.objects.intents[order.order_id]["amount"] = 100
    fake_stripe.pay(order.order_id, payment_method="pm_card_visa")
    api_client.force_authenticate(member)
    response = _complete(api_client, order.order_id, amount="1.00")
    assert response.status_code == 402
    assert response.json()["error"] == MSG_AMOUNT_CAPTURED_MISMATCH
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.HELD


def test_paid_for_a_booking_cancelled_meanwhile_is_refunded_through_stripe_once(
    api_client, member, make_reservation, stripe_settings, fake_stripe, mailoutbox
):
    reservation = make_reservation(member)
    order = open_stripe_order(member, reservation)
    reservation.status = ReservationStatus.CANCELLED
    reservation.save(update_fields=["status"])
    fake_stripe.pay(order.order_id, payment_method="pm_card_visa")
    api_client.force_authenticate(member)
    response = _complete(api_client, order.order_id)
    assert response.status_code == 409 and response.json()["refunded"] is True
    assert _complete(api_client, order.order_id).status_code == 409
    order.refresh_from_db()
    assert order.status == PaymentStatus.REFUNDED
    refunds = list(fake_stripe.objects.refunds.values())
    assert len(refunds) == 1 and refunds[0]["payment_intent"] == order.order_id
    assert {c["headers"]["idempotency-key"] for c in fake_stripe.calls("POST", "/v1/refunds")} == {
        f"refund-{order.order_id}"
    }
    assert len(_refund_mails(mailoutbox)) == 1


# --- webhooks -------------------------------------------------------------------------------------------------------


def _paid_event(fake_stripe, member, make_reservation):
    reservation = make_reservation(member)
    order = open_stripe_order(member, reservation)
    fake_stripe.pay(order.order_id, payment_method="pm_card_visa")
    return order, reservation, last_event(fake_stripe, "payment_intent.succeeded", order.order_id)


@pytest.mark.parametrize(
    "signing",
    [
        {"secret": "whsec_forged"},
        {"timestamp": "old"},
    ],
    ids=["forged", "too-old"],
)
def test_a_forged_or_old_webhook_is_refused_and_nothing_moves(
    client, member, make_reservation, stripe_settings, fake_stripe, mailoutbox, signing
):
    order, reservation, event = _paid_event(fake_stripe, member, make_reservation)
    if signing.get("timestamp") == "old":
        signing = {"timestamp": old_timestamp()}
    with after_commit():
        response = post_event(client, event, **signing)
    assert response.status_code == 403
    assert response.json()["error"] == MSG_STRIPE_WEBHOOK_REFUSED
    order.refresh_from_db()
    assert order.status == PaymentStatus.CREATED
    assert not PaymentWebhookEvent.objects.exists() and not _receipts(mailoutbox)


def test_a_webhook_without_signature_is_refused(client, member, make_reservation, stripe_settings, fake_stripe):
    _order, _reservation, event = _paid_event(fake_stripe, member, make_reservation)
    response = client.post("/api/stripe/webhook", data=event, content_type="application/json")
    assert response.status_code == 403
    assert not PaymentWebhookEvent.objects.exists()


def test_a_signature_replayed_on_another_body_is_refused(
    client, member, make_reservation, stripe_settings, fake_stripe
):
    order, _reservation, event = _paid_event(fake_stripe, member, make_reservation)
    _payload, signature = signed({"id": "evt_other", "type": "ping"})
    response = client.post(
        "/api/stripe/webhook", data=event, content_type="application/json", HTTP_STRIPE_SIGNATURE=signature
    )
    assert response.status_code == 403
    order.refresh_from_db()
    assert order.status == PaymentStatus.CREATED


def test_a_webhook_event_is_applied_once_however_often_it_comes(
    client, member, make_reservation, stripe_settings, fake_stripe, mailoutbox
):
    order, reservation, event = _paid_event(fake_stripe, member, make_reservation)
    for _ in range(3):
        with after_commit():
            assert post_event(client, event).status_code == 200
    order.refresh_from_db()
    reservation.refresh_from_db()
    assert order.status == PaymentStatus.COMPLETED and reservation.status == ReservationStatus.CONFIRMED
    row = PaymentWebhookEvent.objects.get()
    assert row.event_id == event["id"] and row.processed_at is not None
    assert len(_receipts(mailoutbox)) == 1


@pytest.mark.parametrize(
    ("payment_method", "event_type", "status"),
    [
        ("pm_card_chargeDeclined", "payment_intent.payment_failed", PaymentStatus.DECLINED),
        ("", "payment_intent.canceled", PaymentStatus.VOIDED),
    ],
)
def test_a_failed_or_canceled_payment_intent_closes_nothing_but_its_order(
    client, member, make_reservation, stripe_settings, fake_stripe, payment_method, event_type, status
):
    reservation = make_reservation(member)
    order = open_stripe_order(member, reservation)
    if payment_method:
        fake_stripe.pay(order.order_id, payment_method=payment_method)
    else:
        fake_stripe.objects.cancel_intent(order.order_id, {})
    with after_commit():
        assert post_event(client, last_event(fake_stripe, event_type, order.order_id)).status_code == 200
    order.refresh_from_db()
    reservation.refresh_from_db()
    assert order.status == status
    assert reservation.status == ReservationStatus.HELD


def test_an_event_whose_task_was_lost_is_applied_by_the_sweep(
    client, member, make_reservation, stripe_settings, fake_stripe, mailoutbox
):
    order, reservation, event = _paid_event(fake_stripe, member, make_reservation)
    assert post_event(client, event).status_code == 200  # acknowledged; its task queued after a commit that never ran
    order.refresh_from_db()
    assert order.status == PaymentStatus.CREATED
    later = timezone.now() + timedelta(minutes=6)
    with after_commit():
        assert stripe_webhooks_unapplied_apply(now=later) == 1
    assert stripe_webhooks_unapplied_apply(now=later) == 0
    order.refresh_from_db()
    assert order.status == PaymentStatus.COMPLETED
    assert len(_receipts(mailoutbox)) == 1


def test_events_of_others_go_to_the_signal(client, member, stripe_settings, fake_stripe):
    heard = []

    def receiver(sender, event, **kwargs):
        heard.append(event)

    stripe_event_received.connect(receiver, dispatch_uid="test-stripe-forward")
    try:
        setup = fake_stripe.event("setup_intent.succeeded", {"id": "seti_1", "object": "setup_intent"})
        charge = fake_stripe.event(
            "payment_intent.succeeded",
            {
                "id": "pi_sub",
                "object": "payment_intent",
                "amount": 4500,
                "metadata": {"purpose": "subscription_charge"},
            },
        )
        with after_commit():
            assert post_event(client, setup).status_code == 200
            assert post_event(client, charge).status_code == 200
            assert post_event(client, charge).status_code == 200  # redelivered: forwarded once
    finally:
        stripe_event_received.disconnect(dispatch_uid="test-stripe-forward")
    assert [(e.type, e.event_id) for e in heard] == [
        ("setup_intent.succeeded", setup["id"]),
        ("payment_intent.succeeded", charge["id"]),
    ]
    assert heard[1].metadata["purpose"] == "subscription_charge"


def test_a_dispute_is_recorded_for_the_staff_and_blocks_nothing(
    client, api_client, staff, member, make_reservation, stripe_settings, fake_stripe
):
    reservation = make_reservation(member)
    order = open_stripe_order(member, reservation)
    fake_stripe.pay(order.order_id, payment_method="pm_card_createDispute")
    with after_commit():
        post_event(client, last_event(fake_stripe, "payment_intent.succeeded", order.order_id))
        dispute = last_event(fake_stripe, "charge.dispute.created", order.order_id)
        assert post_event(client, dispute).status_code == 200
    order.refresh_from_db()
    assert order.status == PaymentStatus.COMPLETED
    recorded = PaymentDispute.objects.get()
    assert recorded.order == order and recorded.amount == Decimal("50.00") and recorded.reason == "general"
    api_client.force_authenticate(staff)
    detail = api_client.get(f"/api/paypal/orders/{order.order_id}").json()
    assert detail["status"] == "COMPLETED"
    assert detail["disputes"] == [
        {
            "dispute_id": recorded.dispute_id,
            "amount": "50.00",
            "reason": "general",
            "created_at": detail["disputes"][0]["created_at"],
        }
    ]


def test_a_refund_made_at_the_dashboard_is_recorded(
    client, api_client, member, make_reservation, stripe_settings, fake_stripe
):
    reservation = make_reservation(member)
    order = open_stripe_order(member, reservation)
    fake_stripe.pay(order.order_id, payment_method="pm_card_visa")
    api_client.force_authenticate(member)
    _complete(api_client, order.order_id)
    charge = dict(fake_stripe.objects.charges[fake_stripe.objects.intents[order.order_id]["latest_charge"]])
    charge.update(refunded=True, amount_refunded=charge["amount"])
    with after_commit():
        assert post_event(client, fake_stripe.event("charge.refunded", charge)).status_code == 200
    order.refresh_from_db()
    reservation.refresh_from_db()
    assert order.status == PaymentStatus.REFUNDED and order.provider_note == "Remboursée via Stripe."
    assert reservation.status == ReservationStatus.CANCELLED


# --- refunds --------------------------------------------------------------------------------------------------------


def test_a_cancelled_class_is_refunded_through_stripe_once(
    client, api_client, member, make_reservation, stripe_settings, fake_stripe, mailoutbox
):
    reservation = make_reservation(member, participants=1)
    order = open_stripe_order(member, reservation)
    fake_stripe.pay(order.order_id, payment_method="pm_card_visa")
    api_client.force_authenticate(member)
    assert _complete(api_client, order.order_id).status_code == 200
    with after_commit():
        course_session_cancel(session_id=reservation.session_id, reason="Professeure malade.")
    order.refresh_from_db()
    assert order.status == PaymentStatus.REFUNDED
    # The sweep, and Stripe's charge.refunded for our own refund, change nothing more.
    assert payment_orders_refund_cancelled_class() == 0
    with after_commit():
        post_event(client, last_event(fake_stripe, "charge.refunded", order.order_id))
    refunds = list(fake_stripe.objects.refunds.values())
    assert len(refunds) == 1 and refunds[0]["amount"] == 2500 and refunds[0]["payment_intent"] == order.order_id
    assert len(_refund_mails(mailoutbox)) == 1


# --- reconciliation -------------------------------------------------------------------------------------------------


def test_reconcile_confirms_a_payment_whose_answer_never_came(member, make_reservation, stripe_settings, fake_stripe):
    reservation = make_reservation(member)
    order = open_stripe_order(member, reservation)
    fake_stripe.pay(order.order_id, payment_method="pm_card_visa")
    later = timezone.now() + timedelta(minutes=10)
    with after_commit():
        counts = stripe_orders_reconcile(now=later)
    assert counts == {"completed": 1}
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    assert stripe_orders_reconcile(now=later) == {}


def test_reconcile_refunds_a_voided_order_paid_anyway(
    api_client, member, make_reservation, stripe_settings, fake_stripe
):
    """A second order replaced the first (another provider chosen), yet the first PaymentIntent was paid: refunded."""
    reservation = make_reservation(member)
    first = open_stripe_order(member, reservation)
    fake_stripe.pay(first.order_id, payment_method="pm_card_visa")
    PaymentOrder.objects.filter(pk=first.pk).update(status=PaymentStatus.VOIDED)
    with after_commit():
        counts = stripe_orders_reconcile(now=timezone.now() + timedelta(minutes=10))
    assert counts == {"refunded": 1}
    assert len(fake_stripe.objects.refunds) == 1


# --- deposits of quoted requests -------------------------------------------------------------------------------------


@pytest.fixture
def quoted_party(member, staff):
    party = PartyReservation.objects.create(
        user=member,
        date=timezone.localdate() + timedelta(days=20),
        time=time(16, 0),
        participants=8,
        email=member.email,
    )
    return parties.party_quote(party_id=party.pk, staff=staff, participants=8, spectators=2, deposit=Decimal("50.00"))


def test_a_deposit_paid_through_stripe_then_the_request_cancelled_is_refunded_through_stripe(
    api_client, member, quoted_party, stripe_settings, fake_stripe
):
    api_client.force_authenticate(member)
    body = {
        "kind": "party",
        "request_id": quoted_party.pk,
        "amount": "50.00",
        "provider": "stripe",
        "accept_terms": True,
    }
    created = api_client.post(DEPOSIT, body, format="json")
    assert created.status_code == 201, created.json()
    order_id = created.json()["id"]
    assert created.json()["provider"] == "stripe" and created.json()["clientSecret"]
    assert _intent_form(fake_stripe)["form"]["metadata[purpose]"] == "deposit"
    assert fake_stripe.objects.intents[order_id]["amount"] == 5000
    fake_stripe.pay(order_id, payment_method="pm_card_mastercard")
    assert _complete(api_client, order_id).status_code == 200
    quoted_party.refresh_from_db()
    assert quoted_party.deposit_paid_at is not None
    with after_commit():
        api_client.post(f"/api/evf-reservations/{quoted_party.pk}/cancel", format="json")
    order = PaymentOrder.objects.get(order_id=order_id)
    assert order.status == PaymentStatus.REFUNDED and order.refund_id.startswith("re_")
    assert [r["payment_intent"] for r in fake_stripe.objects.refunds.values()] == [order_id]


# --- what the staff see, and what the member cannot reach -----------------------------------------------------------


def test_disputes_are_shown_in_the_django_admin(client, staff, member, make_reservation, stripe_settings, fake_stripe):
    order = open_stripe_order(member, make_reservation(member))
    PaymentDispute.objects.create(
        dispute_id="du_test", order=order, amount=Decimal("50.00"), reason="fraudulent", intent_id=order.order_id
    )
    client.force_login(staff)
    listing = client.get("/django-admin/payments/paymentdispute/")
    assert listing.status_code == 200 and "du_test" in listing.content.decode()
    page = client.get(f"/django-admin/payments/paymentorder/{order.pk}/change/")
    assert page.status_code == 200 and "du_test" in page.content.decode()


def test_the_staff_order_detail_of_an_unknown_order_is_a_french_404(api_client, staff):
    api_client.force_authenticate(staff)
    response = api_client.get("/api/paypal/orders/pi_unknown")
    assert response.status_code == 404
    assert response.json()["error"] == "Cette commande de paiement est introuvable."


def test_complete_payment_knows_only_stripe_orders(api_client, member, card_tariff, stripe_settings, settings):
    settings.STRIPE_PUBLISHABLE_KEY = ""  # the simulator takes the order
    api_client.force_authenticate(member)
    order_id = api_client.post(CREATE, tariff_payload(card_tariff, member), format="json").json()["id"]
    assert PaymentOrder.objects.get(order_id=order_id).provider == "simulator"
    response = _complete(api_client, order_id)
    assert response.status_code == 404
    assert response.json()["error"] == "Cette commande de paiement est introuvable."
