"""An order's promo code and gift card (docs/decisions.md 49, 56): priced when the order is recorded, settled when it
is paid, given back when it is abandoned or refunded.

- Pricing: the code's discount comes off the price (never below 0) and is the invoiced total (`amount`); the card pays
  what its balance covers of that total (`gift_card_amount`); the provider is asked for the rest.
- Recording (`order_offers_commit`, in the order's insert transaction, after the bookings' locks): the card's part is
  spent under the card's lock, and the code's limits are checked under the code's lock counting the uses counted
  (paid orders) and those reserved by open orders recorded in the last `PROMO_RESERVED_MINUTES`.
- Paying (`order_offers_settle`, under the order's lock, after bookings): the card's part must still be spent for the
  order, and the code's use is counted once, within its limits; otherwise the capture is refused and refunded.
- An order voided gives the card's part back (`order_gift_card_release`); a refund gives back the card's part first
  (`order_gift_card_refund`), the provider refunding the rest.
"""

from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from bookings.services.passes import tariff_billing_period_months
from courses.models import Tariff
from offers.models import GiftCard, PromoCode
from offers.services.promo import (
    PromoUses,
    promo_check_applies,
    promo_check_limits,
    promo_discount,
    promo_find,
    promo_lock,
    promo_use_count,
)
from offers.services.spending import (
    gift_card_find,
    gift_card_give_back,
    gift_card_part,
    gift_card_spend,
    gift_card_spent_for,
)
from studio.errors import CONFLICT, ApplicationError

from ..models import PaymentOrder, PaymentStatus
from ..subscriptions.periods import tariff_commitment_periods
from .common import _mark
from .discovery import discovery_check
from .locking import lock_payment_order
from .provider_choice import provider_order_voided

ZERO = Decimal("0.00")
PROMO_RESERVED_MINUTES = 30  # an open order holds its code's use this long (a hold lasts 15)
GIFT_CARD_LABEL = "Carte cadeau"
OPEN = (PaymentStatus.CREATED, PaymentStatus.APPROVED, PaymentStatus.DECLINED)

MSG_GIFT_CARD_GIVEN_BACK = "La part payée par carte cadeau a été rendue à la carte entre-temps."
MSG_SUBSCRIPTION_NO_OFFERS = (
    "Un abonnement prélevé à chaque échéance ne se règle pas avec un code promo ni une carte cadeau : "
    "retirez-les pour continuer."
)


class OrderOfferError(ApplicationError):
    default_code = "order_offer_invalid"
    status = CONFLICT
    messages = {"gift_card_given_back": MSG_GIFT_CARD_GIVEN_BACK, "subscription_no_offers": MSG_SUBSCRIPTION_NO_OFFERS}


@dataclass(frozen=True)
class OrderOffers:
    price: Decimal  # before the discount
    promo: PromoCode | None = None
    discount: Decimal = ZERO
    gift_card: GiftCard | None = None
    gift_card_amount: Decimal = ZERO

    @property
    def total(self) -> Decimal:
        """What is invoiced: the price less the discount."""
        return self.price - self.discount

    @property
    def to_pay(self) -> Decimal:
        """What the provider is asked for."""
        return self.total - self.gift_card_amount

    def order_fields(self) -> dict:
        return {
            "amount": self.total,
            "promo_code": self.promo,
            "discount_amount": self.discount,
            "gift_card": self.gift_card,
            "gift_card_amount": self.gift_card_amount,
        }


def _member_uses(promo_id: int, user_id: int, *, reserved: bool, exclude_pk: int | None = None) -> int:
    orders = PaymentOrder.objects.filter(promo_code_id=promo_id, user_id=user_id).exclude(pk=exclude_pk)
    paid = orders.filter(completed_at__isnull=False).count()
    return paid + (_reserved(orders) if reserved else 0)


def _reserved(orders) -> int:
    since = timezone.now() - timedelta(minutes=PROMO_RESERVED_MINUTES)
    return orders.filter(status__in=OPEN, completed_at__isnull=True, created_at__gte=since).count()


def _uses_at_recording(promo: PromoCode, user) -> PromoUses:
    reserved = _reserved(PaymentOrder.objects.filter(promo_code_id=promo.pk))
    return PromoUses(in_all=promo.uses_count + reserved, by_member=_member_uses(promo.pk, user.pk, reserved=True))


def order_offers_price(
    *, user, price: Decimal, tariff_id: int | None, promo_code: str = "", gift_card_code: str = ""
) -> OrderOffers:
    """The order's price with the code and the card the member typed, each refused in French when it cannot apply
    (the code's limits are checked again under its lock when the order is recorded)."""
    if ((promo_code or "").strip() or (gift_card_code or "").strip()) and _charged_per_period(tariff_id):
        raise OrderOfferError.of("subscription_no_offers")
    promo, discount = None, ZERO
    if (promo_code or "").strip():
        promo = promo_find(promo_code)
        promo_check_applies(promo, tariff_id=tariff_id)
        promo_check_limits(promo, _uses_at_recording(promo, user))
        discount = promo_discount(promo, price)
    card, part = None, ZERO
    if (gift_card_code or "").strip() and price - discount > 0:
        card = gift_card_find(gift_card_code)
        part = gift_card_part(card, price - discount)
    return OrderOffers(price=price, promo=promo, discount=discount, gift_card=card, gift_card_amount=part)


