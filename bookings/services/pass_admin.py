"""Staff pass changes (dashboard): grant a pass, add or remove credits, extend; each change logged with its reason."""

from datetime import date as date_type
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from courses.models import Tariff

from ..models import (
    Pass,
    PassAdjustment,
    PassAdjustmentAction,
    PassKind,
    PassOrigin,
)
from .common import ReservationError, _as_id
from .parties import _parse_date
from .passes import MSG_PASS_NOT_FOUND, _fr_date, add_months

# Staff (dashboard): grant, add credits, extend; each change logged with its reason.
MSG_REASON_REQUIRED = "Indiquez la raison de la modification."
MSG_CREDITS_INVALID = "Le nombre de crédits doit être un nombre entier."
MSG_CREDITS_BELOW_ZERO = "Impossible de retirer plus de crédits qu'il n'en reste ({credits})."
MSG_SUBSCRIPTION_HAS_NO_CREDITS = "Un abonnement est illimité : il n'a pas de crédits."
MSG_DATE_INVALID = "La date doit être au format AAAA-MM-JJ."
MSG_END_BEFORE_START = "La date de fin doit être après la date de début ({date})."
MSG_NOTHING_TO_CHANGE = "Indiquez des crédits à ajouter ou à retirer, ou une nouvelle date de fin."
MSG_MEMBER_NOT_FOUND = "Aucun membre n'a cet email."
MSG_TARIFF_NOT_FOUND = "Ce tarif est introuvable."
MSG_TARIFF_GRANTS_NOTHING = "Ce tarif n'accorde ni carte de cours ni abonnement."
MSG_KIND_INVALID = "Choisissez une carte de cours ou un abonnement."
MSG_GRANT_CREDITS_MIN = "Une carte de cours doit compter au moins 1 crédit."
MSG_PASS_GRANTED = "Carte attribuée avec succès !"
MSG_PASS_UPDATED = "Carte mise à jour avec succès !"

MAX_STAFF_CREDITS = 1000


def _parse_day(value, *, required: bool) -> date_type | None:
    if value in (None, ""):
        if required:
            raise ReservationError(MSG_DATE_INVALID)
        return None
    parsed = _parse_date(str(value)[:10]) if not isinstance(value, date_type) else value
    if parsed is None:
        raise ReservationError(MSG_DATE_INVALID)
    return parsed


def _parse_credits(value, *, default: int = 0) -> int:
    if value in (None, ""):
        return default
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise ReservationError(MSG_CREDITS_INVALID) from None
    if abs(number) > MAX_STAFF_CREDITS:
        raise ReservationError(MSG_CREDITS_INVALID)
    return number


@transaction.atomic
def pass_grant(
    *,
    actor,
    member_email: str,
    reason: str,
    tariff_id=None,
    kind: str = "",
    credits=None,
    starts_on=None,
    expires_on=None,
) -> Pass:
    """Staff give a member a pass: what a tariff grants (from today), or a card/subscription set by hand."""
    from accounts.models import User

    reason = (reason or "").strip()
    if not reason:
        raise ReservationError(MSG_REASON_REQUIRED)
    member = User.objects.filter(email__iexact=(member_email or "").strip()).first() if member_email else None
    if member is None:
        raise ReservationError(MSG_MEMBER_NOT_FOUND)
    tariff = None
    if tariff_id not in (None, ""):
        tariff = Tariff.objects.filter(pk=_as_id(tariff_id) or 0).first()
        if tariff is None:
            raise ReservationError(MSG_TARIFF_NOT_FOUND)
        if not tariff.grants_pass:
            raise ReservationError(MSG_TARIFF_GRANTS_NOTHING)
    starts = _parse_day(starts_on, required=False) or timezone.localdate()
    if tariff is not None and not kind:
        kind = PassKind.SUBSCRIPTION if tariff.pass_unlimited else PassKind.CARD
    if kind not in PassKind.values:
        raise ReservationError(MSG_KIND_INVALID)
    if kind == PassKind.CARD:
        credits = _parse_credits(credits, default=tariff.pass_credits if tariff else 0)
        if credits < 1:
            raise ReservationError(MSG_GRANT_CREDITS_MIN)
    else:
        credits = None
    ends = _parse_day(expires_on, required=tariff is None)
    if ends is None:
        ends = add_months(starts, tariff.pass_validity_months)
        if kind == PassKind.SUBSCRIPTION:
            ends -= timedelta(days=1)
    if ends < starts:
        raise ReservationError(MSG_END_BEFORE_START.format(date=_fr_date(starts)))
    title = tariff.title if tariff else ("Carte de cours" if kind == PassKind.CARD else "Abonnement")
    pass_obj = Pass.objects.create(
        member=member,
        tariff=tariff,
        kind=kind,
        origin=PassOrigin.STAFF,
        title=title[:150],
        credits_total=credits,
        credits_left=credits,
        starts_on=starts,
        expires_on=ends,
    )
    PassAdjustment.objects.create(
        pass_ref=pass_obj,
        action=PassAdjustmentAction.GRANT,
        by=actor,
        credits_delta=credits or 0,
        expires_on_after=ends,
        reason=reason,
    )
    return pass_obj


@transaction.atomic
def pass_adjust(*, actor, pass_id: int, reason: str, credits_delta=None, expires_on=None) -> Pass:
    """Staff add (or remove) credits and/or move the end date, under the pass's row lock; each change is logged."""
    reason = (reason or "").strip()
    pass_obj = Pass.objects.select_for_update().filter(pk=_as_id(pass_id) or 0).first()
    if pass_obj is None:
        raise ReservationError(MSG_PASS_NOT_FOUND)
    if not reason:
        raise ReservationError(MSG_REASON_REQUIRED)
    delta = _parse_credits(credits_delta)
    new_end = _parse_day(expires_on, required=False)
    if new_end == pass_obj.expires_on:
        new_end = None
    if not delta and new_end is None:
        raise ReservationError(MSG_NOTHING_TO_CHANGE)
    if delta:
        if pass_obj.kind != PassKind.CARD:
            raise ReservationError(MSG_SUBSCRIPTION_HAS_NO_CREDITS)
        if pass_obj.credits_left + delta < 0:
            raise ReservationError(MSG_CREDITS_BELOW_ZERO.format(credits=pass_obj.credits_left))
    if new_end is not None and new_end < pass_obj.starts_on:
        raise ReservationError(MSG_END_BEFORE_START.format(date=_fr_date(pass_obj.starts_on)))
    changed = []
    if delta:
        pass_obj.credits_left += delta
        if delta > 0:
            pass_obj.credits_total += delta
        changed += ["credits_left", "credits_total"]
        PassAdjustment.objects.create(
            pass_ref=pass_obj, action=PassAdjustmentAction.CREDITS, by=actor, credits_delta=delta, reason=reason
        )
    if new_end is not None:
        PassAdjustment.objects.create(
            pass_ref=pass_obj,
            action=PassAdjustmentAction.EXTEND,
            by=actor,
            expires_on_before=pass_obj.expires_on,
            expires_on_after=new_end,
            reason=reason,
        )
        pass_obj.expires_on = new_end
        changed.append("expires_on")
    pass_obj.save(update_fields=changed)
    return pass_obj


# --- Course sessions (staff) ---
