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


ORDERINGS = {
    "created": ("created_at", "id"),
    "-created": ("-created_at", "-id"),
    "date": ("date", "time", "created_at"),
    "-date": ("-date", "-time", "-created_at"),
    "amount": ("amount", "id"),
    "-amount": ("-amount", "-id"),
    "status": ("status", "-created_at"),
    "-status": ("-status", "-created_at"),
    "email": ("email", "-created_at"),
    "-email": ("-email", "-created_at"),
}
DEFAULT_ORDERING = "-created"


def payment_orders_for_staff(*, ordering: str = DEFAULT_ORDERING, status: str = "", search: str = ""):
    """Every payment order for the dashboard, newest first by default; one query per page.

    `date` sorts by the order's date field (the session's date for a reservation), `created` by when it was made.
    """
    from django.db.models import Q

    from .models import PaymentOrder

    qs = PaymentOrder.objects.all()
    if status:
        qs = qs.filter(status=status)
    if search:
        qs = qs.filter(
            Q(order_id__icontains=search)
            | Q(email__icontains=search)
            | Q(last_name__icontains=search)
            | Q(title__icontains=search)
        )
    return qs.order_by(*ORDERINGS.get(ordering, ORDERINGS[DEFAULT_ORDERING]))
