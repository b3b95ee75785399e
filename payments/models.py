from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models

from .choices import CURRENCY_EUR, DeskMeans, PaymentMethod, PaymentProviderName

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
    # them; quotes announces a closed request through its signal).
    party = models.ForeignKey(
        "quotes.PartyReservation",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="deposit_orders",
        verbose_name="acompte de la demande EVJF/EVG",
    )
    rental = models.ForeignKey(
        "quotes.RoomRentalRequest",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="deposit_orders",
        verbose_name="acompte de la demande de location",
    )

    # The means of payment the member used (blank until known; staff typed-in orders have none) and how the staff's
    # lists name it: "Carte •••• 4242 (CB)", "Apple Pay", "PayPal".
    payment_method = models.CharField(
        "moyen de paiement", max_length=20, choices=PaymentMethod.choices, blank=True, default=""
    )
    payment_method_label = models.CharField("moyen de paiement utilisé", max_length=80, blank=True, default="")
    capture_id = models.CharField("identifiant de capture", max_length=64, blank=True, db_index=True)
    # Money captured for nothing in return (seats lost, reservation changed or already paid, order closed) goes back
    # (docs/decisions.md 14): REFUND_PENDING until the provider has refunded, then REFUNDED with the provider's refund
    # id.
    refund_id = models.CharField("identifiant de remboursement", max_length=64, blank=True)
    refunded_at = models.DateTimeField("remboursée le", null=True, blank=True)
    provider_note = models.TextField("note du prestataire", blank=True)
    # The terms of sale the buyer accepted (docs/decisions.md 47): their version and when; for a class card or a
    # subscription, whether the buyer asked the service to start within the 14 days of the withdrawal right
    # (Code de la consommation L221-25: what was used is then due on withdrawal).
    terms_version = models.CharField("version des CGV acceptées", max_length=20, blank=True, default="")
    terms_accepted_at = models.DateTimeField("CGV acceptées le", null=True, blank=True)
    immediate_start = models.BooleanField("exécution immédiate demandée", default=False)
    # The withdrawal (L221-18): when the member withdrew and the part of the price given back.
    withdrawn_at = models.DateTimeField("rétractation le", null=True, blank=True)
    withdrawal_refund_amount = models.DecimalField(
        "remboursé à la rétractation (€)", max_digits=10, decimal_places=2, null=True, blank=True
    )
    # Offers (docs/decisions.md 49). `amount` is the sale's total after the promo code's discount (what is invoiced);
    # the provider is asked for `amount - gift_card_amount`, the rest being spent from `gift_card`'s balance.
    promo_code = models.ForeignKey(
        "offers.PromoCode",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="orders",
        verbose_name="code promo",
    )
    discount_amount = models.DecimalField("remise (€)", max_digits=10, decimal_places=2, default=Decimal("0.00"))
    gift_card = models.ForeignKey(
        "offers.GiftCard",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="spending_orders",
        verbose_name="carte cadeau utilisée",
    )
    gift_card_amount = models.DecimalField(
        "payé par carte cadeau (€)", max_digits=10, decimal_places=2, default=Decimal("0.00")
    )
    # The gift card this order bought (one order per card), activated when the order is paid.
    purchased_gift_card = models.OneToOneField(
        "offers.GiftCard",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="purchase_order",
        verbose_name="carte cadeau achetée",
    )
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
    """A provider's webhook event: PayPal and Stripe redeliver, we act once per event id.

    A PayPal event is recorded once applied. A Stripe event is recorded, with its verified body, as soon as it is
    received (acknowledged at once, applied by a task); `processed_at` is set by the one task run that applies it."""

    event_id = models.CharField("identifiant d'événement", max_length=64, unique=True)
    event_type = models.CharField("type d'événement", max_length=80)
    resource_id = models.CharField("ressource", max_length=64, blank=True)
    received_at = models.DateTimeField("reçu le", auto_now_add=True)
    payload = models.JSONField("contenu", default=dict, blank=True)
    processed_at = models.DateTimeField("traité le", null=True, blank=True)

    class Meta:
        verbose_name = "événement de prestataire"
        verbose_name_plural = "événements de prestataire"
        ordering = ["-received_at"]

    def __str__(self):
        return f"{self.event_type} {self.event_id}"


