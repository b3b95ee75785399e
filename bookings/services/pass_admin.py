"""Staff pass changes (dashboard): grant a pass, add or remove credits, extend; each change logged with its reason.

The API's serializers parse the input (whole credits within ±MAX_STAFF_CREDITS, ISO dates): these services take typed
values and check the studio's rules, refusing with a `PassAdminError` code (its French text and HTTP status).
"""

from datetime import date as date_type
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from courses.models import Tariff
from studio.errors import CONFLICT, NOT_FOUND

from ..models import (
    Pass,
    PassAdjustment,
    PassAdjustmentAction,
    PassKind,
    PassOrigin,
)
from .locking import lock_pass
from .pass_rules import pass_rules_from_tariff
from .passes import PassError, _fr_date, add_months

# Staff (dashboard): grant, add credits, extend; each change logged with its reason.
MSG_REASON_REQUIRED = "Indiquez la raison de la modification."
MSG_CREDITS_INVALID = "Le nombre de crédits doit être un nombre entier."
MSG_CREDITS_BELOW_ZERO = "Impossible de retirer plus de crédits qu'il n'en reste ({credits})."
MSG_SUBSCRIPTION_HAS_NO_CREDITS = "Un abonnement est illimité : il n'a pas de crédits."
MSG_DATE_INVALID = "La date doit être au format AAAA-MM-JJ."
MSG_END_BEFORE_START = "La date de fin doit être après la date de début ({date})."
MSG_NOTHING_TO_CHANGE = "Indiquez des crédits à ajouter ou à retirer, ou une nouvelle date de fin."
MSG_MEMBER_NOT_FOUND = "Aucun membre n'a cet email."
MSG_GRANT_ACCOUNT_CLOSED = (
    "Ce compte est fermé (supprimé ou désactivé) : il ne peut pas recevoir de carte ni d'abonnement."
)
MSG_TARIFF_NOT_FOUND = "Ce tarif est introuvable."
MSG_TARIFF_GRANTS_NOTHING = "Ce tarif n'accorde ni carte de cours ni abonnement."
MSG_KIND_INVALID = "Choisissez une carte de cours ou un abonnement."
MSG_GRANT_CREDITS_MIN = "Une carte de cours doit compter au moins 1 crédit."
MSG_PASS_GRANTED = "Carte attribuée avec succès !"
MSG_PASS_UPDATED = "Carte mise à jour avec succès !"

MAX_STAFF_CREDITS = 1000


class PassAdminError(PassError):
    """A refused staff change to a pass. 404 for a member, tariff or pass that does not exist; 409 when the change
    conflicts with the pass as it stands (fewer credits left, a subscription, nothing that would change)."""

    default_code = "pass_change_invalid"
    messages = {
        **PassError.messages,
        "reason_required": MSG_REASON_REQUIRED,
        "credits_invalid": MSG_CREDITS_INVALID,
        "credits_below_zero": MSG_CREDITS_BELOW_ZERO,
        "subscription_has_no_credits": MSG_SUBSCRIPTION_HAS_NO_CREDITS,
        "date_invalid": MSG_DATE_INVALID,
        "end_before_start": MSG_END_BEFORE_START,
        "nothing_to_change": MSG_NOTHING_TO_CHANGE,
        "member_not_found": MSG_MEMBER_NOT_FOUND,
        "member_account_closed": MSG_GRANT_ACCOUNT_CLOSED,
        "tariff_not_found": MSG_TARIFF_NOT_FOUND,
        "tariff_grants_nothing": MSG_TARIFF_GRANTS_NOTHING,
        "kind_invalid": MSG_KIND_INVALID,
        "grant_credits_min": MSG_GRANT_CREDITS_MIN,
    }
    statuses = {
        **PassError.statuses,
        "member_not_found": NOT_FOUND,
        "member_account_closed": CONFLICT,
        "tariff_not_found": NOT_FOUND,
        "tariff_grants_nothing": CONFLICT,
        "credits_below_zero": CONFLICT,
        "subscription_has_no_credits": CONFLICT,
        "nothing_to_change": CONFLICT,
    }


def _months_later(day: date_type, months: int) -> date_type:
    """add_months, refused in French past the calendar's last year (9999) rather than failing."""
    try:
        return add_months(day, months)
    except (ValueError, OverflowError):
        raise PassAdminError.of("date_invalid", field="expires_on") from None


