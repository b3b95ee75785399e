"""Invoices ("factures") and credit notes ("avoirs") of completed payments (docs/decisions.md 40).

A document is written once, when the payment completes (or its money goes back), in the same transaction: its number
comes from a counter row per series and year taken under a row lock, so numbers run without gaps or duplicates even
when payments complete at the same moment, and a rolled-back payment leaves no hole. What the document says (the
studio's legal mentions, the customer, the line, the amount) is copied onto it then: a later change of the settings,
the tariff or the member's profile never alters it. Nothing updates a document afterwards, with one exception the law
asks for: a deleted account's identity is erased from it (docs/decisions.md 34), its number, line and amounts kept.
"""

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models

from .vat import VatStatus


class InvoiceKind(models.TextChoices):
    INVOICE = "invoice", "Facture"
    CREDIT_NOTE = "credit_note", "Avoir"


# Each series runs from 1 every calendar year (Europe/Paris): "2026-000123", "AV-2026-000004".
NUMBER_PREFIX = {InvoiceKind.INVOICE: "", InvoiceKind.CREDIT_NOTE: "AV-"}


class InvoiceCounter(models.Model):
    """The last number given in one series and year: locked (`select_for_update`) to give the next one."""

    kind = models.CharField("série", max_length=20, choices=InvoiceKind.choices)
    year = models.PositiveSmallIntegerField("année")
    last_number = models.PositiveIntegerField("dernier numéro", default=0)

    class Meta:
        verbose_name = "compteur de factures"
        verbose_name_plural = "compteurs de factures"
        constraints = [models.UniqueConstraint(fields=["kind", "year"], name="invoice_counter_one_per_series_year")]

    def __str__(self):
        return f"{self.get_kind_display()} {self.year} : {self.last_number}"


