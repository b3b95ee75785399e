"""Paying the way a member does (the API, the simulator), and reading a PDF back."""

from io import BytesIO

from pypdf import PdfReader

from payments.models import PaymentOrder
from payments.tests.conftest import reservation_payload, tariff_payload
from payments.tests.test_attacks_money import approve, capture

CREATE = "/api/paypal/create-order"


def pay_reservation(api_client, member, reservation) -> PaymentOrder:
    api_client.force_authenticate(member)
    order_id = api_client.post(CREATE, reservation_payload(reservation), format="json").json()["id"]
    approve(api_client, order_id)
    assert capture(api_client, order_id).status_code == 200
    return PaymentOrder.objects.get(order_id=order_id)


def pay_tariff(api_client, member, tariff, quantity=1, **overrides) -> PaymentOrder:
    api_client.force_authenticate(member)
    response = api_client.post(CREATE, tariff_payload(tariff, member, quantity, **overrides), format="json")
    assert response.status_code in (200, 201), response.json()
    order_id = response.json()["id"]
    approve(api_client, order_id)
    assert capture(api_client, order_id).status_code == 200
    return PaymentOrder.objects.get(order_id=order_id)


def pdf_text(content: bytes) -> str:
    reader = PdfReader(BytesIO(content))
    return "\n".join(page.extract_text() for page in reader.pages)
