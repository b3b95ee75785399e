from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models

CURRENCY_EUR = "EUR"
DEFAULT_TIME = "Non spécifiée"


class PaymentStatus(models.TextChoices):
    CREATED = "CREATED", "Créée"
    APPROVED = "APPROVED", "Approuvée"
    COMPLETED = "COMPLETED", "Payée"
    DECLINED = "DECLINED", "Refusée"
    VOIDED = "VOIDED", "Annulée"
    REFUND_PENDING = "REFUND_PENDING", "Remboursement en cours"
    REFUNDED = "REFUNDED", "Remboursée"


# The statuses an order may hold only one of per reservation (docs/decisions.md 14): an order being paid, or the payment
# kept.
LIVE_STATUSES = (PaymentStatus.CREATED, PaymentStatus.APPROVED, PaymentStatus.DECLINED, PaymentStatus.COMPLETED)


class PaymentProviderName(models.TextChoices):
    PAYPAL = "paypal", "PayPal"
    SIMULATOR = "simulator", "Simulateur (démonstration)"
    MANUAL = "manual", "Saisie manuelle"


class PaymentOrder(models.Model):
    """A card payment order, priced by the server (docs/decisions.md 12).

    It pays for a calendar reservation, or for `quantity` of a tariff; staff may also record one by hand.
    """

    order_id = models.CharField("identifiant de commande", max_length=64, unique=True)
    provider = models.CharField(
        "prestataire", max_length=20, choices=PaymentProviderName.choices, default=PaymentProviderName.MANUAL
    )
    email = models.EmailField("email")
    first_name = models.CharField("prénom", max_length=150, blank=True)
    last_name = models.CharField("nom", max_length=150, blank=True)
    title = models.CharField("titre", max_length=200)
    amount = models.DecimalField(
        "montant (€)", max_digits=10, decimal_places=2, validators=[MinValueValidator(Decimal("0.00"))]
    )
    currency = models.CharField("devise", max_length=3, default=CURRENCY_EUR)
    date = models.CharField("date", max_length=40)
    time = models.CharField("heure", max_length=40, default=DEFAULT_TIME)
    type = models.CharField("type", max_length=30, default="UNKNOWN")
    status = models.CharField(
        "statut", max_length=20, choices=PaymentStatus.choices, default=PaymentStatus.CREATED, db_index=True
    )
    message = models.TextField("message", blank=True)

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="payment_orders",
        verbose_name="membre",
    )
    reservation = models.ForeignKey(
        "bookings.Reservation",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="payment_orders",
        verbose_name="réservation",
    )
    tariff = models.ForeignKey(
        "courses.Tariff",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="payment_orders",
        verbose_name="tarif",
    )
    quantity = models.PositiveSmallIntegerField("quantité", default=1, validators=[MinValueValidator(1)])
    # The class card or subscription this tariff order granted (recorded on the payments side, so that
    # bookings never points up at payments; one pass per order, one order per pass).
    granted_pass = models.OneToOneField(
        "bookings.Pass",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="source_order",
        verbose_name="carte ou abonnement accordé",
    )
    # The deposit of an EVJF/EVG request or of a member's room-rental request (payments points down at
    # them; bookings and messaging hear of a refund through studio.quotes' signal).
    party = models.ForeignKey(
        "bookings.PartyReservation",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="deposit_orders",
        verbose_name="acompte de la demande EVJF/EVG",
    )
    rental = models.ForeignKey(
        "messaging.RoomRentalRequest",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="deposit_orders",
        verbose_name="acompte de la demande de location",
    )

    capture_id = models.CharField("identifiant de capture", max_length=64, blank=True, db_index=True)
    # Money captured for nothing in return (seats lost, reservation changed or already paid, order closed) goes back
    # (docs/decisions.md 14): REFUND_PENDING until the provider has refunded, then REFUNDED with the provider's refund
    # id.
    refund_id = models.CharField("identifiant de remboursement", max_length=64, blank=True)
    refunded_at = models.DateTimeField("remboursée le", null=True, blank=True)
    provider_note = models.TextField("note du prestataire", blank=True)
    created_at = models.DateTimeField("créée le", auto_now_add=True)
    updated_at = models.DateTimeField("modifiée le", auto_now=True)
    completed_at = models.DateTimeField("payée le", null=True, blank=True)
    receipt_sent_at = models.DateTimeField("reçu envoyé le", null=True, blank=True)

    class Meta:
        verbose_name = "commande de paiement"
        verbose_name_plural = "commandes de paiement"
        ordering = ["-created_at", "-id"]
        # The staff's orders list, newest first by default: read from the index, not sorted whole.
        indexes = [models.Index(fields=["created_at", "id"], name="payment_order_created_idx")]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gte=0), name="payment_order_amount_not_negative"),
            models.CheckConstraint(condition=models.Q(quantity__gte=1), name="payment_order_quantity_positive"),
            models.CheckConstraint(
                condition=models.Q(status__in=PaymentStatus.values), name="payment_order_status_valid"
            ),
            models.CheckConstraint(
                condition=~(models.Q(reservation__isnull=False) & models.Q(tariff__isnull=False)),
                name="payment_order_pays_for_one_thing",
            ),
            models.UniqueConstraint(
                fields=["reservation"],
                condition=models.Q(status__in=[s.value for s in LIVE_STATUSES]),
                name="payment_order_one_live_per_reservation",
            ),
            models.CheckConstraint(
                condition=(models.Q(party__isnull=True) & models.Q(rental__isnull=True))
                | (
                    models.Q(reservation__isnull=True)
                    & models.Q(tariff__isnull=True)
                    & (models.Q(party__isnull=True) | models.Q(rental__isnull=True))
                ),
                name="payment_order_deposit_pays_for_one_thing",
            ),
            models.UniqueConstraint(
                fields=["party"],
                condition=models.Q(status__in=[s.value for s in LIVE_STATUSES]),
                name="payment_order_one_live_per_party",
            ),
            models.UniqueConstraint(
                fields=["rental"],
                condition=models.Q(status__in=[s.value for s in LIVE_STATUSES]),
                name="payment_order_one_live_per_rental",
            ),
        ]

    def __str__(self):
        return f"{self.order_id} – {self.title} ({self.amount} {self.currency}, {self.get_status_display()})"


