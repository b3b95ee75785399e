"""the pass a tariff order granted is recorded on the order (payments → bookings), no longer on the pass
(which made bookings point up at payments). Existing links are copied before bookings drops `Pass.source_order`."""

import django.db.models.deletion
from django.db import migrations, models


def copy_links(apps, schema_editor):
    Pass = apps.get_model("bookings", "Pass")
    PaymentOrder = apps.get_model("payments", "PaymentOrder")
    for pass_id, order_id in Pass.objects.filter(source_order__isnull=False).values_list("pk", "source_order_id"):
        PaymentOrder.objects.filter(pk=order_id).update(granted_pass_id=pass_id)


def copy_links_back(apps, schema_editor):
    Pass = apps.get_model("bookings", "Pass")
    PaymentOrder = apps.get_model("payments", "PaymentOrder")
    for order_id, pass_id in PaymentOrder.objects.filter(granted_pass__isnull=False).values_list(
        "pk", "granted_pass_id"
    ):
        Pass.objects.filter(pk=pass_id).update(source_order_id=order_id)


class Migration(migrations.Migration):
    dependencies = [
        ("bookings", "0004_pass_adjustment_refund"),
        ("payments", "0002_refunds_and_one_live_order_per_reservation"),
    ]

    operations = [
        migrations.AddField(
            model_name="paymentorder",
            name="granted_pass",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="source_order",
                to="bookings.pass",
                verbose_name="carte ou abonnement accordé",
            ),
        ),
        migrations.RunPython(copy_links, copy_links_back),
    ]
