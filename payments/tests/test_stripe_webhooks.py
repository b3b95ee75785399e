"""Stripe's webhooks: signed deliveries verified with the endpoint secret (forged, altered or stale ones refused), the
events we use read into typed records, and production refusing a secret key without a webhook secret."""

import json
import os
import subprocess
import sys
import threading
import time
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from payments.provider_types import (
    CAPTURE_ACTION_REQUIRED,
    CAPTURE_COMPLETED,
    CAPTURE_DECLINED,
    CAPTURE_PENDING,
    ProviderError,
)
from payments.stripe_events import (
    DisputeEvent,
    IgnoredEvent,
    MandateEvent,
    PaymentEvent,
    RefundEvent,
    SetupEvent,
    parse_event,
)
from payments.stripe_gateway import StripeGateway

from . import fake_stripe as fs

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fake():
    server = fs.FakeStripe().start()
    yield server
    server.stop()


@pytest.fixture
def gateway(fake):
    return StripeGateway(
        secret_key=fs.SECRET_KEY, api_base=fake.url, webhook_secret=fs.WEBHOOK_SECRET, max_network_retries=0
    )


@pytest.fixture
def endpoint(gateway):
    """Our webhook endpoint reduced to its check: it verifies each delivery and keeps what it read (or refused)."""
    received = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            payload = self.rfile.read(int(self.headers["Content-Length"]))
            try:
                received.append(gateway.verify_webhook(payload=payload, signature=self.headers["Stripe-Signature"]))
                status = 200
            except ProviderError as exc:
                received.append(exc)
                status = 400
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    host, port = server.server_address
    yield f"http://{host}:{port}/stripe/webhook", received
    server.shutdown()
    server.server_close()


def refused(gateway, payload: str, signature: str) -> ProviderError:
    with pytest.raises(ProviderError) as exc:
        gateway.verify_webhook(payload=payload.encode(), signature=signature)
    assert exc.value.issue == "signature"
    return exc.value


def paid_intent(gateway, fake, payment_method="pm_card_visa"):
    start = gateway.start_payment(amount=Decimal("55.00"), order_ref=f"order-{len(fake.objects.intents) + 1}")
    fake.pay(start.id, payment_method=payment_method)
    return start.id


# --- signatures ------------------------------------------------------------------------------------------------------


def test_a_signed_delivery_is_read(gateway, fake, endpoint):
    url, received = endpoint
    intent_id = paid_intent(gateway, fake)

    response = fake.deliver(fake.events_of("payment_intent.succeeded")[0], url=url)

    assert response.status_code == 200
    assert received == [
        PaymentEvent(
            event_id=received[0].event_id,
            type="payment_intent.succeeded",
            intent_id=intent_id,
            status=CAPTURE_COMPLETED,
            amount=Decimal("55.00"),
            charge_id=fake.objects.intents[intent_id]["latest_charge"],
            metadata={"order": "order-1"},
        )
    ]
    assert received[0].event_id.startswith("evt_")


def test_a_delivery_signed_with_another_secret_is_refused(gateway, fake, endpoint):
    url, received = endpoint
    response = fake.deliver("payment_intent.succeeded", {"id": "pi_forged"}, url=url, secret="whsec_forged")
    assert response.status_code == 400 and isinstance(received[0], ProviderError)


def test_a_signature_older_than_the_tolerance_is_refused_as_a_replay(gateway, fake):
    payload = json.dumps(fake.event("payment_intent.succeeded", {"id": "pi_1", "amount": 5500}))

    refused(gateway, payload, fs.sign(payload, timestamp=int(time.time()) - 600))
    assert gateway.verify_webhook(payload=payload.encode(), signature=fs.sign(payload, timestamp=int(time.time()) - 60))


def test_a_genuine_signature_replayed_with_another_body_is_refused(gateway, fake):
    genuine = json.dumps(fake.event("payment_intent.payment_failed", {"id": "pi_1", "amount": 5500}))
    altered = json.dumps(fake.event("payment_intent.succeeded", {"id": "pi_1", "amount": 5500}))

    refused(gateway, altered, fs.sign(genuine))


def test_a_delivery_without_signature_or_without_our_secret_is_refused(fake):
    payload = json.dumps(fake.event("payment_intent.succeeded", {"id": "pi_1"}))
    unset = StripeGateway(secret_key=fs.SECRET_KEY, api_base=fake.url, webhook_secret="", max_network_retries=0)

    refused(unset, payload, fs.sign(payload))
    refused(StripeGateway(secret_key=fs.SECRET_KEY, webhook_secret=fs.WEBHOOK_SECRET), payload, "")


# --- the events we use -----------------------------------------------------------------------------------------------


def test_payment_events_carry_our_status_and_a_french_decline(gateway, fake):
    intent_id = paid_intent(gateway, fake, "pm_card_authenticationRequired")
    fake.complete_3ds(intent_id, succeed=False)
    declined = paid_intent(gateway, fake, "pm_card_visa_chargeDeclinedInsufficientFunds")

    action, failed, insufficient = (parse_event(e) for e in fake.events)

    assert (action.type, action.status) == ("payment_intent.requires_action", CAPTURE_ACTION_REQUIRED)
    assert (failed.status, failed.decline_code) == (CAPTURE_DECLINED, "payment_intent_authentication_failure")
    assert (insufficient.intent_id, insufficient.decline_code, insufficient.message) == (
        declined,
        "insufficient_funds",
        "Fonds insuffisants.",
    )