class PaymentDispute(models.Model):
    """A chargeback the member's bank opened on a Stripe payment (charge.dispute.created): shown to the staff, who
    answer it in Stripe's Dashboard. It blocks nothing here: the order, its booking and its invoice stay as they are."""

    dispute_id = models.CharField("identifiant de litige", max_length=64, unique=True)
    order = models.ForeignKey(
        PaymentOrder,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="disputes",
        verbose_name="commande",
    )
    charge_id = models.CharField("paiement contesté", max_length=64, blank=True)
    intent_id = models.CharField("PaymentIntent", max_length=64, blank=True)
    amount = models.DecimalField("montant contesté (€)", max_digits=10, decimal_places=2, null=True, blank=True)
    reason = models.CharField("motif", max_length=64, blank=True)
    created_at = models.DateTimeField("reçu le", auto_now_add=True)

    class Meta:
        verbose_name = "litige (contestation bancaire)"
        verbose_name_plural = "litiges (contestations bancaires)"
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.dispute_id} ({self.reason or 'motif inconnu'})"


class SimulatedOrderStatus(models.TextChoices):
    CREATED = "CREATED", "Créée"
    APPROVED = "APPROVED", "Approuvée"
    COMPLETED = "COMPLETED", "Capturée"
    VOIDED = "VOIDED", "Annulée"


class SimulatedChallenge(models.TextChoices):
    """The simulated 3-D Secure challenge of the card a buyer approved with (blank: none was asked)."""

    PENDING = "PENDING", "En attente"
    PASSED = "PASSED", "Validée"
    FAILED = "FAILED", "Refusée"


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
    # What the buyer approved with (payments/simulator.py): the method ("card", "wallet"), its label, the scenario
    # played ("success", "challenge", "declined") and, for a challenged card, where its authentication stands.
    method = models.CharField(max_length=20, blank=True, default="")
    method_label = models.CharField(max_length=80, blank=True, default="")
    scenario = models.CharField(max_length=20, blank=True, default="")
    challenge = models.CharField(max_length=20, choices=SimulatedChallenge.choices, blank=True, default="")
    capture_id = models.CharField(max_length=64, blank=True)
    capture_status = models.CharField(max_length=20, blank=True)
    refund_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "commande simulée"
        verbose_name_plural = "commandes simulées"

    def __str__(self):
        return f"{self.order_id} ({self.status})"


# Django registers an app's models from app.models: the subscriptions' models live in their package.
class DeskPaymentLine(models.Model):
    """One means of payment of a sale made at the front desk (docs/decisions.md 43): an order of provider "desk" is paid
    by one line or several ("Pass'Sport 50,00 €" and "Espèces 140,00 €"), whose amounts add up to the order's. Written
    once with the order, in its transaction; the invoice lists them and the day's takings add them up by means."""

    order = models.ForeignKey(
        PaymentOrder, on_delete=models.PROTECT, related_name="desk_payments", verbose_name="commande"
    )
    means = models.CharField("moyen de paiement", max_length=20, choices=DeskMeans.choices)
    amount = models.DecimalField("montant (€)", max_digits=10, decimal_places=2)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="encaissé par",
    )
    created_at = models.DateTimeField("encaissé le", auto_now_add=True)

    class Meta:
        verbose_name = "paiement à l'accueil"
        verbose_name_plural = "paiements à l'accueil"
        ordering = ["order_id", "id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="desk_payment_amount_positive"),
            models.CheckConstraint(condition=models.Q(means__in=DeskMeans.values), name="desk_payment_means_valid"),
        ]
        indexes = [models.Index(fields=["created_at"], name="desk_payment_created_idx")]

    def __str__(self):
        return f"{self.get_means_display()} {self.amount} € ({self.order_id})"


from .subscriptions import models as _subscription_models  # noqa: E402, F401
