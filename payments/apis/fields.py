"""Input fields of the payment APIs that say in the OpenAPI schema exactly what they accept."""

from decimal import Decimal

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from studio.fields import FILLED
from studio.parsers import MSG_TEXT_TOO_LONG

# DRF refuses the NUL character in every text, and the services strip a text before checking it is there: a
# required text has something else than spaces, and no NUL (the pattern says both in the schema).
NO_NUL = RegexValidator(r"^[^\x00]*$")
# An amount in euros as the islands send it ("25.00"): digits, at most two decimals, below a million.
AMOUNT_PATTERN = r"^[0-9]{1,6}(\.[0-9]{1,2})?$"
# What Django's e-mail validator takes (a dot-atom, then a domain whose last label has two letters or more), so that
# the schema's e-mails are the server's: "0@0.a" is no e-mail here.
EMAIL_ATOM = r"[-!#$%&'*+/=?^_`{}|~0-9A-Za-z]+"
EMAIL_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
EMAIL_PATTERN = rf"^{EMAIL_ATOM}(?:\.{EMAIL_ATOM})*@(?:{EMAIL_LABEL}\.)+[A-Za-z]{{2,63}}$"
MAX_ID = 2**31 - 1  # an id the database's integer columns can hold


def messages(text: str, *keys: str) -> dict:
    return dict.fromkeys(keys, text)


class Text(serializers.CharField):
    """A string and nothing else (DRF's CharField turns a number into text), trimmed, with French messages.
    `missing`: the message when it is absent, null or blank (then it is required). Without it the text is optional
    and may be blank; DRF's `allow_blank` is not used for that, as drf-spectacular then documents a `oneOf` that a
    blank string matches twice (so that the schema would refuse what the server takes)."""

    def __init__(self, *, missing: str | None = None, **kwargs):
        kwargs["error_messages"] = {"max_length": MSG_TEXT_TOO_LONG, **kwargs.get("error_messages", {})}
        if missing:
            kwargs["error_messages"].update(messages(missing, "required", "null", "blank", "invalid"))
        else:
            kwargs.setdefault("required", False)
        self.blank_ok = not missing
        super().__init__(**kwargs)
        self.validators.append(RegexValidator(FILLED, message=missing) if missing else NO_NUL)

    def run_validation(self, data=serializers.empty):
        if isinstance(data, str) and self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)  # as sent, as the schema's maxLength counts
        if self.blank_ok and isinstance(data, str) and not data.strip():
            return ""
        return super().run_validation(data)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class Email(serializers.EmailField):
    def __init__(self, *, missing: str, invalid: str, **kwargs):
        kwargs["error_messages"] = {
            **messages(missing, "required", "null", "blank"),
            **messages(invalid, "invalid", "max_length"),
        }
        # Not trimmed: the schema's pattern has no spaces (a browser's e-mail input strips them already).
        super().__init__(max_length=254, trim_whitespace=False, **kwargs)
        self.validators.append(RegexValidator(EMAIL_PATTERN, message=invalid))
        # RFC 5321, as the schema's `format: email` says: 64 characters at most before the @.
        self.validators.append(RegexValidator(r"^[^@]{1,64}@", message=invalid))

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


@extend_schema_field({"type": "string", "pattern": AMOUNT_PATTERN, "example": "25.00"})
class Amount(serializers.DecimalField):
    """Euros as a string of digits with at most two decimals ("25.00"), as every caller sends it (a JSON number is
    refused: a float is no way to carry money)."""

    def __init__(self, *, message: str, missing: str | None = None, **kwargs):
        keys = ("invalid", "max_digits", "max_decimal_places", "max_whole_digits", "max_string_length", "min_value")
        errors = {**messages(message, *keys), **messages(missing or message, "required", "null")}
        super().__init__(max_digits=8, decimal_places=2, min_value=Decimal("0"), error_messages=errors, **kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        if not data.strip():
            self.fail("required")
        return super().to_internal_value(data)


def identifier(message: str, **kwargs) -> serializers.IntegerField:
    """A database id (1 … 2³¹−1); anything else is refused with `message`."""
    keys = ("invalid", "min_value", "max_value", "max_string_length", "null", "required")
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, error_messages=messages(message, *keys), **kwargs)


def optional_text(max_length: int, **kwargs) -> Text:
    """A text that may be absent or blank, up to `max_length` characters."""
    return Text(max_length=max_length, **kwargs)


def choice(choices, *, message: str, blank: bool = False, **kwargs) -> serializers.ChoiceField:
    """A choice refused with `message`; `blank`: "" is taken too, and means "none"."""
    return serializers.ChoiceField(
        choices=choices, allow_blank=blank, error_messages=messages(message, "invalid_choice", "null"), **kwargs
    )