class PaymentWebhookEvent(models.Model):
    """A PayPal webhook event already handled: PayPal redelivers, we act once per event id."""

    event_id = models.CharField("identifiant d'événement", max_length=64, unique=True)
    event_type = models.CharField("type d'événement", max_length=80)
    resource_id = models.CharField("ressource", max_length=64, blank=True)
    received_at = models.DateTimeField("reçu le", auto_now_add=True)

    class Meta:
        verbose_name = "événement PayPal"
        verbose_name_plural = "événements PayPal"
        ordering = ["-received_at"]

    def __str__(self):
        return f"{self.event_type} {self.event_id}"


class SimulatedOrderStatus(models.TextChoices):
    CREATED = "CREATED", "Créée"
    APPROVED = "APPROVED", "Approuvée"
    COMPLETED = "COMPLETED", "Capturée"
    VOIDED = "VOIDED", "Annulée"


class SimulatedProviderOrder(models.Model):
    """The simulator's side of an order: what PayPal would keep (docs/decisions.md 15, demonstration mode)."""

    order_id = models.CharField(max_length=64, unique=True)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    currency = models.CharField(max_length=3, default=CURRENCY_EUR)
    description = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=20, choices=SimulatedOrderStatus.choices, default=SimulatedOrderStatus.CREATED)
    card_declined = models.BooleanField(default=False)
    # The buyer's simulated card pays this order but will be refused at the subscription's next charges.
    card_declines_later = models.BooleanField(default=False)
    capture_id = models.CharField(max_length=64, blank=True)
    capture_status = models.CharField(max_length=20, blank=True)
    refund_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "commande simulée"
        verbose_name_plural = "commandes simulées"

    def __str__(self):
        return f"{self.order_id} ({self.status})"


# --- Subscriptions billed per period (docs/decisions.md 24–26) ---------------------------------------------------


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
        PaymentOrder, on_delete=models.PROTECT, related_name="subscription", verbose_name="commande d'achat"
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


# Staff actions, reduced-rate declarations: in their own module, imported here.
from .models_subscriptions import *  # noqa: E402, F401, F403
