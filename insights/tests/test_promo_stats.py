"""The owner's view counts each promo code's uses and revenue in the period (docs/decisions.md 60)."""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from insights.period import Period
from insights.selectors.promo import promo_code_stats
from payments.models import PaymentOrder, PaymentStatus
from payments.tests.test_order_offers import make_code

pytestmark = pytest.mark.django_db
PARIS = ZoneInfo("Europe/Paris")


def _order(n, promo, status, day, amount="161.50", discount="28.50"):
    return PaymentOrder.objects.create(
        order_id=f"O{n}",
        email="a@example.fr",
        title="Carte 10 cours",
        amount=Decimal(amount),
        discount_amount=Decimal(discount),
        date="d",
        promo_code=promo,
        status=status,
        completed_at=datetime(2026, 3, day, 12, tzinfo=PARIS) if status != PaymentStatus.CREATED else None,
    )


def test_each_code_counts_its_paid_orders_and_revenue_in_one_query(django_assert_num_queries):
    spring, summer = make_code("PRINTEMPS15"), make_code("ETE", kind="amount", value="10")
    _order(1, spring, PaymentStatus.COMPLETED, 3)
    _order(2, spring, PaymentStatus.REFUNDED, 4)  # paid, then refunded: it came in (the refund counts apart)
    _order(3, spring, PaymentStatus.CREATED, 5)  # not paid
    _order(4, summer, PaymentStatus.COMPLETED, 6, amount="15.00", discount="10.00")
    _order(5, summer, PaymentStatus.COMPLETED, 31, amount="15.00", discount="10.00")  # moved to April below
    PaymentOrder.objects.filter(order_id="O5").update(completed_at=datetime(2026, 4, 2, 12, tzinfo=PARIS))
    with django_assert_num_queries(1):
        stats = promo_code_stats(period=Period(first_day=date(2026, 3, 1), last_day=date(2026, 3, 31)))
    assert stats == [
        {"code": "PRINTEMPS15", "uses": 2, "revenue": Decimal("323.00"), "discount": Decimal("57.00")},
        {"code": "ETE", "uses": 1, "revenue": Decimal("15.00"), "discount": Decimal("10.00")},
    ]
