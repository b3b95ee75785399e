"""Shared by the bookings APIs: their own French messages, the ISO date shape, the lenient text field, the typed
course reservation payload, the `{"message"}` answer."""

from decimal import Decimal

from django.core.validators import RegexValidator
from django.utils import timezone
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from courses.models import MAX_SESSION_PLACES
from courses.serializers.fields import CentsField
from studio.fields import rfc3339
from studio.parsers import MSG_TEXT_TOO_LONG

from ..services.common import (
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
# DRF refuses the NUL character in every text, and trims a text before checking it is there: a required text has
# something other than what str.strip() removes (the JSON schema's \s is not quite that set), and no NUL. The
# patterns say both in the schema.
SPACES = r"\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
FILLED = rf"^[^\x00]*[^\x00{SPACES}][^\x00]*$"
NO_NUL = r"^[^\x00]*$"
NOT_BLANK = RegexValidator(FILLED, message=MSG_RESERVATION_REQUIRED)  # a name of spaces only is no name


def filled(message: str) -> RegexValidator:
    """A required text: something other than spaces, no NUL (the schema's pattern says so)."""
    return RegexValidator(FILLED, message=message)


def no_nul() -> RegexValidator:
    """An optional text: anything but NUL, which DRF refuses (the schema's pattern says so)."""
    return RegexValidator(NO_NUL)


class OptionalText(serializers.CharField):
    """A text that may be blank (or only spaces: then ''), without NUL, documented as one string schema. DRF's own
    `allow_blank` is not used: drf-spectacular documents it, with a pattern, as a `oneOf` that the empty string
    matches twice (so that the schema would refuse it)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.validators.append(no_nul())

    def run_validation(self, data=serializers.empty):
        if isinstance(data, str) and self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)  # as sent, as the schema's maxLength counts
        if isinstance(data, str) and (data == "" or (self.trim_whitespace and not data.strip())):
            return ""
        return super().run_validation(data)


class OptionalTextSchema(OpenApiSerializerFieldExtension):
    target_class = OptionalText

    def map_serializer_field(self, auto_schema, direction):
        schema = {"type": "string", "pattern": NO_NUL}
        if self.target.max_length is not None:
            schema["maxLength"] = self.target.max_length
        return schema


_iso = rfc3339


def paris_text(value) -> str:
    """'AAAA-MM-JJ HH:MM:SS' in Paris time, the year on four digits (strftime's %Y may write 97 for 0097)."""
    local = timezone.localtime(value)
    return f"{local.year:04d}-{local:%m-%d %H:%M:%S}"


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


@extend_schema_serializer(component_name="BookingMessageOutput")  # accounts has a MessageOutput of its own
class MessageOutput(serializers.Serializer):
    message = serializers.CharField()


class ReservationPayloadSerializer(serializers.Serializer):
    """The calendar's reservation payload plus session_id, as the calendar island sends it (ReservationForm.jsx).

    Fields in the order the reservation form checks them (names and e-mail, then participants): the first refusal is the
    one shown. `title`, `date`, `time`, `user_id` and `name` are accepted and ignored: the server reserves the session
    for the logged-in member at its own price. `total_amount` (or `totalAmount`), when sent, must match the server's
    price (docs/decisions.md 12). With `pass_id`, the member's class card or subscription pays at once. A payload of
    `type` "evj" is a party request, read by quotes' view of this route (quotes/apis/parties.py) before this serializer.
    """

    # Bounded by the reservation's columns: a 100,000-character name is refused, in French.
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
    # A JSON number (rounded to the cent) or a text of digits with two decimals at most, as the schema says; one that
    # is not the session's price is a conflict with it (409, amount_mismatch).
    total_amount = CentsField(
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
    totalAmount = CentsField(  # noqa: N815 (the browser may send either spelling)
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
    # A TextField has no column bound; 5,000 characters, as a contact message.
    message = OptionalText(max_length=5000, default="", error_messages={"max_length": MSG_TEXT_TOO_LONG})
    type = serializers.RegexField(
        r"^cours$", required=False, max_length=5, error_messages=_messages(MSG_TYPE_INVALID, "invalid", "null", "blank")
    )
    title = OptionalText(max_length=200, help_text="Ignoré.")
    date = OptionalText(max_length=40, help_text="Ignoré.")
    time = OptionalText(max_length=40, help_text="Ignoré.")
    name = OptionalText(max_length=300, help_text="Ignoré.")
    user_id = serializers.JSONField(required=False, allow_null=True, help_text="Ignoré.")

    def expected_total(self) -> Decimal | None:
        data = self.validated_data
        total = data.get("total_amount")
        return total if total is not None else data.get("totalAmount")
