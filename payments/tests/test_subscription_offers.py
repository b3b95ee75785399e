"""A subscription charged period after period takes no promo code and no gift card (docs/decisions.md 60): its first
payment would be discounted or paid by the card while the later periods are charged at the full price to a saved
card or mandate, so the order is refused in French before anything is charged or spent. A subscription paid at once
(its one period) takes them as any purchase does."""

from decimal import Decimal

import pytest

from courses.tests.factories import TariffFactory
from offers.models import GiftCardMovement
from payments.models import PaymentOrder, SimulatedProviderOrder
from payments.services.offers import MSG_SUBSCRIPTION_NO_OFFERS

from .test_order_offers import _create, make_code, make_gift_card

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "payload",
    [
        {"promo_code": "PRINTEMPS15"},
        {"gift_card_code": "CADEAU-2026"},
        {"promo_code": "PRINTEMPS15", "gift_card_code": "CADEAU-2026"},
    ],
)
def test_a_monthly_subscription_with_a_code_or_a_card_is_refused_before_anything_is_charged(
    api_client, member, annual, payload
):
    promo, card = make_code(), make_gift_card("100.00")
    answer = _create(api_client, member, annual, **payload)
    assert (answer.status_code, answer.json()["error"]) == (409, MSG_SUBSCRIPTION_NO_OFFERS)
    assert MSG_SUBSCRIPTION_NO_OFFERS == (
        "Un abonnement prélevé à chaque échéance ne se règle pas avec un code promo ni une carte cadeau : "
        "retirez-les pour continuer."
    )
    assert not PaymentOrder.objects.exists() and not SimulatedProviderOrder.objects.exists()
    card.refresh_from_db()
    promo.refresh_from_db()
    assert card.balance == Decimal("100.00") and promo.uses_count == 0
    assert list(GiftCardMovement.objects.filter(card=card).values_list("kind", flat=True)) == ["issue"]


def test_the_same_subscription_without_a_code_is_ordered(api_client, member, annual):
    answer = _create(api_client, member, annual)
    assert answer.status_code == 201, answer.json()


def test_a_subscription_paid_at_once_takes_a_code_and_a_card(api_client, member):
    quarter = TariffFactory(
        title="Trimestre illimité",
        type="abonnement",
        price=Decimal("150.00"),
        frequency="par trimestre",
        pass_unlimited=True,
        pass_validity_months=3,
    )
    make_code(), make_gift_card("50.00")
    answer = _create(api_client, member, quarter, promo_code="PRINTEMPS15", gift_card_code="CADEAU-2026")
    assert answer.status_code == 201, answer.json()
    order = PaymentOrder.objects.get(order_id=answer.json()["id"])
    assert (order.amount, order.discount_amount, order.gift_card_amount) == (
        Decimal("127.50"),
        Decimal("22.50"),
        Decimal("50.00"),
    )
