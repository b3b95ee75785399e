"""Reads of the front desk's sales (docs/decisions.md 43): a sale's means of payment (for its invoice) and a day's
takings ("caisse du jour") by means, with the list of the day's sales and its CSV (docs/decisions.md 39). A fixed
number of queries whatever the number of sales."""

from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.db.models import Count, Prefetch, Sum
from django.utils import timezone

from studio.spreadsheets import CellType, Column, table_csv

from .choices import DeskMeans, PaymentProviderName
from .models import DeskPaymentLine, PaymentOrder, PaymentStatus
from .subscriptions.models import ChargeStatus, SubscriptionCharge, SubscriptionStatus


def desk_payment_lines_of(*, order_id: int) -> list[tuple[str, Decimal]]:
    """A desk sale's means of payment as the invoice lists them: [("Pass'Sport", Decimal("50.00")), …]; [] for an
    order paid otherwise."""
    lines = DeskPaymentLine.objects.filter(order_id=order_id).order_by("id").values_list("means", "amount")
    return [(DeskMeans(means).label, amount) for means, amount in lines]


def _day_bounds(day: date) -> tuple[datetime, datetime]:
    zone = timezone.get_default_timezone()
    return (
        timezone.make_aware(datetime.combine(day, time.min), zone),
        timezone.make_aware(datetime.combine(day + timedelta(days=1), time.min), zone),
    )


def _day_sales(day: date):
    """The desk sales completed on a Paris day (kept even when later refunded: they were taken that day)."""
    low, high = _day_bounds(day)
    return PaymentOrder.objects.filter(
        provider=PaymentProviderName.DESK, completed_at__gte=low, completed_at__lt=high
    ).exclude(status__in=[PaymentStatus.CREATED, PaymentStatus.APPROVED, PaymentStatus.DECLINED])


def desk_takings(*, day: date) -> dict:
    """The day's takings: per means (every means listed, in the desk's order) the number of payments and their
    total, the day's total, and the sales with their lines. Three queries."""
    sales = list(
        _day_sales(day)
        .select_related("user")
        .prefetch_related(
            Prefetch(
                "desk_payments",
                queryset=DeskPaymentLine.objects.select_related("recorded_by").order_by("id"),
            )
        )
        .order_by("completed_at", "id")
    )
    sums = {
        row["means"]: row
        for row in DeskPaymentLine.objects.filter(order__in=[sale.pk for sale in sales])
        .values("means")
        .annotate(count=Count("id"), total=Sum("amount"))
    }
    by_means = [
        {
            "means": means.value,
            "label": means.label,
            "count": sums.get(means.value, {}).get("count", 0),
            "total": sums.get(means.value, {}).get("total") or Decimal("0.00"),
        }
        for means in DeskMeans
    ]
    rows = []
    for sale in sales:
        lines = list(sale.desk_payments.all())
        staff = lines[0].recorded_by if lines else None
        rows.append(
            {
                "order_id": sale.order_id,
                "completed_at": sale.completed_at,
                "client": f"{sale.first_name} {sale.last_name}".strip() or sale.email,
                "user_id": sale.user_id,
                "title": sale.title,
                "amount": sale.amount,
                "status": sale.status,
                "status_label": sale.get_status_display(),
                "staff": (staff.get_full_name().strip() or staff.email) if staff else "",
                "payments": [
                    {"means": line.means, "label": line.get_means_display(), "amount": line.amount} for line in lines
                ],
            }
        )
    return {
        "date": day,
        "by_means": by_means,
        "total": sum((row["total"] for row in by_means), Decimal("0.00")),
        "sales": rows,
    }


TAKINGS_COLUMNS = (
    Column("Date", CellType.DATE),
    Column("Heure", CellType.TIME, width=8),
    Column("Commande", width=40),
    Column("Client", width=24),
    Column("Vente", width=30),
    Column("Moyen de paiement", width=24),
    Column("Montant (€)", CellType.MONEY),
    Column("Encaissé par", width=24),
)


def desk_takings_csv(*, day: date) -> tuple[str, str]:
    """The day's takings as CSV (docs/decisions.md 39): one row per means of each sale, then one total per means.
    Returns the file's name and its text."""
    takings = desk_takings(day=day)
    rows = []
    for sale in takings["sales"]:
        for line in sale["payments"]:
            at = sale["completed_at"]
            rows.append(
                [at, at, sale["order_id"], sale["client"], sale["title"], line["label"], line["amount"], sale["staff"]]
            )
    for means in takings["by_means"]:
        if means["count"]:
            rows.append(
                [day, None, "", "", f"Total ({means['count']} paiement(s))", means["label"], means["total"], ""]
            )
    rows.append([day, None, "", "", "Total de la journée", "", takings["total"], ""])
    return f"caisse-{day:%Y-%m-%d}.csv", table_csv(TAKINGS_COLUMNS, rows)


def desk_periods_due(*, member_id: int) -> list[dict]:
    """A client's subscription periods the desk can take payment for (due or refused, on a live subscription), oldest
    first, each with its amount from the database: [{charge_id, subscription_id, title, period, periods_committed,
    amount, due_on}]. One query."""
    rows = (
        SubscriptionCharge.objects.filter(
            subscription__member_id=member_id,
            subscription__status__in=(SubscriptionStatus.ACTIVE, SubscriptionStatus.UNPAID),
            status__in=(ChargeStatus.DUE, ChargeStatus.FAILED),
        )
        .order_by("due_on", "id")
        .values_list("id", "subscription_id", "subscription__title", "period", "subscription__periods_committed",
                     "amount", "due_on")
    )  # fmt: skip
    keys = ("charge_id", "subscription_id", "title", "period", "periods_committed", "amount", "due_on")
    return [dict(zip(keys, row, strict=True)) for row in rows]
