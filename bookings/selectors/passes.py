"""Passes (class cards and subscriptions): their state, the member's list and the staff's, and their ledger."""

from datetime import date

from django.db.models import Q, QuerySet
from django.utils import timezone

from ..models import Pass, PassAdjustment, PassKind


def pass_state(pass_obj: Pass, *, today: date) -> str:
    """'active', 'upcoming', 'expired' or 'used' (a card with no credit left)."""
    return _state(pass_obj.kind, pass_obj.credits_left, pass_obj.starts_on, pass_obj.expires_on, today)


def _state(kind: str, credits_left: int | None, starts_on: date, expires_on: date, today: date) -> str:
    if expires_on < today:
        return "expired"
    if kind == PassKind.CARD and not credits_left:
        return "used"
    if starts_on > today:
        return "upcoming"
    return "active"


USABLE_STATES = ("active", "upcoming")
PASS_STATE_LABELS = {"active": "Valable", "upcoming": "À venir", "expired": "Expirée", "used": "Épuisée"}


def member_passes(*, user) -> list[Pass]:
    """The member's passes, usable ones first then by end date: one query."""
    today = timezone.localdate()
    passes = list(Pass.objects.filter(member=user).select_related("tariff").order_by("-expires_on", "-id"))
    for p in passes:
        p.state = pass_state(p, today=today)
        p.state_label = PASS_STATE_LABELS[p.state]
    usable = sorted((p for p in passes if p.state in USABLE_STATES), key=lambda p: (p.expires_on, p.pk))
    return usable + [p for p in passes if p.state not in USABLE_STATES]


def member_pass_rows(*, member_id: int) -> list[dict]:
    """What the profile shows of `member_passes` (same order, same states), as dicts: one query."""
    today = timezone.localdate()
    usable, others = [], []
    rows = (
        Pass.objects.filter(member_id=member_id)
        .order_by("-expires_on", "-id")
        .values_list(
            "id", "kind", "title", "credits_total", "credits_left", "starts_on", "expires_on", "rule__weekly_cap"
        )
    )
    for pk, kind, title, total, left, starts_on, expires_on, weekly_cap in rows:
        state = _state(kind, left, starts_on, expires_on, today)
        row = {
            "pk": pk,
            "title": title,
            "state": state,
            "state_label": PASS_STATE_LABELS[state],
            "is_card": kind == PassKind.CARD,
            "credits_total": total,
            "credits_left": left,
            "starts_on": starts_on,
            "expires_on": expires_on,
            "weekly_cap": weekly_cap or 0,  # its plan's classes a week (0: no cap)
        }
        (usable if state in USABLE_STATES else others).append(row)
    usable.sort(key=lambda row: (row["expires_on"], row["pk"]))
    return usable + others


def member_usable_passes(*, user) -> list[Pass]:
    """Passes that can pay for a booking from today (the session's own day is checked by the booking)."""
    return [p for p in member_passes(user=user) if p.state in USABLE_STATES]


PASS_ORDERINGS = {"expires_on", "-expires_on", "created_at", "-created_at", "member", "-member"}


def passes_staff_list(*, search: str = "", ordering: str = "-created_at") -> QuerySet:
    """Every pass with its member and tariff, for the dashboard: filtered by member name or e-mail."""
    qs = Pass.objects.select_related("member", "tariff")
    search = (search or "").strip()
    if search:
        qs = qs.filter(
            Q(member__email__icontains=search)
            | Q(member__first_name__icontains=search)
            | Q(member__last_name__icontains=search)
            | Q(title__icontains=search)
        )
    if ordering not in PASS_ORDERINGS:
        ordering = "-created_at"
    field = ordering.replace("member", "member__last_name")
    return qs.order_by(field, "-id")


def pass_adjustments(*, pass_id: int) -> QuerySet:
    return (
        PassAdjustment.objects.filter(pass_ref_id=pass_id)
        .select_related("by", "reservation__session__course")
        .order_by("-at", "-id")
    )
