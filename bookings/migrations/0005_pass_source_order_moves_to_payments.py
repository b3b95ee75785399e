"""`Pass.source_order` is now `PaymentOrder.granted_pass` (payments 0003 copied the links)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("bookings", "0004_pass_adjustment_refund"),
        ("payments", "0003_order_records_granted_pass"),
    ]

    operations = [
        migrations.RemoveField(model_name="pass", name="source_order"),
    ]
