"""The one way a gift card's balance changes: under the card's row lock, as a movement (docs/decisions.md 49).

Every path that spends, gives back or adjusts a balance (orders, refunds, staff) calls `gift_card_move`, so two tabs
spending the same card are serialized by the database and the balance never goes below zero. In the lock order
(bookings/services/locking.py) a gift card comes after the session, the reservation and the pass, and before the
payment order's row: it is the last thing an order's creation locks."""

from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from studio.templatetags.formatting import euros as euros_text

from ..errors import GiftCardError
from ..models import GiftCard, GiftCardMovement, GiftCardMovementKind

CENT = Decimal("0.01")


def gift_card_lock(card_id: int) -> GiftCard:
    """The card's row, locked until the end of the caller's transaction."""
    return GiftCard.objects.select_for_update().get(pk=card_id)


def gift_card_move(
    *,
    card_id: int,
    kind: str,
    amount: Decimal,
    order_reference: str = "",
    reason: str = "",
    staff=None,
) -> GiftCardMovement:
    """Add `amount` (negative to spend) to the card's balance, recording the movement; refused in French when the
    balance would go below zero. Runs in its own transaction, or in the caller's when there is one."""
    amount = Decimal(amount).quantize(CENT)
    if amount == 0:
        raise GiftCardError.of("gift_card_amount")
    with transaction.atomic():
        card = gift_card_lock(card_id)
        balance = card.balance + amount
        if balance < 0:
            raise GiftCardError.of("gift_card_balance", balance=euros_text(card.balance))
        card.balance = balance
        card.save(update_fields=["balance"])
        return GiftCardMovement.objects.create(
            card=card,
            kind=kind,
            amount=amount,
            balance_after=balance,
            order_reference=order_reference,
            reason=reason[:300],
            staff=staff,
            created_at=timezone.now(),
        )


__all__ = ["GiftCardMovementKind", "gift_card_lock", "gift_card_move"]
