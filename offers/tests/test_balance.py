from decimal import Decimal

import pytest

from offers.errors import MSG_GIFT_CARD_BALANCE, GiftCardError
from offers.models import GiftCard, GiftCardMovementKind, GiftCardStatus
from offers.services.balance import gift_card_move

pytestmark = pytest.mark.django_db


def _card(balance="50.00"):
    return GiftCard.objects.create(
        code="CADEAU-TEST-0001", initial_amount=Decimal("50.00"), balance=Decimal(balance), status=GiftCardStatus.ACTIVE
    )


def test_spending_lowers_the_balance_and_records_the_movement():
    card = _card()
    movement = gift_card_move(
        card_id=card.pk, kind=GiftCardMovementKind.SPEND, amount=Decimal("-20"), order_reference="abc"
    )
    card.refresh_from_db()
    assert card.balance == Decimal("30.00")
    assert movement.balance_after == Decimal("30.00")
    assert list(card.movements.values_list("amount", flat=True)) == [Decimal("-20.00")]


def test_spending_more_than_the_balance_is_refused_in_french_and_changes_nothing():
    card = _card("10.00")
    with pytest.raises(GiftCardError) as refused:
        gift_card_move(card_id=card.pk, kind=GiftCardMovementKind.SPEND, amount=Decimal("-10.01"))
    assert refused.value.message == MSG_GIFT_CARD_BALANCE.format(balance="10,00\u00a0€")
    card.refresh_from_db()
    assert card.balance == Decimal("10.00")
    assert not card.movements.exists()
