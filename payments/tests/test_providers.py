"""Contract tests: the PayPal client against a local fake PayPal speaking Orders v2 JSON."""

import json
from decimal import Decimal

import pytest
from django.core.cache import cache

from payments.provider_types import CAPTURE_COMPLETED, CAPTURE_DECLINED, ProviderError
from payments.providers import PayPalProvider, get_provider
from payments.simulator import SimulatorProvider

from . import fake_paypal as fp


@pytest.fixture
def client(fake_paypal):
    return PayPalProvider(
        base_url=fake_paypal.url, client_id=fp.CLIENT_ID, client_secret=fp.CLIENT_SECRET, webhook_id=fp.WEBHOOK_ID
    )


def _create(client, amount="50.00"):
    return client.create_order(
        amount=Decimal(amount), currency="EUR", description="Pole Dance", reference="ref-1", request_id="create-ref-1"
    )


def test_token_is_fetched_once_and_reused_until_it_expires(client, fake_paypal):
    token = client.access_token()
    assert token.startswith("A21AA")
    assert client.access_token() == token
    _create(client)
    assert len(fake_paypal.calls("/v1/oauth2/token")) == 1
    token_call = fake_paypal.calls("/v1/oauth2/token")[0]
    assert token_call["headers"]["authorization"].startswith("Basic ")
    assert token_call["body"] == b"grant_type=client_credentials"

    cache.delete(client._token_key())  # what the cache does when expires_in (minus a minute) has passed
    assert client.access_token() != token
    assert len(fake_paypal.calls("/v1/oauth2/token")) == 2


def test_a_short_lived_token_is_not_cached(fake_paypal):
    fake_paypal.token_lifetime = 30  # under the one-minute safety margin
    client = PayPalProvider(base_url=fake_paypal.url, client_id=fp.CLIENT_ID, client_secret=fp.CLIENT_SECRET)
    client.access_token()
    client.access_token()
    assert len(fake_paypal.calls("/v1/oauth2/token")) == 2


def test_wrong_credentials_raise_a_provider_error(fake_paypal):
    client = PayPalProvider(base_url=fake_paypal.url, client_id=fp.CLIENT_ID, client_secret="wrong")
    with pytest.raises(ProviderError) as exc:
        _create(client)
    assert exc.value.status_code == 401


def test_an_expired_token_is_renewed_once(client, fake_paypal):
    client.access_token()
    fake_paypal.tokens.clear()  # PayPal revoked or expired it early
    order = _create(client)
    assert order.status == "CREATED"
    assert len(fake_paypal.calls("/v1/oauth2/token")) == 2


def test_create_order_sends_intent_capture_amount_and_request_id(client, fake_paypal):
    order = _create(client, "50.00")
    assert order.status == "CREATED" and order.id in fake_paypal.orders
    call = fake_paypal.calls("/v2/checkout/orders")[0]
    assert call["headers"]["paypal-request-id"] == "create-ref-1"
    body = json.loads(call["body"])
    assert body["intent"] == "CAPTURE"
    assert body["purchase_units"][0]["amount"] == {"currency_code": "EUR", "value": "50.00"}
    assert body["purchase_units"][0]["custom_id"] == "ref-1"


def test_create_repeated_with_the_same_request_id_gives_the_same_order(client, fake_paypal):
    assert _create(client).id == _create(client).id
    assert len(fake_paypal.orders) == 1


def test_capture_of_an_approved_order_completes(client, fake_paypal):
    order = _create(client, "75.00")
    fake_paypal.approve(order.id)
    result = client.capture_order(order_id=order.id, request_id=f"capture-{order.id}")
    assert result.order_status == "COMPLETED"
    assert result.capture_status == CAPTURE_COMPLETED
    assert result.capture_id
    assert result.amount == Decimal("75.00") and result.currency == "EUR"
    assert fake_paypal.calls("/capture")[0]["headers"]["paypal-request-id"] == f"capture-{order.id}"


def test_capture_retried_with_the_same_request_id_answers_the_first_capture(client, fake_paypal):
    order = _create(client)
    fake_paypal.approve(order.id)
    first = client.capture_order(order_id=order.id, request_id="capture-x")
    again = client.capture_order(order_id=order.id, request_id="capture-x")
    assert again.capture_id == first.capture_id
    assert not fake_paypal.calls(f"/v2/checkout/orders/{order.id}") or all(
        c["method"] == "POST" for c in fake_paypal.calls(f"/v2/checkout/orders/{order.id}")
    )


def test_order_already_captured_is_answered_by_reading_the_order(client, fake_paypal):
    order = _create(client)
    fake_paypal.approve(order.id)
    first = client.capture_order(order_id=order.id, request_id="capture-a")
    again = client.capture_order(order_id=order.id, request_id="capture-b")  # a new key: PayPal says 422
    assert again.capture_status == CAPTURE_COMPLETED
    assert again.capture_id == first.capture_id
    gets = [c for c in fake_paypal.calls(f"/v2/checkout/orders/{order.id}") if c["method"] == "GET"]
    assert len(gets) == 1


