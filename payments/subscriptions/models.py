"""Every model of subscriptions billed per period (docs/decisions.md 24–26): the subscription, its charges, plans
and freezes; every staff action on it (retry a charge, cancel with or without refund, end a reduced plan), with who
and why; the student or job-seeker rate's declaration and optional proof, kept with the purchase order.

They keep the app label `payments` (Django registers them from payments/models.py, which imports this module) and
their tables.
"""

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models

from media_library.private import private_storage

from ..choices import CURRENCY_EUR, PaymentProviderName


class SubscriptionStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    UNPAID = "unpaid", "Impayé"
    FROZEN = "frozen", "Gelé"
    ENDED = "ended", "Terminé"
    CANCELLED = "cancelled", "Annulé"


class Subscription(models.Model):
    """A tariff priced per period, committed for `periods_committed` periods of `period_months` months each.

    The first period is paid by the purchase order; each later one is charged on its due date (the simulator: by the
    studio's scheduler; PayPal: by its Subscription). The granted pass is valid through the last paid period.
    """

    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="subscriptions", verbose_name="membre"
    )
    tariff = models.ForeignKey(
        "courses.Tariff", on_delete=models.PROTECT, related_name="subscriptions", verbose_name="tarif"
    )
    title = models.CharField("intitulé", max_length=150)
    provider = models.CharField("prestataire", max_length=20, choices=PaymentProviderName.choices)
    source_order = models.OneToOneField(
        "payments.PaymentOrder", on_delete=models.PROTECT, related_name="subscription", verbose_name="commande d'achat"
    )
    granted_pass = models.OneToOneField(
        "bookings.Pass", on_delete=models.PROTECT, related_name="subscription", verbose_name="abonnement accordé"
    )
    amount = models.DecimalField("montant par période (€)", max_digits=10, decimal_places=2)
    currency = models.CharField("devise", max_length=3, default=CURRENCY_EUR)
    period_months = models.PositiveSmallIntegerField("durée d'une période (mois)")
    periods_committed = models.PositiveSmallIntegerField("périodes d'engagement")
    periods_paid = models.PositiveSmallIntegerField("périodes payées", default=0)
    starts_on = models.DateField("début")
    status = models.CharField(
        "statut", max_length=20, choices=SubscriptionStatus.choices, default=SubscriptionStatus.ACTIVE, db_index=True
    )
    # A simulated saved card that declines the next charges (to try the unpaid path in demonstration mode).
    simulated_card_declines = models.BooleanField("carte simulée refusée", default=False)
    provider_subscription_id = models.CharField("abonnement chez le prestataire", max_length=64, blank=True)
    renewal_invited_on = models.DateField("invitation à renouveler envoyée le", null=True, blank=True)
    created_at = models.DateTimeField("créé le", auto_now_add=True)
    updated_at = models.DateTimeField("modifié le", auto_now=True)

    class Meta:
        verbose_name = "abonnement payé par période"
        verbose_name_plural = "abonnements payés par période"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=SubscriptionStatus.values), name="subscription_status_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(periods_paid__lte=models.F("periods_committed")),
                name="subscription_paid_within_commitment",
            ),
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="subscription_amount_positive"),
        ]

    def __str__(self):
        return f"{self.title} – {self.member} ({self.periods_paid}/{self.periods_committed})"


class ChargeStatus(models.TextChoices):
    DUE = "due", "À payer"
    PROCESSING = "processing", "En cours"
    PAID = "paid", "Payée"
    FAILED = "failed", "Refusée"
    CANCELLED = "cancelled", "Annulée"
    REFUNDED = "refunded", "Remboursée"


class SubscriptionCharge(models.Model):
    """One period of a subscription, charged once: unique per (subscription, period), changed under its row lock."""

    subscription = models.ForeignKey(
        Subscription, on_delete=models.PROTECT, related_name="charges", verbose_name="abonnement"
    )
    period = models.PositiveSmallIntegerField("période")
    due_on = models.DateField("échéance")
    amount = models.DecimalField("montant (€)", max_digits=10, decimal_places=2)
    status = models.CharField("statut", max_length=20, choices=ChargeStatus.choices, default=ChargeStatus.DUE)
    attempts = models.PositiveSmallIntegerField("tentatives", default=0)
    next_attempt_on = models.DateField("prochaine tentative", null=True, blank=True)
    provider_reference = models.CharField("référence du prestataire", max_length=64, blank=True)
    failure_note = models.CharField("motif du refus", max_length=200, blank=True)
    paid_at = models.DateTimeField("payée le", null=True, blank=True)
    # Staff cancelled the subscription with the refund of this period: the provider's refund id, once.
    refund_id = models.CharField("identifiant de remboursement", max_length=64, blank=True)
    refunded_at = models.DateTimeField("remboursée le", null=True, blank=True)
    updated_at = models.DateTimeField("modifiée le", auto_now=True)

    class Meta:
        verbose_name = "échéance d'abonnement"
        verbose_name_plural = "échéances d'abonnement"
        ordering = ["subscription_id", "period"]
        constraints = [
            models.UniqueConstraint(fields=["subscription", "period"], name="subscription_charge_once_per_period"),
            models.CheckConstraint(condition=models.Q(status__in=ChargeStatus.values), name="charge_status_valid"),
            models.CheckConstraint(condition=models.Q(period__gte=1), name="charge_period_positive"),
        ]
        indexes = [models.Index(fields=["status", "next_attempt_on"])]

    def __str__(self):
        return f"{self.subscription_id} période {self.period} ({self.get_status_display()})"


