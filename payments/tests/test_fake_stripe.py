"""The fake Stripe speaks Stripe's protocol as Stripe documents it, seen from the wire rather than through our gateway:
bracket-encoded forms, Bearer auth, Idempotency-Key replays, error objects, and signatures Stripe's library accepts."""

import json
from urllib.parse import parse_qsl

import pytest
import requests
import stripe

from . import fake_stripe as fs


@pytest.fixture
def fake():
    server = fs.FakeStripe().start()
    yield server
    server.stop()


def post(fake, path, data, *, key="", secret=fs.SECRET_KEY):
    headers = {"Authorization": f"Bearer {secret}"}
    if key:
        headers["Idempotency-Key"] = key
    return requests.post(f"{fake.url}{path}", data=data, headers=headers, timeout=5)


def test_bracket_notation_becomes_nested_objects_and_lists():
    form = "metadata[order]=7&payment_method_types[0]=card&payment_method_types[1]=sepa_debit&expand[]=latest_charge"
    form += "&mandate_data[customer_acceptance][online][ip_address]=192.0.2.1&automatic_payment_methods[enabled]=true"

    assert fs.parse_form(parse_qsl(form)) == {
        "metadata": {"order": "7"},
        "payment_method_types": ["card", "sepa_debit"],
        "expand": ["latest_charge"],
        "mandate_data": {"customer_acceptance": {"online": {"ip_address": "192.0.2.1"}}},
        "automatic_payment_methods": {"enabled": "true"},
    }


def test_a_request_without_the_secret_key_gets_a_401_error_object(fake):
    response = post(fake, "/v1/customers", {"email": "lea@example.fr"}, secret="sk_test_other")

    assert response.status_code == 401
    assert response.json()["error"]["type"] == "invalid_request_error"
    assert fake.objects.customers == {}


def test_an_unknown_object_is_a_404_resource_missing(fake):
    response = requests.get(
        f"{fake.url}/v1/payment_intents/pi_nope", headers={"Authorization": f"Bearer {fs.SECRET_KEY}"}, timeout=5
    )
    assert response.status_code == 404
    assert response.json()["error"] == {
        "type": "invalid_request_error",
        "code": "resource_missing",
        "param": "id",
        "message": "No such payment_intent: 'pi_nope'",
    }


def test_the_same_idempotency_key_replays_the_first_answer_and_refuses_another_body(fake):
    first = post(fake, "/v1/payment_intents", {"amount": "5500", "currency": "eur"}, key="k1")
    again = post(fake, "/v1/payment_intents", {"amount": "5500", "currency": "eur"}, key="k1")
    other = post(fake, "/v1/payment_intents", {"amount": "6000", "currency": "eur"}, key="k1")

    assert "Idempotent-Replayed" not in first.headers
    assert (again.json(), again.headers["Idempotent-Replayed"]) == (first.json(), "true")
    assert (other.status_code, other.json()["error"]["type"]) == (400, "idempotency_error")
    assert len(fake.objects.intents) == 1


def test_a_declined_card_is_a_402_card_error_carrying_the_payment_intent(fake):
    data = {"amount": "5500", "currency": "eur", "payment_method": "pm_card_chargeDeclined", "confirm": "true"}
    response = post(fake, "/v1/payment_intents", data)

    error = response.json()["error"]
    assert response.status_code == 402
    assert (error["type"], error["code"], error["decline_code"]) == ("card_error", "card_declined", "generic_decline")
    assert error["payment_intent"]["status"] == "requires_payment_method"
    assert error["payment_intent"]["last_payment_error"]["decline_code"] == "generic_decline"


def test_an_amount_under_fifty_cents_is_refused_as_stripe_does(fake):
    response = post(fake, "/v1/payment_intents", {"amount": "49", "currency": "eur"})
    assert (response.status_code, response.json()["error"]["code"]) == (400, "amount_too_small")


def test_webhook_signatures_are_the_ones_stripe_library_verifies(fake):
    payload = json.dumps(fake.event("payment_intent.succeeded", {"id": "pi_1"}))

    assert stripe.WebhookSignature.verify_header(payload, fs.sign(payload), fs.WEBHOOK_SECRET, tolerance=300)
    with pytest.raises(stripe.SignatureVerificationError):
        stripe.WebhookSignature.verify_header(payload, fs.sign(payload, secret="whsec_other"), fs.WEBHOOK_SECRET)


def test_events_are_stripe_envelopes(fake):
    event = fake.event("charge.refunded", {"id": "ch_1", "_behaviour": {}})

    assert event["id"].startswith("evt_") and event["object"] == "event"
    assert (event["type"], event["livemode"], event["api_version"]) == ("charge.refunded", False, stripe.api_version)
    assert event["data"] == {"object": {"id": "ch_1"}}
    assert isinstance(event["created"], int)
