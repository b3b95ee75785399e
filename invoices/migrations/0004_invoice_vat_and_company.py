from decimal import Decimal

from django.db import migrations, models


def issued_figures(apps, schema_editor):
    """Invoices issued before VAT was kept were under the franchise: their price before VAT is their price."""
    Invoice = apps.get_model("invoices", "Invoice")
    Invoice.objects.update(total_excl_vat=models.F("total_amount"))


class Migration(migrations.Migration):
    dependencies = [("invoices", "0003_invoice_discount")]

    operations = [
        migrations.AddField(
            model_name="invoice",
            name="vat_status",
            field=models.CharField(
                choices=[
                    ("franchise", "Franchise en base de TVA"),
                    ("exempt", "Exonéré de TVA"),
                    ("taxable", "Assujetti à la TVA"),
                ],
                default="franchise",
                max_length=10,
                verbose_name="régime de TVA",
            ),
        ),
        migrations.AddField(
            model_name="invoice",
            name="vat_rate",
            field=models.DecimalField(
                decimal_places=2, default=Decimal("0.00"), max_digits=5, verbose_name="taux de TVA (%)"
            ),
        ),
        migrations.AddField(
            model_name="invoice",
            name="total_excl_vat",
            field=models.DecimalField(
                decimal_places=2, default=Decimal("0.00"), max_digits=10, verbose_name="total HT (€)"
            ),
        ),
        migrations.AddField(
            model_name="invoice",
            name="vat_amount",
            field=models.DecimalField(decimal_places=2, default=Decimal("0.00"), max_digits=10, verbose_name="TVA (€)"),
        ),
        migrations.AddField(
            model_name="invoice",
            name="seller_vat_number",
            field=models.CharField(blank=True, max_length=20, verbose_name="n° de TVA du studio"),
        ),
        migrations.AddField(
            model_name="invoice",
            name="customer_company_name",
            field=models.CharField(blank=True, max_length=200, verbose_name="société"),
        ),
        migrations.AddField(
            model_name="invoice",
            name="customer_siren",
            field=models.CharField(blank=True, max_length=9, verbose_name="SIREN"),
        ),
        migrations.AddField(
            model_name="invoice",
            name="customer_vat_number",
            field=models.CharField(blank=True, max_length=20, verbose_name="n° de TVA du client"),
        ),
        migrations.RunPython(issued_figures, migrations.RunPython.noop),
    ]
