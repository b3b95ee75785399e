"""The formats DRF's fields write, for answers built as plain dicts (the staff lists skip the serializers on
their read-only rows, which costs less; `extend_schema` still documents the serializer)."""

from django.utils import timezone


def drf_datetime(value, tz=None) -> str | None:
    """As DRF's DateTimeField writes it (ISO 8601, in the current time zone, `Z` for UTC): None for no date. `tz`:
    the current time zone, when the caller formats many values (looking it up costs more than converting)."""
    if not value:
        return None
    if isinstance(value, str):
        return value
    tz = tz or timezone.get_current_timezone()
    if not timezone.is_aware(value):
        value = timezone.make_aware(value, tz)
    text = value.astimezone(tz).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def drf_decimal(value, places: int = 2) -> str:
    """As DRF's DecimalField writes a database decimal of `places` decimals (a text, always `places` decimals)."""
    return f"{value:.{places}f}"
