"""A deposit order points at the request in quotes: the same tables, so the foreign keys are unchanged in the
database and only the state moves."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("payments", "0012_reduced_rate_proofs_private_storage"),
        ("quotes", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="paymentorder",
                    name="party",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="deposit_orders",
                        to="quotes.partyreservation",
                        verbose_name="acompte de la demande EVJF/EVG",
                    ),
                ),
                migrations.AlterField(
                    model_name="paymentorder",
                    name="rental",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="deposit_orders",
                        to="quotes.roomrentalrequest",
                        verbose_name="acompte de la demande de location",
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
