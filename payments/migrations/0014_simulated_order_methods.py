"""The means of payment an order was paid with (and its label for the staff), and what a buyer approved the
simulator's order with: the method, the scenario played and the state of its 3-D Secure challenge."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("payments", "0013_deposits_point_at_quotes"),
    ]

    operations = [
        migrations.AddField(
            model_name="paymentorder",
            name="payment_method",
            field=models.CharField(
                blank=True,
                choices=[
                    ("card", "Carte bancaire"),
                    ("wallet", "Apple Pay / Google Pay"),
                    ("sepa_debit", "Prélèvement SEPA"),
                    ("paypal", "PayPal"),
                ],
                default="",
                max_length=20,
                verbose_name="moyen de paiement",
            ),
        ),
        migrations.AddField(
            model_name="paymentorder",
            name="payment_method_label",
            field=models.CharField(blank=True, default="", max_length=80, verbose_name="moyen de paiement utilisé"),
        ),
        migrations.AddField(
            model_name="simulatedproviderorder",
            name="challenge",
            field=models.CharField(
                blank=True,
                choices=[("PENDING", "En attente"), ("PASSED", "Validée"), ("FAILED", "Refusée")],
                default="",
                max_length=20,
            ),
        ),
        migrations.AddField(
            model_name="simulatedproviderorder",
            name="method",
            field=models.CharField(blank=True, default="", max_length=20),
        ),
        migrations.AddField(
            model_name="simulatedproviderorder",
            name="method_label",
            field=models.CharField(blank=True, default="", max_length=80),
        ),
        migrations.AddField(
            model_name="simulatedproviderorder",
            name="scenario",
            field=models.CharField(blank=True, default="", max_length=20),
        ),
    ]
