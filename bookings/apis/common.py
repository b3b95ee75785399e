"""Shared by the bookings APIs: their own French messages, the ISO date shape, the lenient text field, the typed
course reservation payload, the `{"message"}` answer."""

from decimal import Decimal

from django.core.validators import RegexValidator
from django.utils import timezone
from rest_framework import serializers

from studio.api import MSG_TEXT_TOO_LONG

from ..services.common import (
    MAX_SESSION_PLACES,
    MSG_PARTICIPANTS_INVALID,
    MSG_PARTICIPANTS_MIN,
    MSG_RESERVATION_REQUIRED,
    MSG_SESSION_NOT_FOUND,
)
from ..services.passes import MSG_PASS_NOT_FOUND

MSG_RANGE_INVALID = "Les dates de début et de fin du calendrier sont invalides."
MSG_LOGIN_TO_RESERVE = "Vous devez être connecté pour réserver un cours."
MSG_FEEDBACK_FORBIDDEN = "Vous ne pouvez consulter ou modifier que vos propres avis."
MSG_AMOUNT_INVALID = "Le montant envoyé est invalide."
MSG_TYPE_INVALID = "Le type de réservation doit être « cours » ou « evj »."

MAX_ID = 2**31 - 1  # the largest primary key the database holds
MAX_TOTAL_AMOUNT = Decimal("999999.99")  # below studio.parsers.MAX_AMOUNT, the most any order may cost
NOT_BLANK = RegexValidator(r"\S", message=MSG_RESERVATION_REQUIRED)  # a name of spaces only is no name


def _iso(value):
    return timezone.localtime(value).isoformat() if value else None


def _text(**kwargs):
    return serializers.CharField(required=False, allow_blank=True, allow_null=True, **kwargs)


def _messages(message: str, *keys: str) -> dict:
    return dict.fromkeys(keys, message)


def _required_text(max_length: int) -> serializers.CharField:
    messages = _messages(MSG_RESERVATION_REQUIRED, "required", "blank", "null", "invalid")
    return serializers.CharField(
        max_length=max_length, validators=[NOT_BLANK], error_messages={**messages, "max_length": MSG_TEXT_TOO_LONG}
    )


def id_field(message: str, **kwargs) -> serializers.IntegerField:
    """A primary key from the outside world: a positive integer the database can hold, else `message`."""
    return serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        error_messages=_messages(message, "required", "null", "invalid", "min_value", "max_value", "max_string_length"),
        **kwargs,
    )


class MessageOutput(serializers.Serializer):
    message = serializers.CharField()


class ReservationPayloadSerializer(serializers.Serializer):
    """SPEC.md 3's reservation payload plus session_id, as the calendar island sends it (ReservationForm.jsx).

    Fields in the order SPEC.md checks them (the first refusal is the one shown). `title`, `date`, `time`, `user_id`
    and `name` are accepted and ignored: the server reserves the session for the logged-in member at its own price.
    `total_amount` (or `totalAmount`), when sent, must match the server's price (DECISIONS.md 12). With `pass_id`,
    the member's class card or subscription pays at once. A payload of `type` "evj" is a party request
    (api/reservations-evj), read by the parties API before this serializer.
    """

    # Bounded by the reservation's columns (issue 16): a 100,000-character name is refused, in French.
    first_name = _required_text(150)
    last_name = _required_text(150)
    email = _required_text(254)
    participants = serializers.IntegerField(
        min_value=1,
        max_value=MAX_SESSION_PLACES,
        default=1,
        error_messages={
            **_messages(
                MSG_PARTICIPANTS_INVALID.format(max=MAX_SESSION_PLACES),
                "invalid",
                "null",
                "max_value",
                "max_string_length",
            ),
            "min_value": MSG_PARTICIPANTS_MIN,
        },
    )
    session_id = id_field(MSG_SESSION_NOT_FOUND)
    pass_id = id_field(MSG_PASS_NOT_FOUND, required=False, allow_null=True)
    total_amount = serializers.DecimalField(
        max_digits=8,
        decimal_places=2,
        min_value=Decimal("0.01"),
        max_value=MAX_TOTAL_AMOUNT,
        required=False,
        allow_null=True,
        error_messages=_messages(
            MSG_AMOUNT_INVALID,
            "invalid",
            "null",
            "min_value",
            "max_value",
            "max_digits",
            "max_decimal_places",
            "max_whole_digits",
            "max_string_length",
        ),
    )
    totalAmount = serializers.DecimalField(  # noqa: N815 (SPEC.md's client may send either spelling)
        max_digits=8,
        decimal_places=2,
        min_value=Decimal("0.01"),
        max_value=MAX_TOTAL_AMOUNT,
        required=False,
        allow_null=True,
        error_messages=_messages(
            MSG_AMOUNT_INVALID,
            "invalid",
            "null",
            "min_value",
            "max_value",
            "max_digits",
            "max_decimal_places",
            "max_whole_digits",
            "max_string_length",
        ),
    )
    # A TextField has no column bound; 5,000 characters, as a contact message (issue 16).
    message = serializers.CharField(
        max_length=5000, required=False, allow_blank=True, default="", error_messages={"max_length": MSG_TEXT_TOO_LONG}
    )
    type = serializers.RegexField(
        r"^cours$", required=False, max_length=5, error_messages=_messages(MSG_TYPE_INVALID, "invalid", "null", "blank")
    )
    title = serializers.CharField(required=False, allow_blank=True, max_length=200, help_text="Ignoré.")
    date = serializers.CharField(required=False, allow_blank=True, max_length=40, help_text="Ignoré.")
    time = serializers.CharField(required=False, allow_blank=True, max_length=40, help_text="Ignoré.")
    name = serializers.CharField(required=False, allow_blank=True, max_length=300, help_text="Ignoré.")
    user_id = serializers.JSONField(required=False, allow_null=True, help_text="Ignoré.")

    def expected_total(self) -> Decimal | None:
        data = self.validated_data
        total = data.get("total_amount")
        return total if total is not None else data.get("totalAmount")