class SubscriptionPlan(models.Model):
    """What the studio sets for a tariff sold as a subscription: the PayPal product and billing plan
    created once for it and reused, and whether it is a reduced rate. Its weekly cap is the tariff's own
    (`Tariff.pass_weekly_cap`, docs/decisions.md 26), edited with the tariff in the dashboard."""

    tariff = models.OneToOneField(
        "courses.Tariff", on_delete=models.CASCADE, related_name="subscription_plan", verbose_name="tarif"
    )
    paypal_product_id = models.CharField("produit PayPal", max_length=64, blank=True)
    paypal_plan_id = models.CharField("plan de facturation PayPal", max_length=64, blank=True)
    # The price per period the PayPal plan was created with: a tariff whose price changed gets a new plan.
    paypal_plan_amount = models.DecimalField(
        "montant du plan PayPal", max_digits=10, decimal_places=2, null=True, blank=True
    )
    # A reduced rate (student, job seeker): the member confirms the status at purchase. None: read from the title.
    reduced_rate = models.BooleanField(
        "tarif réduit (étudiant, demandeur d'emploi)",
        null=True,
        blank=True,
        help_text="Vide : déduit du titre du tarif (« étudiant », « demandeur d'emploi »).",
    )

    class Meta:
        verbose_name = "formule d'abonnement"
        verbose_name_plural = "formules d'abonnement"

    def __str__(self):
        return f"Formule {self.tariff_id}"


class SubscriptionFreeze(models.Model):
    """Staff froze a subscription (after an injury, say) from a day for a number of weeks: nothing is charged and
    nothing can be booked meanwhile; the commitment's end and every later due date move by as much. Who and why."""

    subscription = models.ForeignKey(
        Subscription, on_delete=models.PROTECT, related_name="freezes", verbose_name="abonnement"
    )
    starts_on = models.DateField("gel à partir du")
    weeks = models.PositiveSmallIntegerField("semaines", validators=[MinValueValidator(1)])
    reason = models.TextField("raison")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name="par", null=True
    )
    created_at = models.DateTimeField("le", auto_now_add=True)

    class Meta:
        verbose_name = "gel d'abonnement"
        verbose_name_plural = "gels d'abonnement"
        ordering = ["starts_on", "id"]
        constraints = [models.CheckConstraint(condition=models.Q(weeks__gte=1), name="freeze_weeks_positive")]

    def __str__(self):
        return f"Gel de {self.subscription_id} du {self.starts_on} ({self.weeks} sem.)"


class SubscriptionActionKind(models.TextChoices):
    RETRY = "retry", "Échéance relancée"
    CANCEL = "cancel", "Annulé sans remboursement"
    CANCEL_REFUND = "cancel_refund", "Annulé avec remboursement de la période en cours"
    END_REDUCED = "end_reduced", "Tarif réduit terminé"


class SubscriptionAction(models.Model):
    subscription = models.ForeignKey(
        "payments.Subscription", on_delete=models.PROTECT, related_name="actions", verbose_name="abonnement"
    )
    kind = models.CharField("action", max_length=20, choices=SubscriptionActionKind.choices)
    reason = models.TextField("raison", blank=True)
    outcome = models.CharField("résultat", max_length=200, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name="par", null=True
    )
    created_at = models.DateTimeField("le", auto_now_add=True)

    class Meta:
        verbose_name = "action sur un abonnement"
        verbose_name_plural = "actions sur les abonnements"
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=SubscriptionActionKind.values), name="subscription_action_kind_valid"
            )
        ]

    def __str__(self):
        return f"{self.get_kind_display()} – {self.subscription_id}"


class ReducedStatus(models.TextChoices):
    STUDENT = "student", "Étudiant(e)"
    JOB_SEEKER = "job_seeker", "Demandeur(se) d'emploi"


class ReducedRateProof(models.Model):
    """A proof (student card, France Travail certificate) the member uploaded before paying: an image checked by its
    content and size (media_library.uploads), stored under a name the server makes. An identity document: kept on
    the private storage (no public address) and read only through the view that lets its member and staff in."""

    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name="membre"
    )
    file = models.FileField("justificatif", max_length=255, upload_to="justificatifs/", storage=private_storage)
    uploaded_at = models.DateTimeField("envoyé le", auto_now_add=True)

    class Meta:
        verbose_name = "justificatif de tarif réduit"
        verbose_name_plural = "justificatifs de tarif réduit"

    def __str__(self):
        return f"Justificatif {self.pk} de {self.member_id}"


class ReducedRateDeclaration(models.Model):
    """The member confirmed, when buying a reduced rate, being a student or a job seeker. Staff may end the reduced
    plan (the member no longer qualifies): who, when and why."""

    order = models.OneToOneField(
        "payments.PaymentOrder",
        on_delete=models.PROTECT,
        related_name="reduced_declaration",
        verbose_name="commande d'achat",
    )
    status = models.CharField("statut déclaré", max_length=20, choices=ReducedStatus.choices)
    proof = models.ForeignKey(
        ReducedRateProof,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="justificatif",
    )
    confirmed_at = models.DateTimeField("confirmé le", auto_now_add=True)
    ended_at = models.DateTimeField("tarif réduit terminé le", null=True, blank=True)

    class Meta:
        verbose_name = "déclaration de tarif réduit"
        verbose_name_plural = "déclarations de tarif réduit"
        constraints = [
            models.CheckConstraint(condition=models.Q(status__in=ReducedStatus.values), name="reduced_status_valid")
        ]

    def __str__(self):
        return f"{self.get_status_display()} – commande {self.order_id}"
