"""Reads of subscriptions (docs/decisions.md 36): a fixed number of queries whatever the number of rows."""

from dataclasses import dataclass
from datetime import date as date_type
from datetime import timedelta
from decimal import Decimal

from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.utils import timezone

from studio.permissions import is_studio_staff

from .models import (
    ChargeStatus,
    ReducedRateDeclaration,
    ReducedRateProof,
    Subscription,
    SubscriptionAction,
    SubscriptionCharge,
    SubscriptionFreeze,
    SubscriptionStatus,
    saved_method_label,
)
from .periods import commitment_ends_on, period_due_on

FILTERS = ("active", "unpaid", "frozen", "ending")
ENDING_WITHIN_DAYS = 30


@dataclass(frozen=True)
class SubscriptionView:
    subscription: Subscription
    ends_on: date_type
    periods_left: int
    next_due_on: date_type | None
    next_due_amount: Decimal | None
    charges: list


def _base() -> QuerySet:
    return Subscription.objects.select_related(
        "member", "granted_pass", "source_order__reduced_declaration__proof", "saved_method"
    ).prefetch_related(
        Prefetch("charges", queryset=SubscriptionCharge.objects.order_by("period")),
        Prefetch("freezes", queryset=SubscriptionFreeze.objects.select_related("by").order_by("starts_on", "id")),
        Prefetch("actions", queryset=SubscriptionAction.objects.select_related("by").order_by("created_at", "id")),
    )


def _next_due(subscription: Subscription, charges) -> tuple[date_type | None, Decimal | None]:
    """The first charge neither paid nor cancelled, else the next period's if within the commitment; `charges` are
    (period, due_on, amount, status), by period."""
    if subscription.status in (SubscriptionStatus.ACTIVE, SubscriptionStatus.UNPAID, SubscriptionStatus.FROZEN):
        unpaid = [c for c in charges if c[3] != ChargeStatus.PAID and c[3] != ChargeStatus.CANCELLED]
        if unpaid:
            return unpaid[0][1], unpaid[0][2]
        following = max((c[0] for c in charges), default=0) + 1
        if following <= subscription.periods_committed:
            return period_due_on(subscription, following), subscription.amount
    return None, None


def _view(subscription: Subscription) -> SubscriptionView:
    charges = list(subscription.charges.all())
    next_due_on, next_due_amount = _next_due(subscription, [(c.period, c.due_on, c.amount, c.status) for c in charges])
    return SubscriptionView(
        subscription=subscription,
        ends_on=commitment_ends_on(subscription),
        periods_left=subscription.periods_committed - subscription.periods_paid,
        next_due_on=next_due_on,
        next_due_amount=next_due_amount,
        charges=charges,
    )


def subscriptions_of_member(*, user) -> list[SubscriptionView]:
    return [_view(s) for s in _base().filter(member=user).order_by("-created_at", "-id")]


# The profile's reads: the member's subscriptions with their charges in one query (a row per charge), their freezes
# in a second one only when there are some. What the member's page shows, nothing more.
_SUBSCRIPTION_FIELDS = (
    "id", "title", "provider", "status", "amount", "period_months", "periods_committed", "periods_paid", "starts_on"
)  # fmt: skip
_CHARGE_FIELDS = ("period", "due_on", "amount", "status", "next_attempt_on", "provider_reference", "paid_at")
_CHARGE_LABELS = dict(ChargeStatus.choices)
# A period due of a subscription sold at the desk with no card or mandate saved: the desk takes its payment
# (docs/decisions.md 43), which the member and staff read instead of "À payer".
DESK_DUE_LABEL = "À régler à l'accueil"


def _charge_label(status: str, *, desk: bool) -> str:
    if desk and status == ChargeStatus.DUE:
        return DESK_DUE_LABEL
    return _CHARGE_LABELS.get(status, status)


# The saved card or mandate the later periods are charged to, joined to the subscription (no query more).
_METHOD_FIELDS = ("kind", "last4", "exp_month", "exp_year", "country", "mandate_accepted_at")
_METHOD_JOINED = tuple(f"saved_method__{f}" for f in _METHOD_FIELDS)


def _method_label(values) -> str:
    """The saved method's label from its joined values ("" without one: a LEFT JOIN's NULLs)."""
    named = dict(zip(_METHOD_FIELDS, values, strict=True))
    return saved_method_label(**named) if named["kind"] else ""