def test_a_sepa_debit_is_processing_then_succeeded_or_failed(gateway, fake):
    customer = gateway.create_customer(member_ref="7", email="lea@example.fr", name="Léa Martin")
    statuses = []
    for iban, ref in (("FR1420041010050500013M02606", "ok"), ("FR8420041010050500013M02607", "ko")):
        setup = gateway.start_saving(customer_id=customer.id, kind="sepa_debit", setup_ref=ref)
        fake.save(setup.id, iban=iban)
        saving = gateway.get_saving(setup_intent_id=setup.id)
        charge = gateway.charge_saved_method(
            amount=Decimal("49.00"),
            charge_ref=ref,
            customer_id=customer.id,
            payment_method_id=saving.payment_method_id,
            kind="sepa_debit",
            mandate_id=saving.mandate_id,
        )
        fake.settle_sepa(charge.id)
    for event in fake.events:
        record = parse_event(event)
        statuses.append((record.type, record.status))

    assert statuses == [
        ("setup_intent.succeeded", CAPTURE_COMPLETED),
        ("payment_intent.processing", CAPTURE_PENDING),
        ("payment_intent.succeeded", CAPTURE_COMPLETED),
        ("setup_intent.succeeded", CAPTURE_COMPLETED),
        ("payment_intent.processing", CAPTURE_PENDING),
        ("payment_intent.payment_failed", CAPTURE_DECLINED),
    ]


def test_setup_events_carry_the_saved_method_and_its_mandate(gateway, fake):
    customer = gateway.create_customer(member_ref="7", email="lea@example.fr", name="Léa Martin")
    setup = gateway.start_saving(customer_id=customer.id, kind="sepa_debit", setup_ref="s1")
    fake.save(setup.id, iban="FR1420041010050500013M02606")
    card = gateway.start_saving(customer_id=customer.id, kind="card", setup_ref="s2")
    fake.save(card.id, payment_method="pm_card_authenticationRequired")
    fake.complete_3ds(card.id, succeed=False)

    saved, failed = (parse_event(e) for e in fake.events)

    assert isinstance(saved, SetupEvent) and saved.setup_intent_id == setup.id
    assert (saved.customer_id, saved.mandate_id) == (customer.id, fake.objects.setups[setup.id]["mandate"])
    assert saved.payment_method_id.startswith("pm_")
    assert (failed.type, failed.status) == ("setup_intent.setup_failed", CAPTURE_DECLINED)
    assert failed.message == "La vérification demandée par votre banque (3-D Secure) n'a pas abouti."


def test_refund_dispute_and_mandate_events(gateway, fake):
    intent_id = paid_intent(gateway, fake)
    gateway.refund(intent_id=intent_id, refund_ref="1", amount=Decimal("20.00"))
    charge_id = fake.objects.intents[intent_id]["latest_charge"]
    dispute = fake.objects.dispute(charge_id)
    mandate = {"id": "mandate_1", "object": "mandate", "status": "inactive", "payment_method": "pm_1"}

    refund = parse_event(fake.events_of("charge.refunded")[0])
    disputed = parse_event(fake.events_of("charge.dispute.created")[0])
    revoked = parse_event(fake.event("mandate.updated", mandate))

    assert refund == RefundEvent(
        event_id=refund.event_id,
        type="charge.refunded",
        charge_id=charge_id,
        intent_id=intent_id,
        amount_refunded=Decimal("20.00"),
        fully_refunded=False,
    )
    assert disputed == DisputeEvent(
        event_id=disputed.event_id,
        type="charge.dispute.created",
        dispute_id=dispute["id"],
        charge_id=charge_id,
        intent_id=intent_id,
        amount=Decimal("55.00"),
        reason="general",
    )
    assert revoked == MandateEvent(
        event_id=revoked.event_id,
        type="mandate.updated",
        mandate_id="mandate_1",
        status="inactive",
        payment_method_id="pm_1",
    )


def test_a_disputed_sepa_test_iban_sends_a_dispute_after_the_debit(gateway, fake):
    customer = gateway.create_customer(member_ref="7", email="lea@example.fr", name="Léa Martin")
    setup = gateway.start_saving(customer_id=customer.id, kind="sepa_debit", setup_ref="s1")
    fake.save(setup.id, iban="FR5720041010050500013M02608")
    method = gateway.get_saving(setup_intent_id=setup.id).payment_method_id
    charge = gateway.charge_saved_method(
        amount=Decimal("49.00"), charge_ref="c1", customer_id=customer.id, payment_method_id=method, kind="sepa_debit"
    )
    fake.settle_sepa(charge.id)

    assert [e["type"] for e in fake.events][-2:] == ["payment_intent.succeeded", "charge.dispute.created"]


def test_an_event_we_do_not_use_is_ignored_not_an_error(fake):
    event = fake.event("customer.updated", {"id": "cus_1"})
    assert parse_event(event) == IgnoredEvent(event_id=event["id"], type="customer.updated")


# --- production settings ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("webhook_secret", "refused"), [("", True), ("whsec_live", False)])
def test_production_refuses_a_stripe_secret_key_without_a_webhook_secret(webhook_secret, refused):
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("STRIPE_")},
        "DJANGO_SECRET_KEY": "a-long-random-production-secret-key-for-the-check-0123456789",
        "DJANGO_ALLOWED_HOSTS": "studio.example.fr",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
        "STRIPE_SECRET_KEY": "sk_live_studio",
        "STRIPE_WEBHOOK_SECRET": webhook_secret,
    }
    result = subprocess.run(
        [sys.executable, "-c", "import studio.settings.production"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (result.returncode != 0) is refused, result.stderr
    assert ("STRIPE_WEBHOOK_SECRET is required" in result.stderr) is refused
