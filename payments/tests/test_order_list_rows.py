"""The staff's payment orders list builds its rows from `.values()` rows and compiled queries; each row is
exactly what PaymentOrderOutput writes (amounts as text with two decimals, dates in Paris time, nulls)."""

import json
from decimal import Decimal

import pytest
from django.utils import timezone

from payments.apis.staff import PaymentOrderOutput
from payments.models import PaymentOrder, PaymentStatus
from payments.selectors import payment_orders_for_staff
from studio import compiled_queries

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_templates():
    compiled_queries.clear()


def test_each_order_row_is_what_payment_order_output_writes(api_client, staff):
    PaymentOrder.objects.create(order_id="A-1", email="a@example.fr", title="Carte", amount=Decimal("190"), date="x")
    PaymentOrder.objects.create(
        order_id="B-2",
        email="b@example.fr",
        first_name="Léa",
        last_name="Petit",
        title="Cours",
        amount=Decimal("12.50"),
        date="2026-03-01",
        status=PaymentStatus.COMPLETED,
        capture_id="CAP-1",
        completed_at=timezone.now(),
        message="Merci",
        provider_note="ok",
    )
    PaymentOrder.objects.create(
        order_id="C-3", email="c@example.fr", title="Zéro", amount=Decimal("0.00"), date="", quantity=3
    )
    api_client.force_authenticate(staff)
    for query in (
        {},
        {"ordering": "amount"},
        {"status": "COMPLETED"},
        {"search": "carte"},
        {"page_size": 1, "page": 2},
    ):
        for _ in range(2):  # compiled, then from the kept SQL
            body = api_client.get("/api/paypal/orders", query).json()
            qs = payment_orders_for_staff(
                ordering=query.get("ordering", "-created"),
                status=query.get("status", ""),
                search=query.get("search", ""),
            )
            size, page = query.get("page_size", 10), query.get("page", 1)
            expected = json.loads(json.dumps(PaymentOrderOutput(qs[(page - 1) * size : page * size], many=True).data))
            assert body["count"] == qs.count() and body["results"] == expected
            assert list(body["results"][0]) == list(expected[0])
