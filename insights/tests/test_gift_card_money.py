"""A gift card's money is counted once in the owner's view (docs/decisions.md 60): its sale is money in (the bank
card paid it then); spending it later is not new money, so an order paid partly with a card counts only what the
provider took, and its refund only what the provider gave back (the card's part returns to the card)."""

from datetime import date
from decimal import Decimal

import pytest
from freezegun import freeze_time

from courses.tests.factories import TariffFactory
from insights.period import Period
from insights.selectors.money import money_stats
from payments.models import PaymentOrder, PaymentStatus
from payments.services.refunds import payment_order_refund
from payments.tests.conftest import after_commit, tariff_payload
from payments.tests.test_gift_card_orders import buy

pytestmark = pytest.mark.django_db

CREATE = "/api/paypal/create-order"
CAPTURE = "/api/paypal/capture-payment"
APPROVE = "/api/paypal/simulator/approve"
DECEMBER = Period(first_day=date(2026, 12, 1), last_day=date(2026, 12, 31))


def _spend(api_client, member, tariff, code) -> PaymentOrder:
    api_client.force_authenticate(member)
    created = api_client.post(CREATE, tariff_payload(tariff, member, gift_card_code=code), format="json")
    assert created.status_code == 201, created.json()
    order_id = created.json()["id"]
    assert api_client.post(APPROVE, {"orderId": order_id}, format="json").status_code == 200
    with after_commit():
        assert api_client.post(CAPTURE, {"orderId": order_id}, format="json").status_code == 200
    return PaymentOrder.objects.get(order_id=order_id)


def test_a_card_bought_then_spent_counts_its_money_once(api_client, member, other_member):
    tariff = TariffFactory(title="Carte 10 cours", price=Decimal("190.00"), type="forfait")
    api_client.force_authenticate(member)
    with freeze_time("2026-12-01 10:00:00"):
        bought = buy(api_client, amount="100.00", recipient_email=other_member.email)
    with freeze_time("2026-12-10 10:00:00"):
        spent = _spend(api_client, other_member, tariff, bought.purchased_gift_card.code)
    assert (spent.amount, spent.gift_card_amount, spent.status) == (
        Decimal("190.00"),
        Decimal("100.00"),
        PaymentStatus.COMPLETED,
    )
    with freeze_time("2026-12-20 10:00:00"):
        stats = money_stats(period=DECEMBER, today=date(2026, 12, 20))
    # 100 € when the card was sold, 90 € by bank card when it was spent: 190 € came in, not 290 €.
    assert stats["money_in"]["current"] == Decimal("190.00")
    assert stats["card_payments"]["current"] == Decimal("190.00")
    assert sum(row["money_in"] for row in stats["series"]) == Decimal("190.00")
    assert stats["card_payments"]["current_count"] == 2

    PaymentOrder.objects.filter(pk=spent.pk).update(status=PaymentStatus.REFUND_PENDING)
    with freeze_time("2026-12-21 10:00:00"):
        assert payment_order_refund(order_id=spent.order_id).status == PaymentStatus.REFUNDED
        stats = money_stats(period=DECEMBER, today=date(2026, 12, 21))
    # The provider gave back its 90 €; the card's 100 € went back onto the card, no money out.
    assert stats["refunds"]["current"] == Decimal("90.00")
    assert sum(row["refunds"] for row in stats["series"]) == Decimal("90.00")
