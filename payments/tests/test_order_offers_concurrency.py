"""docs/decisions.md 60 on PostgreSQL (real row locks, threads): twenty tabs spending one gift card never overspend
it, and twenty members on a code's last use get one order; paying counts the use once."""

from decimal import Decimal

import pytest

from accounts.tests.factories import UserFactory
from courses.tests.factories import TariffFactory
from offers.errors import GiftCardError
from offers.models import GiftCardMovement
from offers.services.promo import MSG_PROMO_USED_UP, PromoError
from payments.models import PaymentOrder, PaymentStatus
from payments.services.capture import payment_order_capture, simulator_order_approve
from payments.services.orders import payment_order_create

from .test_concurrency import _race_all
from .test_order_offers import make_code, make_gift_card

pytestmark = pytest.mark.postgres

TABS = 20


def _order(member, tariff, **offers):
    return lambda: payment_order_create(
        user=member,
        amount=tariff.price,
        email=member.email,
        first_name="Emma",
        last_name="Petit",
        title=tariff.title,
        type=tariff.type,
        tariff_id=tariff.pk,
        quantity=1,
        accept_terms=True,
        **offers,
    )


def test_twenty_tabs_spending_one_gift_card_spend_it_once():
    member = UserFactory()
    tariff = TariffFactory(price=Decimal("60.00"))
    card = make_gift_card("100.00")
    results = _race_all([_order(member, tariff, gift_card_code=card.code) for _ in range(TABS)])

    orders = [r for r in results if isinstance(r, PaymentOrder)]
    refusals = [r for r in results if not isinstance(r, PaymentOrder)]
    assert all(isinstance(r, GiftCardError) for r in refusals), refusals
    card.refresh_from_db()
    spent = GiftCardMovement.objects.filter(card=card, kind="spend")
    # 60 €, then (for a tab priced after it) the last 40 €: never more than the balance, each part spent once.
    assert orders and card.balance >= 0
    assert sum(o.gift_card_amount for o in orders) == Decimal("100.00") - card.balance == -sum(m.amount for m in spent)
    assert spent.count() == len(orders) == PaymentOrder.objects.filter(gift_card=card).count()


def test_twenty_members_on_the_last_use_of_a_code_get_one_order_and_one_use():
    tariff = TariffFactory(price=Decimal("100.00"))
    promo = make_code("DERNIER", max_uses=5, uses_count=4)
    members = [UserFactory() for _ in range(TABS)]
    results = _race_all([_order(member, tariff, promo_code="dernier") for member in members])

    orders = [r for r in results if isinstance(r, PaymentOrder)]
    refusals = [r for r in results if not isinstance(r, PaymentOrder)]
    assert len(orders) == 1, refusals
    assert all(isinstance(r, PromoError) and r.message == MSG_PROMO_USED_UP for r in refusals), refusals

    order = orders[0]
    buyer = order.user
    simulator_order_approve(order_id=order.order_id, user=buyer, card_declined=False)
    outcomes = _race_all([lambda: payment_order_capture(order_id=order.order_id, user=buyer) for _ in range(5)])
    assert all(o.completed for o in outcomes), outcomes
    promo.refresh_from_db()
    assert promo.uses_count == 5
    assert PaymentOrder.objects.get(pk=order.pk).status == PaymentStatus.COMPLETED
