"""Input fields of the media library's API (and of the catalogue's, which uploads course pictures) that say in the
OpenAPI schema exactly what the server accepts."""

import re

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from drf_spectacular.drainage import set_override
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import empty

# Text without NUL (DRF refuses it); not blank: some character that is neither NUL nor a space. The spaces are
# spelled as the union of Python's `\s` (which the server's trimming and this regex use) and ECMAScript's (the
# schema's), so that both read the class alike; `\S` alone would count NUL as "not a space".
NO_NUL_PATTERN = r"^[^\x00]*$"
SPACE = r"\s\x1c-\x1f\x85\ufeff"
NOT_BLANK_PATTERN = rf"^[^\x00]*[^{SPACE}\x00][^\x00]*$"
NO_NUL = RegexValidator(NO_NUL_PATTERN, message="Le caractère nul n’est pas autorisé.")


class FullMatchValidator(RegexValidator):
    """The schema's `^...$` pattern (as drf-spectacular publishes it), matched against the whole text: Python's `$`
    also matches before a final newline, ECMAScript's does not."""

    def __call__(self, value):
        if not self.regex.fullmatch(str(value)):
            raise ValidationError(self.message, code=self.code, params={"value": value})


def not_blank(message: str | None = None) -> RegexValidator:
    return RegexValidator(NOT_BLANK_PATTERN, message=message)


# An http(s) address as the schema can state it (ASCII classes, the same in Python and ECMAScript): a host of URL
# characters (no brackets, no space), then a path, query or fragment without spaces or control characters. Django's
# URLValidator is stricter in ways no pattern states exactly (label lengths, top-level domains), so the APIs check
# this pattern and the services do not add Django's (courses.services.catalogue._save,
# media_library.services._check_url).
WEB_URL_PATTERN = r"^https?://[A-Za-z0-9._~%!$&'()*+,;=:@-]+(?:[/?#][^\x00-\x20\x7f]*)?$"
WEB_URL_OR_EMPTY = r"^(?:https?://[A-Za-z0-9._~%!$&'()*+,;=:@-]+(?:[/?#][^\x00-\x20\x7f]*)?)?$"
MSG_URL_INVALID = "Saisissez une URL valide."


def full_match(pattern: str) -> re.Pattern:
    """The schema's `^...$` pattern for Python: `$` there also matches before a final newline, `\\Z` does not."""
    return re.compile(pattern.removesuffix("$") + r"\Z")


WEB_URL = full_match(WEB_URL_PATTERN)


class WebUrlField(serializers.CharField):
    """An http(s) address or, where blank is allowed, the empty text: exactly what its schema pattern says (spaces
    around it are refused, not trimmed, since the pattern refuses them); a JSON number or boolean is not one."""

    def __init__(self, *, message: str = MSG_URL_INVALID, **kwargs):
        kwargs["trim_whitespace"] = False
        pattern = WEB_URL_OR_EMPTY if kwargs.get("allow_blank") else WEB_URL_PATTERN
        kwargs.setdefault("error_messages", {}).setdefault("invalid", message)
        super().__init__(**kwargs)
        self.validators.append(RegexValidator(full_match(pattern), message=message))
        schema = {"type": "string", "pattern": pattern}
        if self.max_length is not None:
            schema["maxLength"] = self.max_length
        set_override(self, "field", schema)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class TextField(serializers.CharField):
    """Text without NUL characters (DRF refuses them; the schema says so); a JSON number or boolean is not text.
    Unless blank is allowed, something other than spaces (they are trimmed)."""

    def get_value(self, dictionary):
        # A multipart field sent empty is the empty text (refused unless blank is allowed), not an absent field.
        return dictionary.get(self.field_name, empty)

    def __init__(self, **kwargs):
        blank = kwargs.get("error_messages", {}).get("blank")
        kwargs["validators"] = [NO_NUL if kwargs.get("allow_blank") else not_blank(blank)]
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


@extend_schema_field(OpenApiTypes.BINARY)
class UploadField(serializers.FileField):
    """An uploaded file, checked afterwards by its content and size (media_library.uploads, with its own French
    messages, an empty file included). A text value in its place (a form sending back the stored URL) is no new
    file."""

    def __init__(self, **kwargs):
        kwargs.setdefault("allow_empty_file", True)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, str):
            return None
        return super().to_internal_value(data)


class FormIntegerField(serializers.IntegerField):
    """An integer; from a form, a part sent empty is the empty text (refused), not an absent field (DRF's reading)."""

    def get_value(self, dictionary):
        return dictionary.get(self.field_name, empty)


class OptionalBooleanField(serializers.BooleanField):
    """`true` or `false` (as a form sends them); absent from a form means unchanged, not False (DRF's default)."""

    default_empty_html = empty

    def to_internal_value(self, data):
        if data in (True, False, "true", "false"):
            return data in (True, "true")
        self.fail("invalid", input=data)


# Text patterns any JSON scalar's text satisfies (as the schema spells them): a form part holding one is such a text.
FREE_TEXT_PATTERNS = {
    spelling
    for pattern in (NO_NUL_PATTERN, NOT_BLANK_PATTERN)
    for spelling in (pattern, pattern.replace(r"\x", r"\u00"))  # drf-spectacular's spelling
}
EMPTY_TEXT = {"type": "string", "maxLength": 0}


def blank_is_text(schema: dict) -> dict:
    """drf-spectacular states a text that may be blank as `oneOf: [its pattern, maxLength 0]`; these patterns
    accept the empty text already, so '' would match both branches and be refused by `oneOf`. `anyOf` says what the
    server does: the empty text, or any text matching the pattern."""
    for prop in schema.get("properties", {}).values():
        if len(prop.get("oneOf", [])) == 2 and prop["oneOf"][1] == EMPTY_TEXT:
            prop["anyOf"] = prop.pop("oneOf")
    return schema


def form_schema(schema: dict) -> dict:
    """A multipart body's schema: every part is text. A free text field (no format, choice or specific pattern)
    takes whatever a client puts in its part, a number or `true` arriving as their text, so its schema names no
    type (its length and pattern still apply to the text); typed fields (numbers, booleans, choices, URLs) keep
    theirs, since the server parses their text and refuses any other. A form carries at least one part: a body
    without any is refused (`form_empty`)."""
    for prop in schema.get("properties", {}).values():
        if prop.get("oneOf", [None, None])[1] == EMPTY_TEXT and prop["oneOf"][0].get("pattern") in FREE_TEXT_PATTERNS:
            prop.update(prop.pop("oneOf")[0])  # free text, blank allowed: its pattern accepts the empty text
        if prop.get("type") == "string" and "format" not in prop and "enum" not in prop:
            if prop.get("pattern") in FREE_TEXT_PATTERNS:
                del prop["type"]
    schema["minProperties"] = 1
    return blank_is_text(schema)
