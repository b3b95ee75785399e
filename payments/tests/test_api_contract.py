"""The payment APIs' typed boundary: rubbish is a French 400 naming the field, conflicts are 409 with a
code, and every answer has the shape the OpenAPI schema gives it."""

from decimal import Decimal

import pytest

from payments.apis.simulator import MSG_OUTCOME_INVALID
from payments.apis.staff import MSG_CURRENCY_INVALID, MSG_ORDERING_INVALID, MSG_PAGE_INVALID, MSG_PAGE_SIZE_INVALID
from payments.apis.webhooks import MSG_WEBHOOK_INVALID
from payments.models import PaymentOrder, PaymentStatus
from payments.services.common import (
    MSG_AMOUNT_INVALID,
    MSG_EMAIL_INVALID,
    MSG_INCOMPLETE,
    MSG_NOT_APPROVED,
    MSG_ORDER_ID_TAKEN,
    MSG_ORDER_NOT_FOUND,
    MSG_QUANTITY,
    MSG_REQUIRED_FIELDS,
    MSG_RESERVATION_NOT_FOUND,
    MSG_STATUS_INVALID,
    MSG_TARIFF_NOT_FOUND,
)
from payments.services.orders import MAX_QUANTITY
from studio.parsers import MSG_TEXT_TOO_LONG

from .conftest import reservation_payload, tariff_payload

pytestmark = pytest.mark.django_db

CREATE = "/api/paypal/create-order"
CAPTURE = "/api/paypal/capture-payment"
CANCEL = "/api/paypal/cancel-order"
APPROVE = "/api/paypal/simulator/approve"
WEBHOOK = "/api/paypal/webhook"
ORDERS = "/api/paypal/orders"


def _post(api_client, path, payload):
    return api_client.post(path, payload, format="json")


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"first_name": "   "}, MSG_INCOMPLETE),
        ({"title": 12}, MSG_INCOMPLETE),
        ({"amount": "12.345"}, MSG_INCOMPLETE),
        ({"amount": True}, MSG_INCOMPLETE),
        ({"reservation_id": "abc"}, MSG_RESERVATION_NOT_FOUND),
        ({"reservation_id": 0}, MSG_RESERVATION_NOT_FOUND),
        ({"email": "zoe@studio.a"}, MSG_EMAIL_INVALID),
        ({"email": "z" * 65 + "@studio.fr"}, MSG_EMAIL_INVALID),
        ({"quantity": "beaucoup"}, MSG_QUANTITY.format(max=MAX_QUANTITY)),
        ({"message": "m" * 2001}, MSG_TEXT_TOO_LONG.format(max_length=2000)),
        ({"date": "d\x00"}, None),
    ],
)
def test_create_order_refuses_rubbish_with_a_french_400(api_client, member, make_reservation, overrides, message):
    reservation = make_reservation(member)
    api_client.force_authenticate(member)
    response = _post(api_client, CREATE, reservation_payload(reservation, **overrides))
    assert response.status_code == 400, response.json()
    body = response.json()
    field = next(iter(overrides))
    assert field in body["errors"]
    if message:
        assert body["error"] == message
    assert not PaymentOrder.objects.exists()


def test_create_order_takes_the_amount_as_the_widget_sends_it_a_string(api_client, member, card_tariff):
    api_client.force_authenticate(member)
    number = _post(api_client, CREATE, tariff_payload(card_tariff, member, amount=190))
    assert number.status_code == 400 and number.json()["error"] == MSG_INCOMPLETE
    response = _post(api_client, CREATE, tariff_payload(card_tariff, member, amount="190.00"))
    assert response.status_code == 201
    assert response.json() == {
        "id": PaymentOrder.objects.get().order_id,
        "status": "CREATED",
        "amount": "190.00",
        "currency": "EUR",
        "provider": "simulator",
    }


def test_a_refused_create_order_says_its_code(api_client, member, card_tariff):
    api_client.force_authenticate(member)
    mismatch = _post(api_client, CREATE, tariff_payload(card_tariff, member, amount="1.00"))
    assert mismatch.status_code == 409 and mismatch.json()["code"] == "amount_mismatch"
    missing = _post(api_client, CREATE, tariff_payload(card_tariff, member, tariff_id=2**31 - 1))
    assert missing.status_code == 404 and missing.json()["code"] == "tariff_not_found"
    assert missing.json()["error"] == MSG_TARIFF_NOT_FOUND


@pytest.mark.parametrize("path", [CAPTURE, CANCEL, APPROVE])
def test_an_order_id_that_is_no_id_is_a_400(api_client, member, path):
    api_client.force_authenticate(member)
    for payload in ({}, {"orderId": ""}, {"orderId": "x" * 65}, {"orderId": 0}):
        response = _post(api_client, path, payload)
        assert response.status_code == 400 and response.json()["error"] == MSG_ORDER_NOT_FOUND
    unknown = _post(api_client, path, {"orderId": "INCONNU"})
    assert unknown.status_code == 404 and unknown.json()["code"] == "order_not_found"


def test_the_simulated_outcome_is_approve_or_decline(api_client, member, card_tariff):
    api_client.force_authenticate(member)
    order_id = _post(api_client, CREATE, tariff_payload(card_tariff, member)).json()["id"]
    response = _post(api_client, APPROVE, {"orderId": order_id, "outcome": "peut-être"})
    assert response.status_code == 400 and response.json()["error"] == MSG_OUTCOME_INVALID
    assert PaymentOrder.objects.get().status == PaymentStatus.CREATED
    assert _post(api_client, APPROVE, {"orderId": order_id, "outcome": "decline"}).json() == {
        "id": order_id,
        "status": "APPROVED",
    }


