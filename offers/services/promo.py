"""Promo codes (docs/decisions.md 49): which code applies to what, the discount it gives, its limits, the staff's edits.

A code's limits (in all, per member) are checked when an order is recorded and again when it is paid, each time under
the code's row lock (`promo_lock`), so the last use is given once however many members ask at the same moment
(docs/decisions.md 60). The orders themselves are payments' (above this app): payments counts the uses an order holds
and passes them here."""

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from django.db import transaction
from django.db.models import F, ProtectedError
from django.utils import timezone

from studio.errors import CONFLICT, NOT_FOUND, ApplicationError

from ..models import PromoCode, PromoKind

CENT = Decimal("0.01")
CODE_MAX = 40

MSG_PROMO_NOT_FOUND = "Ce code promo n'existe pas."
MSG_PROMO_INACTIVE = "Ce code promo n'est plus actif."
MSG_PROMO_NOT_YET = "Ce code promo est valable à partir du {day}."
MSG_PROMO_ENDED = "Ce code promo a expiré le {day}."
MSG_PROMO_NOT_THIS = "Ce code promo ne s'applique pas à cet achat."
MSG_PROMO_USED_UP = "Ce code promo a atteint son nombre maximal d'utilisations."
MSG_PROMO_MEMBER_USED = "Vous avez déjà utilisé ce code promo autant de fois que permis."
MSG_PROMO_CODE_TAKEN = "Un code promo porte déjà ce nom."
MSG_PROMO_IN_USE = "Ce code promo a déjà servi : désactivez-le plutôt que de le supprimer."
MSG_PROMO_DATES = "La date de fin doit suivre la date de début."
MSG_PROMO_PERCENT = "Un pourcentage de remise va de 0,01 à 100."


class PromoError(ApplicationError):
    default_code = "promo_invalid"
    messages = {
        "promo_not_found": MSG_PROMO_NOT_FOUND,
        "promo_inactive": MSG_PROMO_INACTIVE,
        "promo_not_yet": MSG_PROMO_NOT_YET,
        "promo_ended": MSG_PROMO_ENDED,
        "promo_not_this": MSG_PROMO_NOT_THIS,
        "promo_used_up": MSG_PROMO_USED_UP,
        "promo_member_used": MSG_PROMO_MEMBER_USED,
        "promo_code_taken": MSG_PROMO_CODE_TAKEN,
        "promo_in_use": MSG_PROMO_IN_USE,
        "promo_dates": MSG_PROMO_DATES,
        "promo_percent": MSG_PROMO_PERCENT,
    }
    statuses = {
        "promo_not_found": NOT_FOUND,
        "promo_used_up": CONFLICT,
        "promo_member_used": CONFLICT,
        "promo_code_taken": CONFLICT,
        "promo_in_use": CONFLICT,
    }


def promo_normalize(code: str) -> str:
    """Codes are stored and compared in capitals, without spaces around."""
    return (code or "").strip().upper()[:CODE_MAX]


def _day(value: date) -> str:
    return value.strftime("%d/%m/%Y")


def promo_find(code: str, *, field: str = "promo_code") -> PromoCode:
    """The code a member typed, or PromoError (404)."""
    promo = PromoCode.objects.filter(code=promo_normalize(code)).prefetch_related("tariffs").first()
    if promo is None:
        raise PromoError.of("promo_not_found", field=field)
    return promo


def promo_check_applies(promo: PromoCode, *, tariff_id: int | None, today: date | None = None) -> None:
    """Refused in French when the code is off, out of its dates, or chosen for other tariffs. A code with no tariff
    chosen applies to every purchase, a single class included; one with tariffs applies only to them."""
    today = today or timezone.localdate()
    if not promo.active:
        raise PromoError.of("promo_inactive", field="promo_code")
    if promo.starts_on and today < promo.starts_on:
        raise PromoError.of("promo_not_yet", field="promo_code", day=_day(promo.starts_on))
    if promo.ends_on and today > promo.ends_on:
        raise PromoError.of("promo_ended", field="promo_code", day=_day(promo.ends_on))
    chosen = {t.pk for t in promo.tariffs.all()}
    if chosen and tariff_id not in chosen:
        raise PromoError.of("promo_not_this", field="promo_code")


