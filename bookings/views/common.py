"""What the bookings pages share: the logged-in member, for the islands' props."""

from django.middleware.csrf import get_token


def member_props(request) -> dict | None:
    """The logged-in member for an island's props; also sets the CSRF cookie its API calls send back."""
    user = request.user
    if not user.is_authenticated:
        return None
    get_token(request)
    return {"id": user.pk, "first_name": user.first_name, "last_name": user.last_name, "email": user.email}
