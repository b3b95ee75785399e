"""Races an attacker runs with several tabs, on PostgreSQL (real row locks, threads): one member opening orders at
once with a code allowed once per member gets one order; the others are refused in French before any payment."""

from decimal import Decimal

import pytest

from accounts.tests.factories import UserFactory
from courses.tests.factories import TariffFactory
from offers.services.promo import MSG_PROMO_MEMBER_USED, PromoError
from payments.models import PaymentOrder
from payments.tests.test_concurrency import _race_all
from payments.tests.test_order_offers import make_code
from payments.tests.test_order_offers_concurrency import _order

pytestmark = pytest.mark.postgres

TABS = 10


def test_ten_tabs_of_one_member_on_a_once_per_member_code_get_one_order():
    member = UserFactory()
    tariffs = [TariffFactory(price=Decimal("100.00")) for _ in range(2)]
    make_code("UNEFOIS", max_uses_per_member=1)
    results = _race_all([_order(member, tariffs[n % 2], promo_code="unefois") for n in range(TABS)])

    orders = [r for r in results if isinstance(r, PaymentOrder)]
    refusals = [r for r in results if not isinstance(r, PaymentOrder)]
    assert len(orders) == 1, refusals
    assert all(isinstance(r, PromoError) and r.message == MSG_PROMO_MEMBER_USED for r in refusals), refusals
    assert PaymentOrder.objects.filter(promo_code__code="UNEFOIS").count() == 1