def promo_discount(promo: PromoCode, amount: Decimal) -> Decimal:
    """The discount on `amount`: a percentage rounded to the cent, or an amount; never more than the price."""
    if promo.kind == PromoKind.PERCENT:
        discount = (amount * promo.value / 100).quantize(CENT, rounding=ROUND_HALF_UP)
    else:
        discount = promo.value
    return min(max(discount, Decimal("0.00")), amount).quantize(CENT)


@dataclass(frozen=True)
class PromoUses:
    """The uses an order's recording or payment must respect: those of all members, and the member's own."""

    in_all: int
    by_member: int


def promo_lock(promo_id: int) -> PromoCode:
    """The code's row, locked until the end of the caller's transaction (after the gift card in the lock order)."""
    return PromoCode.objects.select_for_update().get(pk=promo_id)


def promo_check_limits(promo: PromoCode, uses: PromoUses) -> None:
    """Refused when one more use would pass a limit. The caller holds the code's row lock."""
    if promo.max_uses is not None and uses.in_all >= promo.max_uses:
        raise PromoError.of("promo_used_up", field="promo_code")
    if promo.max_uses_per_member is not None and uses.by_member >= promo.max_uses_per_member:
        raise PromoError.of("promo_member_used", field="promo_code")


def promo_use_count(*, promo_id: int, member_uses: int) -> None:
    """An order paid with the code: one use counted, once (the caller holds the order's row lock), within the limits:
    the uses counted so far, and `member_uses`, the member's other paid orders with it."""
    with transaction.atomic():
        promo = promo_lock(promo_id)
        promo_check_limits(promo, PromoUses(in_all=promo.uses_count, by_member=member_uses))
        PromoCode.objects.filter(pk=promo.pk).update(uses_count=F("uses_count") + 1)


# --- the staff's edits -----------------------------------------------------------------------------------------


def _check_values(values: dict) -> None:
    if values.get("kind") == PromoKind.PERCENT and values.get("value", 0) > 100:
        raise PromoError.of("promo_percent", field="value")
    starts, ends = values.get("starts_on"), values.get("ends_on")
    if starts and ends and ends < starts:
        raise PromoError.of("promo_dates", field="ends_on")


def promo_save(*, promo_id: int | None = None, values: dict) -> PromoCode:
    """Create (no `promo_id`) or replace a code from the staff's typed values; the tariffs list replaces the old."""
    values = dict(values)
    tariffs = values.pop("tariffs", [])
    values["code"] = promo_normalize(values["code"])
    _check_values(values)
    with transaction.atomic():
        if PromoCode.objects.filter(code=values["code"]).exclude(pk=promo_id).exists():
            raise PromoError.of("promo_code_taken", field="code")
        if promo_id is None:
            promo = PromoCode.objects.create(**values)
        else:
            promo = promo_lock(promo_id)
            for key, value in values.items():
                setattr(promo, key, value)
            promo.save()
        promo.tariffs.set(tariffs)
    return promo


def promo_get(promo_id: int) -> PromoCode:
    promo = PromoCode.objects.filter(pk=promo_id).prefetch_related("tariffs").first()
    if promo is None:
        raise PromoError.of("promo_not_found")
    return promo


def promo_delete(*, promo_id: int) -> None:
    """A code never used goes; one an order refers to (protected) is kept for the invoices: deactivate it."""
    promo = promo_get(promo_id)
    try:
        with transaction.atomic():
            promo.delete()
    except ProtectedError:
        raise PromoError.of("promo_in_use") from None
