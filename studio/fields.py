"""Serializer fields shared by every app's API (issue 17)."""

from datetime import UTC

from django.utils import timezone
from rest_framework import serializers


def rfc3339(value):
    """RFC 3339 in Paris time; in UTC where Paris's offset of that instant is not whole minutes (its local mean time
    before 1911, +00:09:21), which RFC 3339 cannot write. A text is returned as it is."""
    if value is None or value == "" or isinstance(value, str):
        return value or None
    local = timezone.localtime(value)
    offset = local.utcoffset()
    if offset is not None and offset.total_seconds() % 60:
        local = value.astimezone(UTC)
    return local.isoformat()


class DateTimeOutputField(serializers.DateTimeField):
    """A date-time in an answer, always valid RFC 3339 (`format: date-time`), whatever year staff typed."""

    def to_representation(self, value):
        return rfc3339(value)