@transaction.atomic
def pass_grant(
    *,
    actor,
    member_email: str,
    reason: str,
    tariff_id: int | None = None,
    kind: str = "",
    credits: int | None = None,
    starts_on: date_type | None = None,
    expires_on: date_type | None = None,
) -> Pass:
    """Staff give a member a pass: what a tariff grants (from today), or a card/subscription set by hand."""
    reason = (reason or "").strip()
    if not reason:
        raise PassAdminError.of("reason_required", field="reason")
    member_email = (member_email or "").strip()
    member = User.objects.filter(email__iexact=member_email).first() if member_email else None
    if member is None:
        raise PassAdminError.of("member_not_found", field="member_email")
    if not member.is_active:  # deleted (anonymised) or deactivated: nothing more is given to it
        raise PassAdminError.of("member_account_closed", field="member_email")
    tariff = None
    if tariff_id is not None:
        tariff = Tariff.objects.filter(pk=tariff_id).first()
        if tariff is None:
            raise PassAdminError.of("tariff_not_found", field="tariff_id")
        if not tariff.grants_pass:
            raise PassAdminError.of("tariff_grants_nothing", field="tariff_id")
    starts = starts_on or timezone.localdate()
    if tariff is not None and not kind:
        kind = PassKind.SUBSCRIPTION if tariff.pass_unlimited else PassKind.CARD
    if kind not in PassKind.values:
        raise PassAdminError.of("kind_invalid", field="kind")
    if kind == PassKind.CARD:
        if credits is None:
            credits = (tariff.pass_credits or 0) if tariff else 0
            if credits < 1 and tariff is not None:  # the tariff's offer, not the request: a conflict
                raise PassAdminError.of("grant_credits_min", field="credits", status=CONFLICT)
        if credits < 1:
            raise PassAdminError.of("grant_credits_min", field="credits")
    else:
        credits = None
    ends = expires_on
    if ends is None:
        if tariff is None:
            raise PassAdminError.of("date_invalid", field="expires_on")
        ends = _months_later(starts, tariff.pass_validity_months)
        if kind == PassKind.SUBSCRIPTION:
            ends -= timedelta(days=1)
    if ends < starts:
        # Two dates that each are valid (the start is today's when not sent): a conflict with the calendar.
        raise PassAdminError.of("end_before_start", field="expires_on", status=CONFLICT, date=_fr_date(starts))
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
    pass_rules_from_tariff(pass_obj=pass_obj, tariff=tariff)
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
def pass_adjust(
    *, actor, pass_id: int, reason: str, credits_delta: int | None = None, expires_on: date_type | None = None
) -> Pass:
    """Staff add (or remove) credits and/or move the end date, under the pass's row lock; each change is logged."""
    reason = (reason or "").strip()
    pass_obj = lock_pass(pass_id) if 0 < pass_id < 2**31 else None
    if pass_obj is None:
        raise PassAdminError.of("pass_not_found")
    if not reason:
        raise PassAdminError.of("reason_required", field="reason")
    delta = credits_delta or 0
    new_end = expires_on
    if new_end == pass_obj.expires_on:
        new_end = None
    if not delta and new_end is None:
        raise PassAdminError.of("nothing_to_change")
    if delta:
        if pass_obj.kind != PassKind.CARD:
            raise PassAdminError.of("subscription_has_no_credits", field="credits_delta")
        if pass_obj.credits_left + delta < 0:
            raise PassAdminError.of("credits_below_zero", field="credits_delta", credits=pass_obj.credits_left)
    if new_end is not None and new_end < pass_obj.starts_on:
        # The pass's own start date, not the request, makes this end impossible: a conflict with the pass.
        raise PassAdminError.of(
            "end_before_start", field="expires_on", status=CONFLICT, date=_fr_date(pass_obj.starts_on)
        )
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


# Until every caller passes typed values (the services package no longer re-exports these).
def _parse_day(value, *, required: bool) -> date_type | None:
    parsed = None if value in (None, "") else _parse_date(str(value)[:10])
    if parsed is None and (required or value not in (None, "")):
        raise PassAdminError.of("date_invalid")
    return parsed


def _parse_credits(value, *, default: int = 0) -> int:
    if value in (None, ""):
        return default
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise PassAdminError.of("credits_invalid") from None
    if abs(number) > MAX_STAFF_CREDITS:
        raise PassAdminError.of("credits_invalid")
    return number


def _parse_date(value) -> date_type | None:
    """ISO text → date (a date passes as it is); None when it is not one."""
    try:
        return value if isinstance(value, date_type) else date_type.fromisoformat(str(value).strip())
    except ValueError:
        return None
