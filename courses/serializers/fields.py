"""The API fields the catalogue's shapes are built from, and that other apps' shapes reuse (amounts in cents,
percentages, non-blank text, checked uploads)."""

import re
from decimal import ROUND_HALF_UP, Decimal

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from media_library.fields import NO_NUL, not_blank

# PositiveSmallIntegerField's upper bound (positions, credits, months).
SMALL_INT_MAX = 32_767
MAX_PRICE = Decimal("999999.99")
MAX_ID = 2**31 - 1  # the largest primary key the database holds

# Text fields say what the server enforces: no NUL character (DRF refuses it) and, unless blank is allowed,
# something other than spaces (they are trimmed). A number or a boolean in a JSON body is not text.
NOT_BLANK = not_blank("Ce champ ne peut être vide.")


class TextField(serializers.CharField):
    def get_value(self, dictionary):
        # A multipart field sent empty is the empty text (refused unless blank is allowed), not an absent field.
        return dictionary.get(self.field_name, serializers.empty)

    def __init__(self, **kwargs):
        kwargs.setdefault("validators", [])
        kwargs["validators"] = [*kwargs["validators"], NO_NUL if kwargs.get("allow_blank") else NOT_BLANK]
        super().__init__(**kwargs)

    def run_validation(self, data=serializers.empty):
        # The length the schema states is the length sent, before the spaces around are trimmed.
        if isinstance(data, str) and self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length, length=len(data))
        return super().run_validation(data)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


def text(**kwargs) -> serializers.CharField:
    return TextField(**kwargs)


AMOUNT_TEXT = r"^[0-9]{1,6}(\.[0-9]{1,2})?$"
PERCENT_TEXT = r"^(100(\.0{1,2})?|[0-9]{1,2}(\.[0-9]{1,2})?)$"


@extend_schema_field(
    {
        "anyOf": [
            {"type": "number", "minimum": 0, "maximum": float(MAX_PRICE)},
            {"type": "string", "pattern": AMOUNT_TEXT},
        ]
    }
)
class CentsField(serializers.DecimalField):
    """A non-negative amount in euros: a JSON number, rounded to the cent (a form's 19.999999 means 20.00), or the
    text of one with at most two decimals (what the dashboard sends)."""

    text_pattern = re.compile(AMOUNT_TEXT)

    def __init__(self, *, max_value=MAX_PRICE, **kwargs):
        super().__init__(max_digits=8, decimal_places=2, min_value=0, max_value=max_value, **kwargs)
        self.coerce_to_string = False

    def validate_empty_values(self, data):
        if data == "":  # no amount is not an amount: null says so where the field allows it
            self.fail("invalid")
        return super().validate_empty_values(data)

    def to_internal_value(self, data):
        if isinstance(data, str):
            if not self.text_pattern.fullmatch(data.strip()):
                self.fail("invalid")
            return super().to_internal_value(data.strip())
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        value = Decimal(str(data))
        if value < 0:  # before rounding: -1e-9 is below the schema's minimum 0, not the amount 0.00
            self.fail("min_value", min_value=self.min_value)
        if value.is_finite() and abs(value) < Decimal("1e7"):
            data = str(value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
        return super().to_internal_value(data)


@extend_schema_field(
    {"anyOf": [{"type": "number", "minimum": 0, "maximum": 100}, {"type": "string", "pattern": PERCENT_TEXT}]}
)
class PercentField(CentsField):
    text_pattern = re.compile(PERCENT_TEXT)

    def __init__(self, **kwargs):
        super().__init__(max_value=Decimal("100"), **kwargs)


@extend_schema_field(OpenApiTypes.BINARY)
class UploadField(serializers.FileField):
    """An uploaded file, checked afterwards by its content and size (media_library.uploads, with its French
    messages). A text value in its place (a form sending back the stored URL) is no new file."""

    def __init__(self, **kwargs):
        kwargs.setdefault("allow_empty_file", True)
        kwargs.setdefault("write_only", True)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, str):
            return None
        return super().to_internal_value(data)


# --- Courses ---------------------------------------------------------------------------------------------------


def id_field(message: str, **kwargs) -> serializers.IntegerField:
    """A primary key from the outside world: a positive integer the database can hold, else `message`."""
    keys = ("required", "null", "invalid", "min_value", "max_value", "max_string_length")
    return serializers.IntegerField(
        min_value=1, max_value=MAX_ID, error_messages=dict.fromkeys(keys, message), **kwargs
    )


CLOCK_TIME = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"


@extend_schema_field({"type": "string", "pattern": CLOCK_TIME})
class ClockTimeField(serializers.TimeField):
    """A time of day answered as HH:MM, and documented so: OpenAPI's `time` format is RFC 3339's full time (seconds
    and an offset), which "19:30" is not."""

    def __init__(self, **kwargs):
        super().__init__(format="%H:%M", **kwargs)