def _charged_per_period(tariff_id: int | None) -> bool:
    """A subscription whose later periods are charged after this order (payments/subscriptions/services/common.py
    starts it): the order would pay its first period with the discount or the card, the later ones at the full price
    on a saved card or mandate of the order's provider, which a card or a code of 100 % has not. Refused before
    anything is charged (docs/decisions.md 60)."""
    tariff = Tariff.objects.filter(pk=tariff_id).first() if tariff_id else None
    period = tariff_billing_period_months(tariff) if tariff is not None else None
    if period is None or not tariff.pass_unlimited:
        return False
    return tariff_commitment_periods(tariff, period) > 1


def order_offers_commit(*, offers: OrderOffers, user, order_reference: str) -> None:
    """Spend the card's part and take the code's use, in the caller's transaction that inserts the order
    (the card's lock, then the code's: the last of an order's recording)."""
    if offers.gift_card is not None and offers.gift_card_amount > 0:
        gift_card_spend(card_id=offers.gift_card.pk, amount=offers.gift_card_amount, order_reference=order_reference)
    if offers.promo is not None:
        promo = promo_lock(offers.promo.pk)
        promo_check_limits(promo, _uses_at_recording(promo, user))


def order_offers_settle(order: PaymentOrder) -> None:
    """The order is being paid (its row locked, bookings done): its card's part must still be spent for it, and its
    code's use is counted once; a discovery offer must not have been bought meanwhile by the same person. Refused in
    French otherwise: the caller refunds."""
    if order.tariff_id and order.tariff.discovery_offer:
        discovery_check(user=order.user, email=order.email, exclude_pk=order.pk, held=False)
    if order.gift_card_id and gift_card_spent_for(card_id=order.gift_card_id, order_reference=order.order_id) < (
        order.gift_card_amount
    ):
        raise OrderOfferError.of("gift_card_given_back")
    if order.promo_code_id:
        member_uses = _member_uses(order.promo_code_id, order.user_id, reserved=False, exclude_pk=order.pk)
        promo_use_count(promo_id=order.promo_code_id, member_uses=member_uses)


def order_gift_card_release(*, order_id: str) -> Decimal:
    """An order voided (abandoned, replaced) gives its card's part back, once. Returns what went back."""
    with transaction.atomic():
        order = lock_payment_order(order_id)
        if not order.gift_card_id or order.status != PaymentStatus.VOIDED or order.completed_at is not None:
            return ZERO
        return gift_card_give_back(
            card_id=order.gift_card_id, order_reference=order.order_id, amount=order.gift_card_amount, refund=False
        )


def order_gift_card_refund(order: PaymentOrder, amount: Decimal) -> Decimal:
    """Of `amount` refunded, the card's part goes back to its balance (first, up to what it paid); the caller holds
    the order's lock and has the provider refund the rest. Returns what went back to the card."""
    if not order.gift_card_id:
        return ZERO
    paid = order.completed_at is not None
    return gift_card_give_back(
        card_id=order.gift_card_id,
        order_reference=order.order_id,
        amount=min(amount, order.gift_card_amount),
        refund=paid,
    )


def order_card_part(order: PaymentOrder, amount: Decimal) -> Decimal:
    """Of `amount` refunded, what the provider gives back (the card's part comes back to the card first)."""
    return max(amount - min(amount, order.gift_card_amount), ZERO)


def order_provider_amount(order: PaymentOrder) -> Decimal:
    """What the provider was asked for and captures."""
    return order.amount - order.gift_card_amount


GIFT_CARD_HOLD_HOURS = 2  # an order left open this long (the member closed the tab) gives its card's part back


def gift_card_parts_release_stale() -> int:
    """The card's part of orders abandoned without a word (open for `GIFT_CARD_HOLD_HOURS`, never approved) or
    voided by another path (a provider's cancellation): the order voided, its part given back, once. Safe to run from
    several places at once (each order under its lock). Returns how many orders gave a part back."""
    now = timezone.now()
    stale = PaymentOrder.objects.filter(
        gift_card__isnull=False,
        gift_card_amount__gt=0,
        completed_at__isnull=True,
        status__in=(PaymentStatus.CREATED, PaymentStatus.DECLINED),
        created_at__lt=now - timedelta(hours=GIFT_CARD_HOLD_HOURS),
    ).values_list("order_id", flat=True)
    for order_id in list(stale):
        voided = _mark(
            order_id=order_id, status=PaymentStatus.VOIDED, only_from=(PaymentStatus.CREATED, PaymentStatus.DECLINED)
        )
        provider_order_voided(voided)
    voided = PaymentOrder.objects.filter(
        gift_card__isnull=False,
        gift_card_amount__gt=0,
        completed_at__isnull=True,
        status=PaymentStatus.VOIDED,
        updated_at__gte=now - timedelta(days=2),
    ).values_list("order_id", flat=True)
    return sum(1 for order_id in list(voided) if order_gift_card_release(order_id=order_id) > 0)