def test_declined_card_as_a_422_instrument_declined(client, fake_paypal):
    order = _create(client)
    fake_paypal.approve(order.id)
    fake_paypal.decline_next_capture(order.id, how="INSTRUMENT_DECLINED")
    result = client.capture_order(order_id=order.id, request_id="capture-1")
    assert result.capture_status == CAPTURE_DECLINED


def test_declined_card_as_a_declined_capture_status(client, fake_paypal):
    order = _create(client)
    fake_paypal.approve(order.id)
    fake_paypal.decline_next_capture(order.id, how="DECLINED")
    result = client.capture_order(order_id=order.id, request_id="capture-1")
    assert result.capture_status == CAPTURE_DECLINED
    assert result.order_status != "COMPLETED"


def test_capture_before_approval_is_refused(client, fake_paypal):
    order = _create(client)
    with pytest.raises(ProviderError) as exc:
        client.capture_order(order_id=order.id, request_id="capture-1")
    assert exc.value.issue == "ORDER_NOT_APPROVED" and exc.value.status_code == 422


def test_unreachable_paypal_is_a_provider_error(client, fake_paypal):
    fake_paypal.stop()
    with pytest.raises(ProviderError) as exc:
        _create(client)
    assert exc.value.status_code is None


WEBHOOK_HEADERS = {
    "PAYPAL-AUTH-ALGO": "SHA256withRSA",
    "PAYPAL-CERT-URL": "https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42",
    "PAYPAL-TRANSMISSION-ID": "69cd13f0-d67a-11e5-baa3-778b53f4ae55",
    "PAYPAL-TRANSMISSION-SIG": fp.VALID_SIGNATURE,
    "PAYPAL-TRANSMISSION-TIME": "2025-01-01T10:05:00Z",
}


def test_webhook_verification_asks_paypal(client, fake_paypal):
    event = {"id": "WH-1", "event_type": "PAYMENT.CAPTURE.COMPLETED", "resource": {}}
    assert client.verify_webhook(headers=WEBHOOK_HEADERS, event=event) is True
    body = json.loads(fake_paypal.calls("verify-webhook-signature")[0]["body"])
    assert body["webhook_id"] == fp.WEBHOOK_ID
    assert body["webhook_event"] == event
    assert body["transmission_sig"] == fp.VALID_SIGNATURE


def test_webhook_with_a_bad_signature_or_missing_headers_is_refused(client, fake_paypal):
    event = {"id": "WH-1", "event_type": "PAYMENT.CAPTURE.COMPLETED", "resource": {}}
    assert client.verify_webhook(headers={**WEBHOOK_HEADERS, "PAYPAL-TRANSMISSION-SIG": "forged"}, event=event) is False
    assert client.verify_webhook(headers={}, event=event) is False


def test_webhook_refused_without_a_configured_webhook_id(fake_paypal):
    client = PayPalProvider(base_url=fake_paypal.url, client_id=fp.CLIENT_ID, client_secret=fp.CLIENT_SECRET)
    assert client.verify_webhook(headers=WEBHOOK_HEADERS, event={"id": "x"}) is False


def test_the_simulator_is_used_without_credentials(settings):
    settings.PAYPAL_CLIENT_ID = ""
    assert isinstance(get_provider(), SimulatorProvider)
    settings.PAYPAL_CLIENT_ID = "id"
    settings.PAYPAL_CLIENT_SECRET = "secret"
    assert isinstance(get_provider(), PayPalProvider)


def test_sandbox_or_live_base_url_comes_from_settings(settings):
    settings.PAYPAL_CLIENT_ID = "id"
    settings.PAYPAL_CLIENT_SECRET = "secret"
    settings.PAYPAL_API_BASE = "https://api-m.paypal.com"
    assert get_provider().base_url == "https://api-m.paypal.com"


def test_requests_use_timeouts(client, fake_paypal, monkeypatch):
    seen = []
    original = client.session.request

    def spy(*args, **kwargs):
        seen.append(kwargs.get("timeout"))
        return original(*args, **kwargs)

    monkeypatch.setattr(client.session, "request", spy)
    _create(client)
    # every call has a timeout, never above TIMEOUT, and within what is left of the instance's budget
    assert seen and all(
        t and 0 < t[0] <= PayPalProvider.TIMEOUT[0] and 0 < t[1] <= PayPalProvider.TIMEOUT[1] for t in seen
    )


@pytest.mark.django_db
def test_simulator_behaves_like_orders_v2():
    sim = SimulatorProvider()
    order = sim.create_order(
        amount=Decimal("25.00"), currency="EUR", description="x", reference="r", request_id="create-r"
    )
    with pytest.raises(ProviderError) as exc:
        sim.capture_order(order_id=order.id, request_id="c")
    assert exc.value.issue == "ORDER_NOT_APPROVED"
    sim.approve_order(order_id=order.id, card_declined=True)
    assert sim.capture_order(order_id=order.id, request_id="c").capture_status == CAPTURE_DECLINED
    sim.approve_order(order_id=order.id, card_declined=False)
    first = sim.capture_order(order_id=order.id, request_id="c")
    assert first.capture_status == CAPTURE_COMPLETED and first.amount == Decimal("25.00")
    assert sim.capture_order(order_id=order.id, request_id="d").capture_id == first.capture_id
