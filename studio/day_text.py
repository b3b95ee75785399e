"""Dates written as the templates' `|date:"d/m/Y"` writes them, and amounts as `|floatformat:"2"` does, for the
French text built in Python (messages, e-mails, PDFs, exports), so that it reads exactly like the pages."""

from datetime import datetime

from django.utils import formats, timezone


def day_text(value, tz=None) -> str:
    """dd/mm/yyyy; an aware datetime is read in the current time zone (`tz` when given) as templates read it."""
    if value is None:
        return ""
    if isinstance(value, datetime) and timezone.is_aware(value):
        value = value.astimezone(tz or timezone.get_current_timezone())
    return f"{value.day:02d}/{value.month:02d}/{value.year:04d}"


def amount_text(value, separator: str | None = None) -> str:
    """A Decimal with two places, with the locale's decimal separator and no grouping (`floatformat:"2"`)."""
    return f"{value:.2f}".replace(".", separator or formats.get_format("DECIMAL_SEPARATOR"))
