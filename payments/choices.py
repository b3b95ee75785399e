"""The names the orders' models (payments/models.py) and the subscriptions' (payments/subscriptions/models.py) both
use, in a module that imports no model."""

from django.db import models

CURRENCY_EUR = "EUR"


class PaymentProviderName(models.TextChoices):
    PAYPAL = "paypal", "PayPal"
    STRIPE = "stripe", "Stripe"
    SIMULATOR = "simulator", "Simulateur (démonstration)"
    MANUAL = "manual", "Saisie manuelle"
