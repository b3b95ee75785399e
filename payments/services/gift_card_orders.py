"""Buying a gift card online (docs/decisions.md 49 and 56): an order like any other (same widget, providers, capture
and receipt), whose `purchased_gift_card` is activated once when the order is paid (payments' own
`payment_completed`, heard in receivers.py), and cancelled when its money goes back.

A gift card is a multi-purpose voucher: its sale is not invoiced (the purchases it pays for are, when it is spent);
the buyer gets the payment receipt."""

import uuid
from decimal import Decimal

from django.db import transaction

from courses.models import Tariff
from offers.services.gift_cards import (
    GiftCardRequest,
    gift_card_activate,
    gift_card_cancel,
    gift_card_prepare,
)
from offers.tasks import gift_card_voucher_send_if_due
from studio.queue import enqueue_after_commit
from studio.templatetags.formatting import euros

from ..choices import CURRENCY_EUR
from ..models import PaymentOrder, PaymentStatus
from .common import PaymentError, terms_acceptance_fields
from .provider_choice import PURPOSE_TARIFF, payment_provider_choose, provider_order_open

GIFT_CARD_TYPE = "CARTE_CADEAU"
MSG_GIFT_CARD_REFUNDED = "Achat de la carte cadeau remboursé."


def gift_card_order_title(*, amount: Decimal, tariff: Tariff | None) -> str:
    return (f"Carte cadeau – {tariff.title}" if tariff is not None else f"Carte cadeau {euros(amount)}")[:200]


def gift_card_order_create(
    *,
    user,
    amount: Decimal | None,
    tariff_id: int | None,
    request: GiftCardRequest,
    provider: str = "",
    accept_terms: bool = False,
) -> PaymentOrder:
    """Open the order of a gift card priced by the server: the amount chosen (20–500 €) or the tariff's price; the
    browser's `amount` for a tariff is only compared (409 on a mismatch). The card is prepared PENDING with its code."""
    provider = payment_provider_choose(provider)
    tariff = None
    if tariff_id is not None:
        tariff = Tariff.objects.filter(pk=tariff_id).first()
        if tariff is None:
            raise PaymentError.of("tariff_not_found")
        if amount is not None and amount != tariff.price:
            raise PaymentError.of("amount_mismatch")
    buyer_name = f"{user.first_name} {user.last_name}".strip() or user.email
    with transaction.atomic():
        card = gift_card_prepare(
            buyer=user,
            buyer_name=buyer_name,
            buyer_email=user.email,
            request=GiftCardRequest(
                amount=amount,
                tariff=tariff,
                recipient_name=request.recipient_name,
                recipient_email=request.recipient_email,
                message=request.message,
                send_on=request.send_on,
            ),
        )
    title = gift_card_order_title(amount=card.initial_amount, tariff=tariff)
    opened = provider_order_open(
        provider=provider,
        amount=card.initial_amount,
        description=title,
        reference=uuid.uuid4().hex,
        purpose=PURPOSE_TARIFF,  # a one-off sale, paid as a card is
    )
    order = PaymentOrder.objects.create(
        order_id=opened.id,
        provider=opened.provider,
        user=user,
        email=user.email,
        first_name=(user.first_name or "")[:150],
        last_name=(user.last_name or "")[:150],
        title=title,
        amount=card.initial_amount,
        currency=CURRENCY_EUR,
        date=request.send_on.isoformat(),
        type=GIFT_CARD_TYPE,
        message=request.message.strip(),
        purchased_gift_card=card,
        status=PaymentStatus.CREATED,
        **terms_acceptance_fields(accepted=accept_terms),
    )
    order.client_secret = opened.client_secret or ""
    return order


def gift_card_order_paid(*, order_id: int) -> bool:
    """An order completed: the gift card it bought (if any) becomes active, and its voucher leaves now when it is
    due today (the scheduler sends the later ones). Called under the order's lock; idempotent."""
    order = PaymentOrder.objects.filter(pk=order_id).values("order_id", "purchased_gift_card_id", "status").first()
    if order is None or not order["purchased_gift_card_id"] or order["status"] != PaymentStatus.COMPLETED:
        return False
    card_id = order["purchased_gift_card_id"]
    if not gift_card_activate(card_id=card_id, order_reference=order["order_id"]):
        return False
    enqueue_after_commit(gift_card_voucher_send_if_due, card_id=card_id)
    return True


def gift_card_order_refunded(*, order_id: int) -> bool:
    """A gift card's purchase was refunded (or voided by staff): the card can no longer be spent."""
    order = PaymentOrder.objects.filter(pk=order_id).values("order_id", "purchased_gift_card_id").first()
    if order is None or not order["purchased_gift_card_id"]:
        return False
    return gift_card_cancel(
        card_id=order["purchased_gift_card_id"], order_reference=order["order_id"], reason=MSG_GIFT_CARD_REFUNDED
    )
