"""What the studio offers beyond its tariffs (docs/decisions.md 49): promo codes, and gift cards spent as a balance.

Both sit below payments, whose orders refer to them (`PaymentOrder.promo_code`, `.gift_card`, `.purchased_gift_card`);
they never refer to an order except by its public reference, so that this app never points up at payments."""

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone


class PromoKind(models.TextChoices):
    PERCENT = "percent", "Pourcentage"
    AMOUNT = "amount", "Montant"


class PromoCode(models.Model):
    """A code a member types in the order modal: a percentage or an amount off, on chosen tariffs (none chosen: all),
    between two dates, at most `max_uses` in all and `max_uses_per_member` per member (blank: no limit).
    `uses_count` counts the orders paid with it; it is changed under the code's row lock only."""

    code = models.CharField("code", max_length=40, unique=True)  # stored in capitals, compared in capitals
    label = models.CharField("libellé", max_length=120, blank=True)
    kind = models.CharField("type de remise", max_length=10, choices=PromoKind.choices)
    value = models.DecimalField(
        "valeur (% ou €)", max_digits=8, decimal_places=2, validators=[MinValueValidator(Decimal("0.01"))]
    )
    tariffs = models.ManyToManyField("courses.Tariff", blank=True, related_name="promo_codes", verbose_name="tarifs")
    starts_on = models.DateField("valable du", null=True, blank=True)
    ends_on = models.DateField("valable jusqu'au", null=True, blank=True)
    max_uses = models.PositiveIntegerField("utilisations au total", null=True, blank=True)
    max_uses_per_member = models.PositiveIntegerField("utilisations par membre", null=True, blank=True, default=1)
    uses_count = models.PositiveIntegerField("utilisations", default=0)
    active = models.BooleanField("actif", default=True)
    created_at = models.DateTimeField("créé le", default=timezone.now)

    class Meta:
        verbose_name = "code promo"
        verbose_name_plural = "codes promo"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(kind__in=PromoKind.values), name="promo_kind_valid"),
            models.CheckConstraint(condition=models.Q(value__gt=0), name="promo_value_positive"),
            models.CheckConstraint(
                condition=~models.Q(kind="percent") | models.Q(value__lte=100), name="promo_percent_at_most_100"
            ),
            models.CheckConstraint(
                condition=models.Q(max_uses__isnull=True) | models.Q(uses_count__lte=models.F("max_uses")),
                name="promo_uses_within_limit",
            ),
        ]

    def __str__(self):
        return self.code


class GiftCardKind(models.TextChoices):
    AMOUNT = "amount", "Montant"
    TARIFF = "tariff", "Tarif"


class GiftCardStatus(models.TextChoices):
    PENDING = "pending", "En attente de paiement"
    ACTIVE = "active", "Active"
    CANCELLED = "cancelled", "Annulée"


class GiftCard(models.Model):
    """A gift card bought online for an amount (20–500 €) or a tariff's price; spent as a balance on any purchase,
    in part or whole, for 12 months. `balance` changes under the card's row lock only, each change a movement."""

    code = models.CharField("code", max_length=32, unique=True)
    kind = models.CharField("type", max_length=10, choices=GiftCardKind.choices, default=GiftCardKind.AMOUNT)
    tariff = models.ForeignKey(
        "courses.Tariff", on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name="tarif"
    )
    initial_amount = models.DecimalField("montant initial (€)", max_digits=10, decimal_places=2)
    balance = models.DecimalField("solde (€)", max_digits=10, decimal_places=2, default=Decimal("0.00"))
    status = models.CharField(
        "statut", max_length=12, choices=GiftCardStatus.choices, default=GiftCardStatus.PENDING, db_index=True
    )
    buyer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="gift_cards_bought"
    )
    buyer_name = models.CharField("acheteur", max_length=310, blank=True)
    buyer_email = models.EmailField("email de l'acheteur", blank=True)
    recipient_name = models.CharField("bénéficiaire", max_length=150, blank=True)
    recipient_email = models.EmailField("email du bénéficiaire", blank=True)
    message = models.TextField("message", max_length=500, blank=True)
    send_on = models.DateField("envoi le", null=True, blank=True)
    sent_at = models.DateTimeField("envoyée le", null=True, blank=True)
    purchased_at = models.DateTimeField("achetée le", null=True, blank=True)
    expires_on = models.DateField("valable jusqu'au", null=True, blank=True)
    created_at = models.DateTimeField("créée le", default=timezone.now)

    class Meta:
        verbose_name = "carte cadeau"
        verbose_name_plural = "cartes cadeaux"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "send_on"])]
        constraints = [
            models.CheckConstraint(condition=models.Q(balance__gte=0), name="gift_card_balance_not_negative"),
            models.CheckConstraint(condition=models.Q(initial_amount__gt=0), name="gift_card_amount_positive"),
            models.CheckConstraint(condition=models.Q(kind__in=GiftCardKind.values), name="gift_card_kind_valid"),
            models.CheckConstraint(condition=models.Q(status__in=GiftCardStatus.values), name="gift_card_status_valid"),
        ]

    def __str__(self):
        return self.code


class GiftCardMovementKind(models.TextChoices):
    ISSUE = "issue", "Émission"
    SPEND = "spend", "Achat"
    RELEASE = "release", "Paiement abandonné"
    REFUND = "refund", "Remboursement"
    ADJUST = "adjust", "Ajustement"


class GiftCardMovement(models.Model):
    """One change of a card's balance (signed), with the order it paid (by reference) or the staff member's reason.
    The card's balance is the sum of its movements."""

    card = models.ForeignKey(GiftCard, on_delete=models.CASCADE, related_name="movements", verbose_name="carte")
    kind = models.CharField("type", max_length=10, choices=GiftCardMovementKind.choices)
    amount = models.DecimalField("montant (€)", max_digits=10, decimal_places=2)
    balance_after = models.DecimalField("solde après (€)", max_digits=10, decimal_places=2)
    order_reference = models.CharField("commande", max_length=64, blank=True, db_index=True)
    reason = models.CharField("motif", max_length=300, blank=True)
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField("le", default=timezone.now)

    class Meta:
        verbose_name = "mouvement de carte cadeau"
        verbose_name_plural = "mouvements de cartes cadeaux"
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=GiftCardMovementKind.values), name="gift_card_movement_kind_valid"
            ),
            models.CheckConstraint(condition=models.Q(balance_after__gte=0), name="gift_card_movement_balance_ok"),
        ]

    def __str__(self):
        return f"{self.card} {self.amount}"
