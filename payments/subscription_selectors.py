"""Reads of subscriptions (issue 19, DECISIONS.md 36): a fixed number of queries whatever the number of rows."""

from dataclasses import dataclass
from datetime import date as date_type
from datetime import timedelta
from decimal import Decimal

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from .models import (
    ChargeStatus,
    Subscription,
    SubscriptionAction,
    SubscriptionCharge,
    SubscriptionFreeze,
    SubscriptionStatus,
)
from .services.subscriptions import commitment_ends_on, period_due_on

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
        "member", "granted_pass", "source_order__reduced_declaration__proof"
    ).prefetch_related(
        Prefetch("charges", queryset=SubscriptionCharge.objects.order_by("period")),
        Prefetch("freezes", queryset=SubscriptionFreeze.objects.select_related("by").order_by("starts_on", "id")),
        Prefetch("actions", queryset=SubscriptionAction.objects.select_related("by").order_by("created_at", "id")),
    )


def _view(subscription: Subscription) -> SubscriptionView:
    charges = list(subscription.charges.all())
    next_due_on = next_due_amount = None
    if subscription.status in (SubscriptionStatus.ACTIVE, SubscriptionStatus.UNPAID, SubscriptionStatus.FROZEN):
        unpaid = [c for c in charges if c.status != ChargeStatus.PAID and c.status != ChargeStatus.CANCELLED]
        if unpaid:
            next_due_on, next_due_amount = unpaid[0].due_on, unpaid[0].amount
        else:
            following = max((c.period for c in charges), default=0) + 1
            if following <= subscription.periods_committed:
                next_due_on, next_due_amount = period_due_on(subscription, following), subscription.amount
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


def subscriptions_for_staff(*, filter: str = "", today: date_type | None = None) -> list[SubscriptionView]:
    """Every subscription, or those active, unpaid, frozen, or whose commitment ends within 30 days."""
    today = today or timezone.localdate()
    queryset = _base().order_by("-created_at", "-id")
    if filter in ("active", "unpaid", "frozen"):
        queryset = queryset.filter(status=filter)
    elif filter == "ending":
        queryset = queryset.filter(status__in=(SubscriptionStatus.ACTIVE, SubscriptionStatus.UNPAID))
    views = [_view(s) for s in queryset]
    if filter == "ending":
        views = [v for v in views if today <= v.ends_on <= today + timedelta(days=ENDING_WITHIN_DAYS)]
    return views


def subscription_for_staff(*, subscription_id: int) -> SubscriptionView:
    """One subscription as staff see it (after an action)."""
    return _view(_base().get(pk=subscription_id))