def member_subscription_rows(*, member_id: int) -> list[dict]:
    """What the member's profile shows of `subscriptions_of_member` (same order, dates and amounts), as dicts: the
    subscription's plain fields and pk, status_label, pass_expires_on, ends_on, periods_left, next_due_on,
    next_due_amount, charges: [{period, due_on, amount, status, status_label, next_attempt_on, provider_reference,
    paid_at}]. One query, two when a subscription was ever frozen."""
    width = len(_SUBSCRIPTION_FIELDS)
    found: dict[int, tuple] = {}
    subscriptions = (
        Subscription.objects.filter(member_id=member_id)
        .annotate(has_freezes=Exists(SubscriptionFreeze.objects.filter(subscription=OuterRef("pk"))))
        .order_by("-created_at", "-id", "charges__period")
        .values_list(
            *_SUBSCRIPTION_FIELDS,
            "granted_pass__expires_on",
            "has_freezes",
            *_METHOD_JOINED,
            *(f"charges__{f}" for f in _CHARGE_FIELDS),
        )
    )
    head = width + 2 + len(_METHOD_JOINED)
    for row in subscriptions:
        _fields, charges = found.get(row[0]) or found.setdefault(row[0], (row[:head], []))
        if row[head] is not None:  # a charge (the LEFT JOIN gives one row of NULLs when there is none)
            charges.append(dict(zip(_CHARGE_FIELDS, row[head:], strict=True)))
    freezes: dict[int, list] = {}
    if any(fields[width + 1] for fields, _ in found.values()):
        member_freezes = (
            SubscriptionFreeze.objects.filter(subscription__member_id=member_id)
            .order_by("starts_on", "id")
            .values_list("id", "subscription_id", "starts_on", "weeks")
        )
        for pk, subscription_id, starts_on, weeks in member_freezes:
            freezes.setdefault(subscription_id, []).append(
                SubscriptionFreeze(id=pk, subscription_id=subscription_id, starts_on=starts_on, weeks=weeks)
            )
    rows = []
    for pk, (fields, charges) in found.items():
        named = dict(zip(_SUBSCRIPTION_FIELDS, fields[:width], strict=True))
        subscription = Subscription(member_id=member_id, **named)
        # The dates read the freezes through `subscription.freezes.all()`: given here as prefetch_related would.
        subscription._prefetched_objects_cache = {"freezes": freezes.get(pk, [])}
        method_label = _method_label(fields[width + 2 : head])
        desk = named["provider"] == "desk" and not method_label
        for charge in charges:
            charge["status_label"] = _charge_label(charge["status"], desk=desk)
        next_due_on, next_due_amount = _next_due(
            subscription, [(c["period"], c["due_on"], c["amount"], c["status"]) for c in charges]
        )
        named.update(
            pk=pk,
            status_label=subscription.get_status_display(),
            pass_expires_on=fields[width],
            method_label=method_label,
            desk_due=desk and any(c["status"] == ChargeStatus.DUE for c in charges),
            ends_on=commitment_ends_on(subscription),
            periods_left=subscription.periods_committed - subscription.periods_paid,
            next_due_on=next_due_on,
            next_due_amount=next_due_amount,
            charges=charges,
        )
        rows.append(named)
    return rows


# The staff's list reads plain values: a studio's year is hundreds of subscriptions and thousands of charges, which as
# model instances (each subscription with its member, pass, order, declaration and proof, each charge) cost several
# times the answer. Four queries whatever the number of rows: the subscriptions (joined to what they show of their
# member, pass and reduced-rate declaration), their charges, freezes and staff actions.
_STAFF_FIELDS = (
    "id", "title", "provider", "status", "amount", "currency", "period_months", "periods_committed", "periods_paid",
    "starts_on",
)  # fmt: skip
_STAFF_JOINED = (
    "granted_pass__expires_on",
    "member_id", "member__first_name", "member__last_name", "member__email",
    "source_order__reduced_declaration__id", "source_order__reduced_declaration__status",
    "source_order__reduced_declaration__confirmed_at", "source_order__reduced_declaration__proof_id",
    "source_order__reduced_declaration__ended_at",
    *_METHOD_JOINED,
)  # fmt: skip
_STAFF_CHARGE_FIELDS = (
    "period", "due_on", "amount", "status", "attempts", "next_attempt_on", "paid_at", "provider_reference",
    "refunded_at",
)  # fmt: skip
_STAFF_CHARGE_KEYS = tuple("reference" if f == "provider_reference" else f for f in _STAFF_CHARGE_FIELDS)


def _label(model, field: str) -> dict:
    """A field's value → label, as `get_<field>_display()` reads them (an unknown value shows as itself)."""
    return dict(model._meta.get_field(field).flatchoices)


def _name(first_name, last_name, email) -> str:
    """`User.get_full_name() or email`, '' without a user (a LEFT JOIN's NULLs)."""
    if email is None:
        return ""
    return f"{first_name} {last_name}".strip() or email


