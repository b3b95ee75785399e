"""Reads shared by the payment pages, APIs and islands."""

from django.conf import settings

CURRENCY = "EUR"


def payment_provider_name() -> str:
    """'paypal' when PayPal credentials are configured, else the built-in 'simulator' (DECISIONS.md 15)."""
    return "paypal" if settings.PAYPAL_CLIENT_ID and settings.PAYPAL_CLIENT_SECRET else "simulator"


def payment_client_config() -> dict:
    """Props for the payment widget: which buttons to show and PayPal's public client id (never the secret)."""
    provider = payment_provider_name()
    return {
        "provider": provider,
        "clientId": settings.PAYPAL_CLIENT_ID if provider == "paypal" else "",
        "currency": CURRENCY,
    }
