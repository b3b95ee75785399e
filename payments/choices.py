"""The names the orders' models (payments/models.py) and the subscriptions' (payments/subscriptions/models.py) both
use, in a module that imports no model."""

from django.db import models

CURRENCY_EUR = "EUR"


class PaymentProviderName(models.TextChoices):
    PAYPAL = "paypal", "PayPal"
    STRIPE = "stripe", "Stripe"
    SIMULATOR = "simulator", "Simulateur (démonstration)"
    MANUAL = "manual", "Saisie manuelle"
    DESK = "desk", "À l'accueil"
    GIFT_CARD = "gift_card", "Carte cadeau"  # an order a gift card paid in full: no provider (docs/decisions.md 60)


class DeskMeans(models.TextChoices):
    """The means a sale at the front desk is paid with (docs/decisions.md 43), one or several per sale."""

    CASH = "cash", "Espèces"
    CARD_TERMINAL = "card_terminal", "Carte bancaire (TPE)"
    CHEQUE = "cheque", "Chèque"
    ANCV = "ancv", "Chèque-Vacances (ANCV)"
    PASS_SPORT = "pass_sport", "Pass'Sport"
    COUPON_SPORT = "coupon_sport", "Coupon Sport"


class PaymentMethod(models.TextChoices):
    """How an order was paid, as the member chose it (the provider's own name for PayPal, whose wallet hides it)."""

    CARD = "card", "Carte bancaire"
    WALLET = "wallet", "Apple Pay / Google Pay"
    SEPA_DEBIT = "sepa_debit", "Prélèvement SEPA"
    PAYPAL = "paypal", "PayPal"


# The providers a member may pay with online, as the payment config lists them and the order endpoints take them.
ONLINE_PROVIDERS = (PaymentProviderName.STRIPE, PaymentProviderName.PAYPAL, PaymentProviderName.SIMULATOR)
