"""Input fields of the account APIs that say in the OpenAPI schema exactly what they accept."""

from collections.abc import Mapping

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from studio.api import MSG_INVALID
from studio.parsers import MSG_TEXT_TOO_LONG

# DRF refuses the NUL character in every text; the pattern says so in the schema (one pattern per field: the
# specific patterns below leave NUL out too). Classes are spelled out rather than \s or \d, which mean more in
# Python than in the schema's ECMAScript (Unicode digits, \x1c-\x1f).
NO_NUL_PATTERN = r"^[^\x00]*$"
# What `normalize_phone` turns into ten digits: digits with spaces, dots or dashes between them.
PHONE_PATTERN = r"^[ .\-]*(?:[0-9][ .\-]*){10}$"
POSTAL_CODE_PATTERN = r"^[0-9]{5}$"
# Something that is not only spaces (the services strip the text before checking it is there), without NUL.
SPACE = r"\s\x1c-\x1f\x85\ufeff"
NOT_BLANK_PATTERN = rf"^[^\x00]*[^{SPACE}\x00][^\x00]*$"

# From a form, a boolean is the word the schema's serialisation uses ("true"/"false"), or a ticked checkbox's "on".
TRUE_WORDS = {"true", "on"}
FALSE_WORDS = {"false"}


class FormValueAsSent:
    """From a form, DRF reads an empty optional field as absent; here `x=` is the empty text it says it is, refused
    where the schema refuses it."""

    def get_value(self, dictionary):
        if hasattr(dictionary, "getlist") and self.field_name in dictionary:
            return dictionary.get(self.field_name)
        return super().get_value(dictionary)


class Text(FormValueAsSent, serializers.CharField):
    """A string and nothing else: DRF's CharField turns a number or a boolean into text, this one refuses it.
    A required text that may not be blank says so in the schema (minLength 1)."""

    pattern = NO_NUL_PATTERN

    def __init__(self, *, messages: dict | None = None, pattern_message: str | None = None, **kwargs):
        kwargs.setdefault("error_messages", {})
        kwargs["error_messages"] = {"max_length": MSG_TEXT_TOO_LONG, **kwargs["error_messages"], **(messages or {})}
        if not kwargs.get("allow_blank") and "min_length" not in kwargs:
            kwargs["min_length"] = 1
            kwargs["error_messages"].setdefault("min_length", kwargs["error_messages"].get("blank", MSG_INVALID))
        super().__init__(**kwargs)
        self.validators.append(RegexValidator(self.pattern, message=pattern_message or MSG_INVALID))

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class PatternText(Text):
    """A string matching `pattern` (documented as such), refused with `message` otherwise."""

    def __init__(self, pattern: str, message: str, **kwargs):
        self.pattern = pattern
        super().__init__(pattern_message=message, **kwargs)


class StrictEmail(FormValueAsSent, serializers.EmailField):
    """An e-mail address given as a string (Django's EmailValidator, `format: email` in the schema)."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBoolean(FormValueAsSent, serializers.BooleanField):
    """JSON true/false; from a form, "true"/"false" or a ticked checkbox's "on" (not 0/1: the schema says boolean)."""

    def to_internal_value(self, data):
        if isinstance(data, bool):
            return data
        if isinstance(data, str) and _is_form(self) and data.strip().lower() in TRUE_WORDS | FALSE_WORDS:
            return data.strip().lower() in TRUE_WORDS
        self.fail("invalid", input=data)


@extend_schema_field({"type": "boolean", "enum": [True]})
class Accepted(StrictBoolean):
    """A box that must be ticked (the CGU): only true is accepted, with the field's `required` message."""

    def to_internal_value(self, data):
        if isinstance(data, str) and _is_form(self) and data.strip().lower() in TRUE_WORDS:
            return True
        if data is True:
            return True
        self.fail("required")


def _is_form(field) -> bool:
    root = field.root
    data = getattr(root, "initial_data", None)
    return isinstance(data, Mapping) and hasattr(data, "getlist")
