"""Every model of subscriptions billed per period (docs/decisions.md 24–26): the subscription, its charges, plans
and freezes; every staff action on it (retry a charge, cancel with or without refund, end a reduced plan), with who
and why; the student or job-seeker rate's declaration and optional proof, kept with the purchase order.

They keep the app label `payments` (Django registers them from payments/models.py, which imports this module) and
their tables.
"""

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone

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
    # The member's saved card or SEPA mandate each later period is charged to (the simulator's or Stripe's); none for
    # PayPal, which charges by itself, and for subscriptions started before methods were saved.
    saved_method = models.ForeignKey(
        "payments.SavedPaymentMethod",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="subscriptions",
        verbose_name="moyen de paiement enregistré",
    )
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
    # A SEPA debit sent to the bank: PROCESSING from then until the bank settles it (paid, or returned), days later.
    debit_started_at = models.DateTimeField("prélèvement envoyé le", null=True, blank=True)
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


PAUSE_WEEKS_PER_YEAR_DEFAULT = 4


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
    # docs/decisions.md 46: the weeks a year (of the subscription) a member may pause it themselves; a tariff without
    # a formule allows PAUSE_WEEKS_PER_YEAR_DEFAULT.
    pause_weeks_per_year = models.PositiveSmallIntegerField(
        "semaines de suspension par an",
        default=PAUSE_WEEKS_PER_YEAR_DEFAULT,
        help_text="Semaines par année d'abonnement que le membre peut suspendre lui-même, 0 = aucune.",
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
    MEMBER_TERMINATE = "member_terminate", "Résilié par le membre"
    MEMBER_PAUSE = "member_pause", "Suspendu par le membre"
    MEMBER_WITHDRAW = "member_withdraw", "Rétractation du membre"


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


class SavedMethodProvider(models.TextChoices):
    SIMULATOR = "simulator", "Simulateur (démonstration)"
    STRIPE = "stripe", "Stripe"


class SavedMethodKind(models.TextChoices):
    CARD = "card", "Carte"
    SEPA_DEBIT = "sepa_debit", "Prélèvement SEPA"


class SavedMethodStatus(models.TextChoices):
    PENDING = "pending", "En attente de confirmation"
    ACTIVE = "active", "Utilisable"
    INACTIVE = "inactive", "Inutilisable"
    REPLACED = "replaced", "Remplacé"


class SavedPaymentMethod(models.Model):
    """A member's card or SEPA mandate, saved for the later periods of their subscriptions (docs/decisions.md 42).

    Only what the member recognises it by: a card's last 4 digits, brand and expiry; an account's IBAN country and
    last 4 digits, with the mandate's reference and acceptance date. Never a full card number or IBAN: Stripe keeps
    those, the simulator drops them. Deleted with the member's personal data (privacy)."""

    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="saved_payment_methods", verbose_name="membre"
    )
    provider = models.CharField("prestataire", max_length=20, choices=SavedMethodProvider.choices)
    kind = models.CharField("type", max_length=20, choices=SavedMethodKind.choices)
    status = models.CharField(
        "statut", max_length=20, choices=SavedMethodStatus.choices, default=SavedMethodStatus.PENDING
    )
    last4 = models.CharField("4 derniers chiffres", max_length=4, blank=True)
    brand = models.CharField("réseau de la carte", max_length=20, blank=True)
    exp_month = models.PositiveSmallIntegerField("mois d'expiration", null=True, blank=True)
    exp_year = models.PositiveSmallIntegerField("année d'expiration", null=True, blank=True)
    # The IBAN's country and check digits ("FR76") as the member reads them on their statement; Stripe tells the
    # country only.
    country = models.CharField("début de l'IBAN", max_length=4, blank=True)
    mandate_reference = models.CharField("référence du mandat", max_length=64, blank=True)
    mandate_accepted_at = models.DateTimeField("mandat accepté le", null=True, blank=True)
    # The simulator's bank: "declines" (a card refused at each charge) or "returned" (a SEPA debit sent back).
    simulated_outcome = models.CharField("issue simulée", max_length=20, blank=True)
    customer_id = models.CharField("client chez le prestataire", max_length=64, blank=True)
    setup_id = models.CharField("enregistrement chez le prestataire", max_length=64, blank=True, db_index=True)
    method_id = models.CharField("moyen chez le prestataire", max_length=64, blank=True)
    mandate_id = models.CharField("mandat chez le prestataire", max_length=64, blank=True, db_index=True)
    created_at = models.DateTimeField("créé le", auto_now_add=True)
    updated_at = models.DateTimeField("modifié le", auto_now=True)

    class Meta:
        verbose_name = "moyen de paiement enregistré"
        verbose_name_plural = "moyens de paiement enregistrés"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["member"], condition=models.Q(status="active"), name="one_active_saved_method_per_member"
            ),
            models.CheckConstraint(condition=models.Q(kind__in=SavedMethodKind.values), name="saved_method_kind_valid"),
            models.CheckConstraint(
                condition=models.Q(status__in=SavedMethodStatus.values), name="saved_method_status_valid"
            ),
        ]

    def __str__(self):
        return f"{self.label} ({self.member_id})"

    @property
    def label(self) -> str:
        """ "Carte •••• 4242, expire 12/28" or "Prélèvement SEPA FR76 •••• 1234, mandat du 29/11/2026"."""
        return saved_method_label(
            kind=self.kind,
            last4=self.last4,
            exp_month=self.exp_month,
            exp_year=self.exp_year,
            country=self.country,
            mandate_accepted_at=self.mandate_accepted_at,
        )


def saved_method_label(*, kind, last4, exp_month=None, exp_year=None, country="", mandate_accepted_at=None) -> str:
    """How the member recognises a saved method, from its plain values (the lists read values, not instances)."""
    if kind == SavedMethodKind.SEPA_DEBIT:
        label = f"Prélèvement SEPA {country} •••• {last4}" if country else f"Prélèvement SEPA •••• {last4}"
        if mandate_accepted_at:
            label += f", mandat du {timezone.localtime(mandate_accepted_at):%d/%m/%Y}"
        return label
    label = f"Carte •••• {last4}"
    if exp_month and exp_year:
        label += f", expire {exp_month:02d}/{exp_year % 100:02d}"
    return label


class SepaPreNotification(models.Model):
    """The e-mail telling the member, days ahead, the amount and date of a SEPA debit and the mandate's reference
    (the SEPA rulebook's pre-notification): sent once per period."""

    subscription = models.ForeignKey(
        Subscription, on_delete=models.CASCADE, related_name="pre_notifications", verbose_name="abonnement"
    )
    period = models.PositiveSmallIntegerField("période")
    due_on = models.DateField("date du prélèvement")
    amount = models.DecimalField("montant (€)", max_digits=10, decimal_places=2)
    sent_at = models.DateTimeField("envoyée le", auto_now_add=True)

    class Meta:
        verbose_name = "pré-notification de prélèvement"
        verbose_name_plural = "pré-notifications de prélèvement"
        constraints = [
            models.UniqueConstraint(fields=["subscription", "period"], name="sepa_pre_notification_once_per_period")
        ]

    def __str__(self):
        return f"Pré-notification {self.subscription_id} période {self.period}"