def staff_subscription_rows(*, filter: str = "", today: date_type | None = None) -> list[dict]:
    """What staff see of every subscription, or those active, unpaid, frozen, or whose commitment ends within 30 days
    (`filter`), newest first, as dicts: the subscription's fields, status_label,
    periods_left, ends_on, pass_expires_on, next_due_on, next_due_amount, charges (with `reference`, the provider's),
    freezes, provider, reduced ({status, status_label, confirmed_at, proof_id, ended_at} or None), actions and member
    ({id, first_name, last_name, email})."""
    today = today or timezone.localdate()
    queryset = Subscription.objects.order_by("-created_at", "-id")
    if filter in ("active", "unpaid", "frozen"):
        queryset = queryset.filter(status=filter)
    elif filter == "ending":
        queryset = queryset.filter(status__in=(SubscriptionStatus.ACTIVE, SubscriptionStatus.UNPAID))
    found = list(queryset.values_list(*_STAFF_FIELDS, *_STAFF_JOINED))
    ids = [row[0] for row in found]
    charges: dict[int, list] = {}
    freezes: dict[int, list] = {}
    actions: dict[int, list] = {}
    if ids:
        charge_rows = (
            SubscriptionCharge.objects.filter(subscription_id__in=ids)
            .order_by("period")
            .values_list("subscription_id", *_STAFF_CHARGE_FIELDS)
        )
        for subscription, *values in charge_rows:
            charges.setdefault(subscription, []).append(dict(zip(_STAFF_CHARGE_KEYS, values, strict=True)))
        freeze_rows = (
            SubscriptionFreeze.objects.filter(subscription_id__in=ids)
            .order_by("starts_on", "id")
            .values_list(
                "id", "subscription_id", "starts_on", "weeks", "reason", "by__first_name", "by__last_name", "by__email"
            )
        )
        for pk, subscription, starts_on, weeks, reason, *by in freeze_rows:
            freezes.setdefault(subscription, []).append(
                (SubscriptionFreeze(id=pk, subscription_id=subscription, starts_on=starts_on, weeks=weeks), reason, by)
            )
        action_rows = (
            SubscriptionAction.objects.filter(subscription_id__in=ids)
            .order_by("created_at", "id")
            .values_list(
                "subscription_id", "kind", "reason", "outcome", "created_at", "by__first_name", "by__last_name",
                "by__email",
            )
        )  # fmt: skip
        kinds = _label(SubscriptionAction, "kind")
        for subscription, kind, reason, outcome, created_at, *by in action_rows:
            actions.setdefault(subscription, []).append(
                {
                    "kind": kind,
                    "label": kinds.get(kind, kind),
                    "reason": reason,
                    "outcome": outcome,
                    "by": _name(*by),
                    "created_at": created_at,
                }
            )
    charge_labels = _label(SubscriptionCharge, "status")
    reduced_labels = _label(ReducedRateDeclaration, "status")
    width = len(_STAFF_FIELDS)
    rows = []
    for row in found:
        named = dict(zip(_STAFF_FIELDS, row[:width], strict=True))
        (
            pass_expires_on, member_id, first_name, last_name, email,
            declaration_id, declaration_status, confirmed_at, proof_id, ended_at, *method,
        ) = row[width:]  # fmt: skip
        pk = named["id"]
        subscription = Subscription(member_id=member_id, **named)
        own_freezes = freezes.get(pk, [])
        # The dates read the freezes through `subscription.freezes.all()`: given here as prefetch_related would.
        subscription._prefetched_objects_cache = {"freezes": [freeze for freeze, _, _ in own_freezes]}
        own_charges = charges.get(pk, [])
        desk = named["provider"] == "desk" and not _method_label(method)
        for charge in own_charges:
            charge["status_label"] = (
                DESK_DUE_LABEL
                if desk and charge["status"] == ChargeStatus.DUE
                else charge_labels.get(charge["status"], charge["status"])
            )
        next_due_on, next_due_amount = _next_due(
            subscription, [(c["period"], c["due_on"], c["amount"], c["status"]) for c in own_charges]
        )
        ends_on = commitment_ends_on(subscription)
        if filter == "ending" and not today <= ends_on <= today + timedelta(days=ENDING_WITHIN_DAYS):
            continue
        named.update(
            status_label=subscription.get_status_display(),
            periods_left=subscription.periods_committed - subscription.periods_paid,
            ends_on=ends_on,
            pass_expires_on=pass_expires_on,
            next_due_on=next_due_on,
            next_due_amount=next_due_amount,
            charges=own_charges,
            freezes=[
                {
                    "starts_on": freeze.starts_on,
                    "weeks": freeze.weeks,
                    "ends_on": freeze.starts_on + timedelta(weeks=freeze.weeks) - timedelta(days=1),
                    "reason": reason,
                    "by": _name(*by),
                }
                for freeze, reason, by in own_freezes
            ],
            reduced=None
            if declaration_id is None
            else {
                "status": declaration_status,
                "status_label": reduced_labels.get(declaration_status, declaration_status),
                "confirmed_at": confirmed_at,
                "proof_id": proof_id,
                "ended_at": ended_at,
            },
            actions=actions.get(pk, []),
            method_label=_method_label(method),
            member={"id": member_id, "first_name": first_name, "last_name": last_name, "email": email},
        )
        rows.append(named)
    return rows


def subscription_for_staff(*, subscription_id: int) -> SubscriptionView:
    """One subscription as staff see it (after an action)."""
    return _view(_base().get(pk=subscription_id))


def reduced_proof_for_reader(*, proof_id: int, user) -> ReducedRateProof | None:
    """The reduced-rate proof if `user` sent it or is staff; otherwise None, as for one that does not exist: an
    identity document, whose existence is not told to anyone else."""
    if not (user and user.is_authenticated) or not 0 < proof_id < 2**31:
        return None
    proof = ReducedRateProof.objects.filter(pk=proof_id).exclude(file="").first()
    if proof is None or (proof.member_id != user.pk and not is_studio_staff(user)):
        return None
    return proof
