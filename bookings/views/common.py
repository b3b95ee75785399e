"""What the bookings pages share: the logged-in member and the payment widget's config, for the islands' props."""

from django.middleware.csrf import get_token

from studio.registry import provided

# The payment widget's config is provided by the payments app (payments/apps.py), which bookings may not import.
SIMULATOR_PAYMENT_CONFIG = {"provider": "simulator", "clientId": "", "currency": "EUR"}


def payment_config() -> dict:
    return provided("payment_client_config", default=SIMULATOR_PAYMENT_CONFIG)


def member_props(request) -> dict | None:
    """The logged-in member for an island's props; also sets the CSRF cookie its API calls send back."""
    user = request.user
    if not user.is_authenticated:
        return None
    get_token(request)
    return {"id": user.pk, "first_name": user.first_name, "last_name": user.last_name, "email": user.email}
