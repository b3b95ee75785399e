"""A reservation keeps its own state where bookings and payments used to infer it from each other's rows:
`cancel_reason` (why it ended: the member, late, the studio cancelling the class, a lapsed hold, a refunded payment)
and `payment_pending` (its card payment being paid, or approved and about to be captured).

Existing rows are filled from what today's data says: the orders of a reservation still open (created or declined:
open; approved: approved); a cancellation at the very time its class was cancelled: the studio; a lapsed hold:
expired; a confirmed booking whose paying order was refunded afterwards: refunded; a confirmed booking cancelled inside
the cancellation window: late (only an account's deletion did that); any other cancellation: the member's. Reverse:
the columns go (the rows they were filled from are untouched)."""

from datetime import timedelta

from django.conf import settings
from django.db import migrations, models
from django.db.models import Exists, F, OuterRef

OPEN_ORDER_STATUSES = ("CREATED", "DECLINED")
REFUNDED_ORDER_STATUSES = ("REFUND_PENDING", "REFUNDED")


def fill_from_todays_data(apps, schema_editor):
    Reservation = apps.get_model("bookings", "Reservation")
    PaymentOrder = apps.get_model("payments", "PaymentOrder")
    orders = PaymentOrder.objects.filter(reservation_id=OuterRef("pk"))
    Reservation.objects.filter(Exists(orders.filter(status__in=OPEN_ORDER_STATUSES))).update(payment_pending="open")
    Reservation.objects.filter(Exists(orders.filter(status="APPROVED"))).update(payment_pending="approved")

    Reservation.objects.filter(status="expired").update(cancel_reason="expired")
    cancelled = Reservation.objects.filter(status="cancelled", cancel_reason="")
    cancelled.filter(cancelled_at=F("session__cancelled_at")).update(cancel_reason="studio")
    paid_then_refunded = orders.filter(status__in=REFUNDED_ORDER_STATUSES, completed_at__isnull=False)
    cancelled.filter(Exists(paid_then_refunded), paid_with_pass__isnull=True, confirmed_at__isnull=False).update(
        cancel_reason="refunded"
    )
    window = timedelta(hours=settings.CANCELLATION_WINDOW_HOURS)
    cancelled.filter(confirmed_at__isnull=False, cancelled_at__gt=F("session__start") - window).update(
        cancel_reason="late"
    )
    cancelled.update(cancel_reason="member")


class Migration(migrations.Migration):
    dependencies = [
        ("bookings", "0017_drop_copy_columns_and_triggers"),
        ("payments", "0012_reduced_rate_proofs_private_storage"),  # its orders are read to fill `payment_pending`
    ]

    operations = [
        migrations.AddField(
            model_name="reservation",
            name="cancel_reason",
            field=models.CharField(
                blank=True,
                choices=[
                    ("member", "Annulée par le membre"),
                    ("late", "Annulée hors délai"),
                    ("studio", "Cours annulé par le studio"),
                    ("expired", "Place retenue expirée"),
                    ("refunded", "Paiement remboursé"),
                ],
                max_length=10,
                verbose_name="motif d'annulation",
            ),
        ),
        migrations.AddField(
            model_name="reservation",
            name="payment_pending",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "Aucun paiement en cours"),
                    ("open", "Paiement en cours"),
                    ("approved", "Paiement approuvé, en attente d'encaissement"),
                ],
                default="",
                max_length=10,
                verbose_name="paiement par carte",
            ),
        ),
        migrations.RunPython(fill_from_todays_data, migrations.RunPython.noop),
    ]
