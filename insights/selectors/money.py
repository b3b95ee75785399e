"""Money: what came in and went out in the period and the one before, by week or month.

- money in: card or desk payments captured (completed, refunds included since that money did come in first: the
  refund is counted apart, when it went out) plus the later periods of subscriptions charged (the first period(s)
  are paid by the purchase order, counted once). A gift card's sale is money in; spending it is not new money, so an
  order counts only what the provider or the desk took, not its gift card's part (docs/decisions.md 60);
- refunds: orders refunded in the period (`refunded_at`), less the part given back to a gift card;
- class cards and subscriptions sold: orders captured in the period that granted a pass of that kind;
- unpaid: subscription periods due in the period, already due today, not paid;
- revenue per class: (money in − refunds) / classes held (not cancelled) in the period.
"""

from datetime import date

from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from bookings.models import PassKind
from courses.models import CourseSession, SessionStatus
from payments.models import PaymentOrder, PaymentStatus
from payments.subscriptions.models import ChargeStatus, SubscriptionCharge

from ..period import Period
from .common import CENT, ZERO, as_day, bucket_of, during, money, on_days, spanning

PAID_ORDER_STATUSES = (PaymentStatus.COMPLETED, PaymentStatus.REFUND_PENDING, PaymentStatus.REFUNDED)
UNPAID_CHARGE_STATUSES = (ChargeStatus.DUE, ChargeStatus.FAILED, ChargeStatus.PROCESSING)

ORDER_PAID = Q(status__in=PAID_ORDER_STATUSES)
ORDER_REFUNDED = Q(status=PaymentStatus.REFUNDED, refunded_at__isnull=False)
# A period charged after the purchase: the purchase order paid periods 1..quantity itself.
CHARGE_COLLECTED = Q(
    status=ChargeStatus.PAID, paid_at__isnull=False, period__gt=F("subscription__source_order__quantity")
)
CHARGE_UNPAID = Q(status__in=UNPAID_CHARGE_STATUSES)
# What an order brought in money: its total less what a gift card paid (already counted when the card was sold).
ORDER_MONEY = F("amount") - F("gift_card_amount")
ORDER_BROUGHT_MONEY = Q(amount__gt=F("gift_card_amount"))


def _money_pair(values: dict, key: str) -> dict:
    return {
        "current": money(values[f"{key}_now"]),
        "previous": money(values[f"{key}_before"]),
        "current_count": values[f"{key}_count_now"] or 0,
        "previous_count": values[f"{key}_count_before"] or 0,
    }


def _sum_and_count(key: str, condition: Q, periods: dict, value="amount") -> dict:
    aggregates = {}
    for label, condition_of_period in periods.items():
        where = condition & condition_of_period
        aggregates[f"{key}_{label}"] = Sum(value, filter=where)
        aggregates[f"{key}_count_{label}"] = Count("id", filter=where)
    return aggregates


def _add(a: dict, b: dict) -> dict:
    return {k: a[k] + b[k] for k in a}


def money_stats(*, period: Period, today: date | None = None) -> dict:
    """Six queries whatever the number of rows."""
    today = today or timezone.localdate()
    before = period.previous()
    both = spanning(period)
    orders = PaymentOrder.objects.alias(paid_at=Coalesce("completed_at", "created_at"))
    paid_in = {"now": during("paid_at", period), "before": during("paid_at", before)}
    refunded_in = {"now": during("refunded_at", period), "before": during("refunded_at", before)}
    order_values = orders.filter(
        (ORDER_PAID & during("paid_at", both)) | (ORDER_REFUNDED & during("refunded_at", both))
    ).aggregate(
        **_sum_and_count("orders", ORDER_PAID & ORDER_BROUGHT_MONEY, paid_in, ORDER_MONEY),
        **_sum_and_count("refunds", ORDER_REFUNDED & ORDER_BROUGHT_MONEY, refunded_in, ORDER_MONEY),
        **_sum_and_count("cards", ORDER_PAID & Q(granted_pass__kind=PassKind.CARD), paid_in),
        **_sum_and_count("subscriptions", ORDER_PAID & Q(granted_pass__kind=PassKind.SUBSCRIPTION), paid_in),
    )
    due_in = {"now": on_days("due_on", period), "before": on_days("due_on", before)}
    charge_values = SubscriptionCharge.objects.filter(
        (CHARGE_COLLECTED & during("paid_at", both)) | (CHARGE_UNPAID & on_days("due_on", both) & Q(due_on__lte=today))
    ).aggregate(
        **_sum_and_count(
            "periods", CHARGE_COLLECTED, {"now": during("paid_at", period), "before": during("paid_at", before)}
        ),
        **_sum_and_count("unpaid", CHARGE_UNPAID & Q(due_on__lte=today), due_in),
    )
    held = (
        CourseSession.objects.filter(during("start", both))
        .exclude(status=SessionStatus.CANCELLED)
        .aggregate(
            held_now=Count("id", filter=during("start", period)),
            held_before=Count("id", filter=during("start", before)),
        )
    )
    card_payments = _money_pair(order_values, "orders")
    subscription_periods = _money_pair(charge_values, "periods")
    money_in = _add(card_payments, subscription_periods)
    refunds = _money_pair(order_values, "refunds")
    classes_held = {"current": held["held_now"], "previous": held["held_before"]}

    def per_class(which: str):
        classes = classes_held[which]
        return ((money_in[which] - refunds[which]) / classes).quantize(CENT) if classes else None

    return {
        "bucket": period.bucket,
        "money_in": money_in,
        "card_payments": card_payments,
        "subscription_periods": subscription_periods,
        "refunds": refunds,
        "cards_sold": _money_pair(order_values, "cards"),
        "subscriptions_sold": _money_pair(order_values, "subscriptions"),
        "unpaid": _money_pair(charge_values, "unpaid"),
        "classes_held": classes_held,
        "revenue_per_class": {"current": per_class("current"), "previous": per_class("previous")},
        "series": _series(period, orders),
    }


def _grouped(queryset, field: str, bucket: str, value="amount") -> dict:
    rows = queryset.annotate(bucket=bucket_of(field, bucket)).values("bucket").annotate(total=Sum(value))
    return {as_day(row["bucket"]): row["total"] or ZERO for row in rows.order_by()}


def _series(period: Period, orders) -> list[dict]:
    """Money in and refunds per week (Monday) or month (1st), every bucket of the period, empty ones at zero."""
    bucket = period.bucket
    paid = _grouped(orders.filter(ORDER_PAID & during("paid_at", period)), "paid_at", bucket, ORDER_MONEY)
    charged = _grouped(
        SubscriptionCharge.objects.filter(CHARGE_COLLECTED & during("paid_at", period)), "paid_at", bucket
    )
    refunded = _grouped(
        PaymentOrder.objects.filter(ORDER_REFUNDED & during("refunded_at", period)), "refunded_at", bucket, ORDER_MONEY
    )
    return [
        {
            "start": start,
            "money_in": money(paid.get(start, ZERO) + charged.get(start, ZERO)),
            "refunds": money(refunded.get(start, ZERO)),
        }
        for start in period.bucket_starts()
    ]
