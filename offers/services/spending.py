"""Spending a gift card's balance on an order, and giving it back (docs/decisions.md 49, 56).

The part paid by the card is spent when the order is recorded (a SPEND movement carrying the order's reference), so
twenty tabs spending one card are serialized by the card's row lock and the balance never goes below zero. An order
abandoned or refused gives the part back (RELEASE), a refund of a paid order gives it back too (REFUND); both at most
what the order spent, however often they are called. Every change goes through `gift_card_move`."""

from decimal import Decimal

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from ..errors import GiftCardError
from ..models import GiftCard, GiftCardMovement, GiftCardMovementKind, GiftCardStatus
from .balance import gift_card_lock, gift_card_move
from .promo import CENT

CODE_MAX = 32
ZERO = Decimal("0.00")


def gift_card_normalize(code: str) -> str:
    return (code or "").strip().upper()[:CODE_MAX]


def gift_card_check_usable(card: GiftCard, *, today=None) -> None:
    """Refused in French when the card cannot pay: not active (unpaid, cancelled), expired, or empty."""
    today = today or timezone.localdate()
    if card.status != GiftCardStatus.ACTIVE:
        raise GiftCardError.of("gift_card_inactive", field="gift_card_code")
    if card.expires_on is not None and today > card.expires_on:
        raise GiftCardError.of("gift_card_expired", field="gift_card_code")
    if card.balance <= 0:
        raise GiftCardError.of("gift_card_balance", field="gift_card_code", balance="0,00 €")


def gift_card_find(code: str) -> GiftCard:
    """The usable card a member typed, or GiftCardError (404 when no card has this code)."""
    card = GiftCard.objects.filter(code=gift_card_normalize(code)).first()
    if card is None:
        raise GiftCardError.of("gift_card_not_found", field="gift_card_code")
    gift_card_check_usable(card)
    return card


def gift_card_part(card: GiftCard, total: Decimal) -> Decimal:
    """What the card pays of `total`: all of it when the balance covers it, else the whole balance."""
    return min(card.balance, total).quantize(CENT)


def gift_card_spend(*, card_id: int, amount: Decimal, order_reference: str) -> None:
    """Spend `amount` for the order, in the caller's transaction (after the bookings' locks, before the order's insert);
    refused in French when the card is no longer usable or its balance no longer covers it (another tab spent it)."""
    with transaction.atomic():
        card = gift_card_lock(card_id)
        gift_card_check_usable(card)
        gift_card_move(
            card_id=card.pk, kind=GiftCardMovementKind.SPEND, amount=-amount, order_reference=order_reference
        )


def gift_card_spent_for(*, card_id: int, order_reference: str) -> Decimal:
    """What the order has spent from the card and not had back (0 when it was given back)."""
    total = GiftCardMovement.objects.filter(card_id=card_id, order_reference=order_reference).aggregate(s=Sum("amount"))
    return -(total["s"] or ZERO)


def gift_card_give_back(*, card_id: int, order_reference: str, amount: Decimal, refund: bool) -> Decimal:
    """Give back up to `amount` of what the order spent (RELEASE for an order abandoned or refused, REFUND for a paid
    one refunded): never more than it spent, so calling again gives nothing. Returns what was given back."""
    with transaction.atomic():
        gift_card_lock(card_id)
        back = min(amount, gift_card_spent_for(card_id=card_id, order_reference=order_reference)).quantize(CENT)
        if back <= 0:
            return ZERO
        kind = GiftCardMovementKind.REFUND if refund else GiftCardMovementKind.RELEASE
        gift_card_move(card_id=card_id, kind=kind, amount=back, order_reference=order_reference)
        return back
