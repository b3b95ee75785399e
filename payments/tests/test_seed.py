import pytest

from payments import seed
from payments.models import PaymentOrder

pytestmark = pytest.mark.django_db


def test_seed_is_idempotent(member, make_reservation, card_tariff, settings, monkeypatch):
    monkeypatch.setattr(seed, "DEMO_MEMBER_EMAIL", member.email)
    reservation = make_reservation(member, status="confirmed")
    seed.run()
    seed.run()
    assert PaymentOrder.objects.count() == 2
    assert PaymentOrder.objects.get(reservation=reservation).amount == reservation.total_amount
