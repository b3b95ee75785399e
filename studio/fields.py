"""Serializer fields shared by every app's API."""

from datetime import UTC

from django.utils import timezone
from rest_framework import serializers


def rfc3339(value, tz=None):
    """RFC 3339 in Paris time; in UTC where Paris's offset of that instant is not whole minutes (its local mean time
    before 1911, +00:09:21), which RFC 3339 cannot write. A text is returned as it is. `tz`: the current time zone,
    when the caller formats many values (looking it up costs more than the conversion)."""
    if value is None or value == "" or isinstance(value, str):
        return value or None
    local = value.astimezone(tz) if tz is not None else timezone.localtime(value)
    offset = local.utcoffset()
    if offset is not None and offset.total_seconds() % 60:
        local = value.astimezone(UTC)
    return local.isoformat()


class StrictBooleanField(serializers.BooleanField):
    """JSON's true or false, nothing that merely looks like one (DRF's BooleanField takes 0, "yes", "on"...), as the
    schema's `type: boolean` says. For JSON bodies; a query string's or a form's booleans are text."""

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class DateTimeOutputField(serializers.DateTimeField):
    """A date-time in an answer, always valid RFC 3339 (`format: date-time`), whatever year staff typed."""

    def to_representation(self, value):
        return rfc3339(value)


def count_length_as_sent() -> None:
    """Every API text field takes what its schema says, `type: string` with a `maxLength` counted on the text as
    sent: a number or a boolean in a JSON body is not a text (DRF would turn 0 into "0"), and the length is checked
    before DRF trims the spaces around. Without it a reason of spaces and control characters around a long word
    passed once trimmed, and `{"reason": 0}` cancelled a class (schemathesis: schema-violating request accepted).
    Applied once to DRF's CharField at start-up (StudioConfig.ready), so that no serializer can forget."""
    if getattr(serializers.CharField, "_counts_length_as_sent", False):
        return
    trimmed_validation = serializers.CharField.run_validation

    def run_validation(self, data=serializers.empty):
        if isinstance(data, bool | int | float):
            self.fail("invalid")
        if isinstance(data, str) and self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length, length=len(data))
        return trimmed_validation(self, data)

    serializers.CharField.run_validation = run_validation
    serializers.CharField._counts_length_as_sent = True


# What Python's str.strip() removes (the JSON schema's \s is not quite the same set), and a text that holds something
# else than those and no NUL: the pattern a required text states in the schema, so that the schema's texts are the
# server's.
SPACES = r"\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
FILLED = rf"^[^\x00]*[^\x00{SPACES}][^\x00]*$"