def test_a_capture_refusal_says_its_code_and_the_order(api_client, member, card_tariff):
    api_client.force_authenticate(member)
    order_id = _post(api_client, CREATE, tariff_payload(card_tariff, member)).json()["id"]
    response = _post(api_client, CAPTURE, {"orderId": order_id})
    assert response.status_code == 402
    assert response.json() == {
        "error": MSG_NOT_APPROVED,
        "message": MSG_NOT_APPROVED,
        "code": "payment_not_completed",
        "id": order_id,
        "status": "CREATED",
        "amount": "190.00",
        "currency": "EUR",
        "title": card_tariff.title,
    }


def test_a_capture_answers_the_paid_order(api_client, member, card_tariff):
    api_client.force_authenticate(member)
    order_id = _post(api_client, CREATE, tariff_payload(card_tariff, member)).json()["id"]
    _post(api_client, APPROVE, {"orderId": order_id})
    response = _post(api_client, CAPTURE, {"orderId": order_id})
    assert response.status_code == 200
    assert response.json() == {
        "id": order_id,
        "status": "COMPLETED",
        "amount": "190.00",
        "currency": "EUR",
        "title": card_tariff.title,
    }


def test_a_webhook_body_that_is_not_a_json_object_is_a_400(api_client):
    for body in (b"[1, 2]", b"{pas du json"):
        response = api_client.post(WEBHOOK, body, content_type="application/json")
        assert response.status_code == 400 and response.json()["error"] == MSG_WEBHOOK_INVALID


def _staff_payload(**overrides):
    payload = {
        "order_id": "MANUAL-1",
        "email": "client@example.fr",
        "title": "Carte 10 cours",
        "amount": "190.00",
        "date": "2025-01-10",
        "time": "18:30",
        "currency": "EUR",
        "type": "",
        "status": "",
        "message": "",
    }
    payload.update(overrides)
    return payload


def test_staff_order_takes_what_the_dashboard_sends(api_client, staff):
    api_client.force_authenticate(staff)
    created = _post(api_client, ORDERS, _staff_payload())
    assert created.status_code == 201, created.json()
    order = PaymentOrder.objects.get()
    assert order.status == PaymentStatus.CREATED and order.type == "UNKNOWN" and order.amount == Decimal("190.00")
    assert created.json()["status"] == "CREATED" and created.json()["reservation_id"] is None


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"currency": "USD"}, MSG_CURRENCY_INVALID),
        ({"amount": "-1"}, MSG_AMOUNT_INVALID),
        ({"amount": "95.555"}, MSG_AMOUNT_INVALID),
        ({"title": "t" * 201}, MSG_TEXT_TOO_LONG.format(max_length=200)),
        ({"date": "   "}, MSG_REQUIRED_FIELDS),
        ({"status": "PAID"}, MSG_STATUS_INVALID),
    ],
)
def test_staff_order_rubbish_is_a_french_400(api_client, staff, overrides, message):
    api_client.force_authenticate(staff)
    response = _post(api_client, ORDERS, _staff_payload(**overrides))
    assert response.status_code == 400 and response.json()["error"] == message
    assert not PaymentOrder.objects.exists()


def test_a_taken_order_id_is_a_conflict(api_client, staff):
    api_client.force_authenticate(staff)
    assert _post(api_client, ORDERS, _staff_payload()).status_code == 201
    again = _post(api_client, ORDERS, _staff_payload())
    assert again.status_code == 409 and again.json()["error"] == MSG_ORDER_ID_TAKEN


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"ordering": "prix"}, MSG_ORDERING_INVALID),
        ({"status": "PAID"}, MSG_STATUS_INVALID),
        ({"page": "abc"}, MSG_PAGE_INVALID),
        ({"page": 0}, MSG_PAGE_INVALID),
        ({"page_size": 500}, MSG_PAGE_SIZE_INVALID),
        ({"page": ""}, MSG_PAGE_INVALID),
        ({"ordering": ""}, MSG_ORDERING_INVALID),
    ],
)
def test_staff_list_query_rubbish_is_a_french_400(api_client, staff, query, message):
    api_client.force_authenticate(staff)
    response = api_client.get(ORDERS, query)
    assert response.status_code == 400 and response.json()["error"] == message


def test_an_order_id_with_a_slash_is_answered_in_json(api_client, staff):
    api_client.force_authenticate(staff)
    for path in (f"{ORDERS}/A%2FB", f"{ORDERS}/A%0AB"):
        response = api_client.delete(path)
        assert response.status_code == 404 and response.json()["error"] == MSG_ORDER_NOT_FOUND
    assert _post(api_client, ORDERS, _staff_payload(order_id="A/B")).status_code == 201
    assert (
        api_client.put(f"{ORDERS}/A/B", _staff_payload(order_id="A/B", amount="10.00"), format="json").status_code
        == 200
    )
    assert PaymentOrder.objects.get(order_id="A/B").amount == Decimal("10.00")


def test_staff_list_past_the_last_page_is_a_404(api_client, staff):
    api_client.force_authenticate(staff)
    assert api_client.get(ORDERS, {"status": "", "search": "  "}).json()["count"] == 0
    assert api_client.get(ORDERS, {"page": 2}).status_code == 404