class Invoice(models.Model):
    kind = models.CharField("type", max_length=20, choices=InvoiceKind.choices, default=InvoiceKind.INVOICE)
    number = models.CharField("numéro", max_length=20, unique=True)
    year = models.PositiveSmallIntegerField("année")
    sequence = models.PositiveIntegerField("rang dans l'année")
    issued_at = models.DateTimeField("émise le")

    # What it is for: one payment order or one subscription period; a credit note names the invoice it cancels.
    payment_order = models.ForeignKey(
        "payments.PaymentOrder",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="invoices",
        verbose_name="commande",
    )
    subscription_charge = models.ForeignKey(
        "payments.SubscriptionCharge",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="invoices",
        verbose_name="échéance d'abonnement",
    )
    credited_invoice = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="credit_note",
        verbose_name="facture annulée par cet avoir",
    )
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="invoices",
        verbose_name="membre",
    )

    # Copied when issued.
    customer_name = models.CharField("client", max_length=310)
    customer_email = models.CharField("email du client", max_length=254, blank=True)
    customer_address = models.CharField("adresse du client", max_length=500, blank=True)
    customer_erased_at = models.DateTimeField("identité effacée le", null=True, blank=True)
    seller_name = models.CharField("raison sociale", max_length=200)
    seller_address = models.CharField("adresse du studio", max_length=300)
    seller_siret = models.CharField("SIRET", max_length=20)
    seller_vat_note = models.CharField("mention de TVA", max_length=200)
    description = models.CharField("désignation", max_length=400)
    quantity = models.PositiveSmallIntegerField("quantité", validators=[MinValueValidator(1)])
    unit_amount = models.DecimalField("prix unitaire (€)", max_digits=10, decimal_places=2)
    total_amount = models.DecimalField("montant (€)", max_digits=10, decimal_places=2)
    currency = models.CharField("devise", max_length=3, default="EUR")
    paid_at = models.DateTimeField("payée le", null=True, blank=True)
    payment_method = models.CharField("moyen de paiement", max_length=60, blank=True)
    # A sale at the front desk paid by several means (docs/decisions.md 43): [[label, "50.00"], …], copied when issued
    # so the PDF is drawn from the invoice alone.
    payment_lines = models.JSONField("moyens de paiement et montants", default=list, blank=True)
    reason = models.CharField("motif", max_length=300, blank=True)
    # A promo code's discount (docs/decisions.md 49): `unit_amount × quantity − discount_amount = total_amount`.
    discount_amount = models.DecimalField("remise (€)", max_digits=10, decimal_places=2, default=Decimal("0.00"))
    discount_label = models.CharField("libellé de la remise", max_length=120, blank=True)
    # The studio's VAT status when issued and the figures it gave (docs/decisions.md 54): a later switch never
    # changes them. `total_excl_vat + vat_amount = total_amount`.
    vat_status = models.CharField(
        "régime de TVA", max_length=10, choices=VatStatus.choices, default=VatStatus.FRANCHISE
    )
    vat_rate = models.DecimalField("taux de TVA (%)", max_digits=5, decimal_places=2, default=Decimal("0.00"))
    total_excl_vat = models.DecimalField("total HT (€)", max_digits=10, decimal_places=2, default=Decimal("0.00"))
    vat_amount = models.DecimalField("TVA (€)", max_digits=10, decimal_places=2, default=Decimal("0.00"))
    seller_vat_number = models.CharField("n° de TVA du studio", max_length=20, blank=True)
    # A business customer (docs/decisions.md 54): its invoice names it, carries the B2B mentions and is Factur-X.
    customer_company_name = models.CharField("société", max_length=200, blank=True)
    customer_siren = models.CharField("SIREN", max_length=9, blank=True)
    customer_vat_number = models.CharField("n° de TVA du client", max_length=20, blank=True)

    class Meta:
        verbose_name = "facture ou avoir"
        verbose_name_plural = "factures et avoirs"
        ordering = ["-issued_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "year", "sequence"], name="invoice_number_once_per_series_year"),
            models.UniqueConstraint(
                fields=["payment_order"],
                condition=models.Q(kind="invoice", payment_order__isnull=False),
                name="invoice_once_per_order",
            ),
            models.UniqueConstraint(
                fields=["subscription_charge"],
                condition=models.Q(kind="invoice", subscription_charge__isnull=False),
                name="invoice_once_per_subscription_charge",
            ),
            models.CheckConstraint(condition=models.Q(kind__in=InvoiceKind.values), name="invoice_kind_valid"),
            models.CheckConstraint(
                condition=~(models.Q(payment_order__isnull=False) & models.Q(subscription_charge__isnull=False)),
                name="invoice_for_one_payment",
            ),
            models.CheckConstraint(
                condition=models.Q(kind="invoice", credited_invoice__isnull=True)
                | models.Q(kind="credit_note", credited_invoice__isnull=False),
                name="invoice_credit_note_names_its_invoice",
            ),
            models.CheckConstraint(condition=models.Q(total_amount__gte=0), name="invoice_amount_not_negative"),
            models.CheckConstraint(condition=models.Q(sequence__gte=1), name="invoice_sequence_positive"),
        ]
        indexes = [models.Index(fields=["member", "-issued_at"])]

    def __str__(self):
        return f"{self.get_kind_display()} {self.number} ({self.total_amount} {self.currency})"

    @property
    def is_credit_note(self) -> bool:
        return self.kind == InvoiceKind.CREDIT_NOTE

    @property
    def is_business(self) -> bool:
        return bool(self.customer_company_name)

    @property
    def file_name(self) -> str:
        return f"{'avoir' if self.is_credit_note else 'facture'}-{self.number}.pdf"


class InvoiceDocument(models.Model):
    """The PDF of an invoice, rendered once by a worker from what the invoice holds: downloads and the
    receipt's attachment serve these bytes. Kept apart so the invoice row itself is never written again."""

    invoice = models.OneToOneField(Invoice, on_delete=models.CASCADE, related_name="document", primary_key=True)
    content = models.BinaryField("PDF")
    rendered_at = models.DateTimeField("rendu le", auto_now_add=True)

    class Meta:
        verbose_name = "PDF de facture"
        verbose_name_plural = "PDF de factures"

    def __str__(self):
        return f"PDF {self.invoice_id}"
