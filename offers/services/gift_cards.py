"""A gift card's own life (docs/decisions.md 49 and 56): prepared when its order is opened, activated once when that
order is paid (its code, its balance, 12 months of validity), its voucher sent on the chosen day, adjusted by staff.

The card never points at its order (offers sits below payments): payments calls `gift_card_prepare` when it opens
the order and `gift_card_activate` from its `payment_completed` receiver, under the order's row lock."""

import secrets
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from dateutil.relativedelta import relativedelta
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from studio.errors import CONFLICT, ApplicationError

from ..errors import GiftCardError
from ..models import GiftCard, GiftCardKind, GiftCardMovementKind, GiftCardStatus
from .balance import CENT, gift_card_lock, gift_card_move

MIN_AMOUNT = Decimal("20.00")
MAX_AMOUNT = Decimal("500.00")
VALIDITY = relativedelta(months=12)
# How far ahead a voucher may be scheduled: a birthday next year, not further.
MAX_SEND_AHEAD = timedelta(days=366)
SEND_TODAY, SEND_IN_3_DAYS, SEND_ON_DATE = "today", "in_3_days", "date"
SEND_CHOICES = (SEND_TODAY, SEND_IN_3_DAYS, SEND_ON_DATE)
# Letters and digits nobody confuses when reading a voucher aloud (no 0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_PREFIX = "CADEAU"

MSG_AMOUNT_RANGE = "Le montant d'une carte cadeau est compris entre 20 € et 500 €."
MSG_TARIFF_NOT_GIFTABLE = "Ce tarif ne peut pas être offert en carte cadeau."
MSG_SEND_DATE_PAST = "La date d'envoi ne peut pas être passée."
MSG_SEND_DATE_TOO_FAR = "La date d'envoi doit être dans les 12 prochains mois."
MSG_SEND_DATE_MISSING = "Choisissez la date d'envoi de la carte cadeau."
MSG_ADJUST_REASON = "Indiquez le motif de l'ajustement."
MSG_NOT_ACTIVE = "Seule une carte cadeau active peut être ajustée."


class GiftCardOrderError(ApplicationError):
    default_code = "gift_card_order_invalid"
    messages = {
        "amount_range": MSG_AMOUNT_RANGE,
        "tariff_not_giftable": MSG_TARIFF_NOT_GIFTABLE,
        "send_date_past": MSG_SEND_DATE_PAST,
        "send_date_too_far": MSG_SEND_DATE_TOO_FAR,
        "send_date_missing": MSG_SEND_DATE_MISSING,
        "adjust_reason": MSG_ADJUST_REASON,
        "not_active": MSG_NOT_ACTIVE,
    }
    statuses = {"not_active": CONFLICT}


def tariff_giftable(tariff) -> bool:
    """A class or a class card may be offered; not the hen-party offer (quoted), nor a subscription (a commitment
    in the holder's name), nor anything free."""
    return not tariff.is_party and tariff.price > 0 and not tariff.pass_unlimited


def paris_today() -> date:
    return timezone.localdate()


def gift_card_code_new() -> str:
    """ "CADEAU-7KQ2-M9XD": about 40 bits of randomness, read over the phone without ambiguity."""
    body = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
    return f"{CODE_PREFIX}-{body[:4]}-{body[4:]}"


def gift_card_code_normalise(code: str) -> str:
    """What a holder types ("cadeau 7kq2m9xd", with or without dashes) as the stored code."""
    letters = "".join(ch for ch in (code or "").upper() if ch.isalnum())
    if letters.startswith(CODE_PREFIX):
        letters = letters[len(CODE_PREFIX) :]
    if len(letters) != 8:
        return (code or "").strip().upper()
    return f"{CODE_PREFIX}-{letters[:4]}-{letters[4:]}"


def gift_card_send_on(*, choice: str, on: date | None, today: date | None = None) -> date:
    """The day the voucher is sent: today, in 3 days, or a chosen day within the next 12 months."""
    today = today or paris_today()
    if choice == SEND_TODAY:
        return today
    if choice == SEND_IN_3_DAYS:
        return today + timedelta(days=3)
    if on is None:
        raise GiftCardOrderError.of("send_date_missing", field="send_on")
    if on < today:
        raise GiftCardOrderError.of("send_date_past", field="send_on")
    if on > today + MAX_SEND_AHEAD:
        raise GiftCardOrderError.of("send_date_too_far", field="send_on")
    return on


def gift_card_amount_check(amount: Decimal) -> Decimal:
    amount = Decimal(amount).quantize(CENT)
    if not MIN_AMOUNT <= amount <= MAX_AMOUNT:
        raise GiftCardOrderError.of("amount_range", field="amount")
    return amount


@dataclass(frozen=True)
class GiftCardRequest:
    """What the buyer chose: an amount or a tariff (its price then), who receives it, what it says and when."""

    amount: Decimal | None
    tariff: object | None
    recipient_name: str
    recipient_email: str
    message: str
    send_on: date


