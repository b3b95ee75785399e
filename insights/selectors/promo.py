"""Promo codes (docs/decisions.md 60): each code's uses and revenue in the period, the owner's view of what it brought.

A use is an order paid with the code in the period (refunded since included, as money in counts it); its revenue is
what the orders invoiced (after the discount), its discount what the code took off. One query."""

from django.db.models import Count, Sum
from django.db.models.functions import Coalesce

from payments.models import PaymentOrder

from ..period import Period
from .common import during, money
from .money import ORDER_PAID


def promo_code_stats(*, period: Period) -> list[dict]:
    rows = (
        PaymentOrder.objects.alias(paid_at=Coalesce("completed_at", "created_at"))
        .filter(ORDER_PAID & during("paid_at", period), promo_code__isnull=False)
        .values("promo_code__code")
        .annotate(uses=Count("id"), revenue=Sum("amount"), discount=Sum("discount_amount"))
        .order_by("-uses", "promo_code__code")
    )
    return [
        {
            "code": row["promo_code__code"],
            "uses": row["uses"],
            "revenue": money(row["revenue"]),
            "discount": money(row["discount"]),
        }
        for row in rows
    ]
