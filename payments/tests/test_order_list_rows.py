"""The staff's payment orders list, row by row: each row as the dashboard reads it, written here from the orders
themselves (amounts as text with two decimals, dates in Paris time, nulls), filtered, searched, sorted and paged."""

from decimal import Decimal

import pytest
from django.utils import timezone

from payments.models import PaymentOrder, PaymentStatus

pytestmark = pytest.mark.django_db

ORDERS = "/api/paypal/orders"


def _row(order: PaymentOrder) -> dict:
    """A row as the dashboard's orders list reads it."""
    return {
        "order_id": order.order_id,
        "provider": order.provider,
        "email": order.email,
        "first_name": order.first_name,
        "last_name": order.last_name,
        "title": order.title,
        "amount": f"{order.amount:.2f}",
        "currency": order.currency,
        "date": order.date,
        "time": order.time,
        "type": order.type,
        "status": order.status,
        "message": order.message,
        "quantity": order.quantity,
        "reservation_id": order.reservation_id,
        "tariff_id": order.tariff_id,
        "payment_method": order.payment_method,
        "payment_method_label": order.payment_method_label,
        "capture_id": order.capture_id,
        "provider_note": order.provider_note,
        "created_at": timezone.localtime(order.created_at).isoformat(),
        "completed_at": timezone.localtime(order.completed_at).isoformat() if order.completed_at else None,
    }


def _studio() -> None:
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
        payment_method="card",
        payment_method_label="Carte •••• 4242 (CB)",
        completed_at=timezone.now(),
        message="Merci",
        provider_note="ok",
    )
    PaymentOrder.objects.create(
        order_id="C-3", email="c@example.fr", title="Zéro", amount=Decimal("0.00"), date="", quantity=3
    )


def _expected(*, key=lambda o: (o.created_at, o.pk), reverse=True, keep=lambda o: True) -> list[dict]:
    return [_row(o) for o in sorted(filter(keep, PaymentOrder.objects.all()), key=key, reverse=reverse)]


def test_each_order_row_is_the_order_as_staff_read_it(api_client, staff):
    _studio()
    api_client.force_authenticate(staff)
    newest_first = _expected()
    for query, rows in (
        ({}, newest_first),
        ({"ordering": "amount"}, _expected(key=lambda o: (o.amount, o.pk), reverse=False)),
        ({"status": "COMPLETED"}, _expected(keep=lambda o: o.status == PaymentStatus.COMPLETED)),
        ({"search": "carte"}, _expected(keep=lambda o: "carte" in o.title.lower())),
        ({"page_size": 1, "page": 2}, newest_first),
    ):
        body = api_client.get(ORDERS, query).json()
        page, size = query.get("page", 1), query.get("page_size", 10)
        assert body["count"] == len(rows)
        assert body["results"] == rows[(page - 1) * size : page * size]
        assert list(body["results"][0]) == list(rows[0])  # the same fields in the same order
    assert newest_first[0]["order_id"] == "C-3" and newest_first[1]["amount"] == "12.50"


def test_the_pagination_envelope(api_client, staff):
    _studio()
    api_client.force_authenticate(staff)
    body = api_client.get(ORDERS, {"page_size": 1, "page": 2, "ordering": "amount"}).json()
    assert list(body) == ["count", "next", "previous", "results"]
    assert body["count"] == 3
    assert body["next"] == "http://testserver/api/paypal/orders?ordering=amount&page=3&page_size=1"
    assert body["previous"] == "http://testserver/api/paypal/orders?ordering=amount&page_size=1"
    assert api_client.get(ORDERS, {"page": 2}).status_code == 404


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ({"ordering": "x"}, "ordering", "Tri inconnu."),
        ({"ordering": ""}, "ordering", "Tri inconnu."),
        ({"status": "x"}, "status", "Statut de paiement inconnu."),
        ({"page": "0"}, "page", "Numéro de page invalide."),
        ({"page": ""}, "page", "Numéro de page invalide."),
        ({"page_size": "101"}, "page_size", "La taille de page doit être un nombre entre 1 et 100."),
    ],
)
def test_a_query_out_of_bounds_is_refused_in_french(api_client, staff, query, field, message):
    api_client.force_authenticate(staff)
    response = api_client.get(ORDERS, query)
    assert response.status_code == 400
    assert response.json()["error"] == message and response.json()["errors"][field] == [message]