def gift_card_prepare(*, buyer, buyer_name: str, buyer_email: str, request: GiftCardRequest) -> GiftCard:
    """A PENDING card with a fresh code, no balance yet: it becomes ACTIVE when its order is paid."""
    if request.tariff is not None:
        tariff = request.tariff
        if not tariff_giftable(tariff):
            raise GiftCardOrderError.of("tariff_not_giftable", field="tariff_id")
        kind, amount = GiftCardKind.TARIFF, Decimal(tariff.price).quantize(CENT)
    else:
        kind, amount = GiftCardKind.AMOUNT, gift_card_amount_check(request.amount or Decimal(0))
    fields = dict(
        kind=kind,
        tariff=request.tariff,
        initial_amount=amount,
        balance=Decimal("0.00"),
        status=GiftCardStatus.PENDING,
        buyer=buyer,
        buyer_name=buyer_name[:310],
        buyer_email=buyer_email,
        recipient_name=request.recipient_name.strip()[:150],
        recipient_email=request.recipient_email.strip(),
        message=request.message.strip()[:500],
        send_on=request.send_on,
    )
    for _attempt in range(5):  # a collision in 31^8 codes is rare; the unique constraint decides
        try:
            with transaction.atomic():
                return GiftCard.objects.create(code=gift_card_code_new(), **fields)
        except IntegrityError:
            continue
    raise IntegrityError("no free gift card code")


def gift_card_activate(*, card_id: int, order_reference: str) -> bool:
    """The card's order is paid: the card becomes ACTIVE with its full balance (an issue movement), valid 12 months
    from today. Once: a second call (a redelivered payment) changes nothing. True when it activated the card now."""
    with transaction.atomic():
        card = gift_card_lock(card_id)
        if card.status != GiftCardStatus.PENDING:
            return False
        now = timezone.now()
        card.status = GiftCardStatus.ACTIVE
        card.purchased_at = now
        card.expires_on = timezone.localdate(now) + VALIDITY
        card.save(update_fields=["status", "purchased_at", "expires_on"])
        gift_card_move(
            card_id=card.pk,
            kind=GiftCardMovementKind.ISSUE,
            amount=card.initial_amount,
            order_reference=order_reference,
        )
    return True


def gift_card_cancel(*, card_id: int, order_reference: str, reason: str) -> bool:
    """The card's purchase was refunded: its remaining balance goes to zero and it can no longer be spent."""
    with transaction.atomic():
        card = gift_card_lock(card_id)
        if card.status == GiftCardStatus.CANCELLED:
            return False
        if card.balance > 0:
            gift_card_move(
                card_id=card.pk,
                kind=GiftCardMovementKind.ADJUST,
                amount=-card.balance,
                order_reference=order_reference,
                reason=reason,
            )
        GiftCard.objects.filter(pk=card.pk).update(status=GiftCardStatus.CANCELLED)
    return True


def gift_card_adjust(*, card_id: int, amount: Decimal, reason: str, staff) -> GiftCard:
    """Staff add to (or take from) an active card's balance, with the reason recorded on the movement."""
    reason = (reason or "").strip()
    if not reason:
        raise GiftCardOrderError.of("adjust_reason", field="reason")
    with transaction.atomic():
        card = gift_card_lock(card_id)
        if card.status != GiftCardStatus.ACTIVE:
            raise GiftCardOrderError.of("not_active")
        gift_card_move(card_id=card.pk, kind=GiftCardMovementKind.ADJUST, amount=amount, reason=reason, staff=staff)
    return GiftCard.objects.get(pk=card_id)


def gift_card_usable(card: GiftCard, *, today: date | None = None) -> None:
    """GiftCardError in French when the card cannot be spent (not paid yet or cancelled, expired)."""
    if card.status != GiftCardStatus.ACTIVE:
        raise GiftCardError.of("gift_card_inactive")
    if card.expires_on is not None and card.expires_on < (today or paris_today()):
        raise GiftCardError.of("gift_card_expired")


def gift_card_by_code(code: str) -> GiftCard:
    """The card a holder names by its code (any case, with or without dashes); a card not paid yet does not exist."""
    card = GiftCard.objects.filter(code=gift_card_code_normalise(code)).exclude(status=GiftCardStatus.PENDING).first()
    if card is None:
        raise GiftCardError.of("gift_card_not_found")
    return card


def gift_cards_of_holder(user):
    """The cards a member holds: bought by them, or sent to their e-mail address; paid ones only."""
    mine = Q(buyer_id=user.pk)
    if user.email:
        mine |= Q(recipient_email__iexact=user.email)
    return GiftCard.objects.filter(mine).exclude(status=GiftCardStatus.PENDING).order_by("-purchased_at", "-id")


def gift_card_voucher_email(card: GiftCard) -> str:
    """Who receives the voucher: the recipient, or the buyer when no recipient was named."""
    return card.recipient_email or card.buyer_email


def gift_cards_due(*, today: date | None = None) -> list[int]:
    """The active cards whose voucher is due today or before and not sent yet."""
    today = today or paris_today()
    return list(
        GiftCard.objects.filter(status=GiftCardStatus.ACTIVE, sent_at__isnull=True, send_on__lte=today)
        .order_by("send_on", "id")
        .values_list("id", flat=True)
    )
