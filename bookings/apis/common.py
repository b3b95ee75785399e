"""Shared by the bookings APIs: their own French messages, the ISO date shape, the lenient text field, and the
reservation payload (courses and parties)."""

from django.utils import timezone
from rest_framework import serializers

from studio.api import MSG_TEXT_TOO_LONG

MSG_RANGE_INVALID = "Les dates de début et de fin du calendrier sont invalides."
MSG_LOGIN_TO_RESERVE = "Vous devez être connecté pour réserver un cours."
MSG_FEEDBACK_FORBIDDEN = "Vous ne pouvez consulter ou modifier que vos propres avis."
MSG_AMOUNT_INVALID = "Le montant envoyé est invalide."


def _iso(value):
    return timezone.localtime(value).isoformat() if value else None


def _text(**kwargs):
    return serializers.CharField(required=False, allow_blank=True, allow_null=True, **kwargs)


class ReservationPayloadSerializer(serializers.Serializer):
    """SPEC.md 3's reservation payload plus session_id. user_id and name are accepted and ignored: the server
    reserves for the logged-in member. total_amount, when sent, must match the server's price (DECISIONS.md 12)."""

    session_id = _text()
    title = _text()
    date = _text()
    time = _text()
    participants = serializers.JSONField(required=False, allow_null=True)
    # A TextField has no column bound; 5,000 characters, as a contact message (issue 16).
    message = _text(max_length=5000, error_messages={"max_length": MSG_TEXT_TOO_LONG})
    email = _text(max_length=254, error_messages={"max_length": MSG_TEXT_TOO_LONG})
    # Bounded by the reservation's columns (issue 16): a 100,000-character name is refused, in French.
    first_name = _text(max_length=150, error_messages={"max_length": MSG_TEXT_TOO_LONG})
    last_name = _text(max_length=150, error_messages={"max_length": MSG_TEXT_TOO_LONG})
    type = _text()
    user_id = serializers.JSONField(required=False, allow_null=True)
    name = _text()
    total_amount = _text()
    totalAmount = _text()
    eventType = _text()
    pass_id = serializers.JSONField(required=False, allow_null=True)
