import pytest

from bookings.models import ReservationStatus
from payments import seed
from payments.models import PaymentOrder, PaymentStatus

from .conftest import reservation_payload
from .test_apis import CAPTURE, _create, _simulate_buyer

pytestmark = pytest.mark.django_db


def test_seed_is_idempotent(member, make_reservation, card_tariff, settings, monkeypatch):
    monkeypatch.setattr(seed, "DEMO_MEMBER_EMAIL", member.email)
    reservation = make_reservation(member, status="confirmed")
    seed.run()
    seed.run()
    assert PaymentOrder.objects.count() == 2
    assert PaymentOrder.objects.get(reservation=reservation).amount == reservation.total_amount


def test_seeding_again_keeps_a_booking_the_member_paid_for(api_client, member, make_reservation, monkeypatch):
    """The demo member books and pays on the running site, then `make run` seeds again: their own order stays the
    reservation's only order and seeding does not fail on it."""
    monkeypatch.setattr(seed, "DEMO_MEMBER_EMAIL", member.email)
    reservation = make_reservation(member)
    api_client.force_authenticate(member)
    order_id = _create(api_client, reservation_payload(reservation)).json()["id"]
    _simulate_buyer(api_client, order_id)
    assert api_client.post(CAPTURE, {"orderId": order_id}, format="json").status_code == 200

    for _ in range(3):
        seed.run()

    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    (order,) = PaymentOrder.objects.filter(reservation=reservation)
    assert order.order_id == order_id and order.status == PaymentStatus.COMPLETED
