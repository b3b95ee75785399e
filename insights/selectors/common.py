"""Helpers shared by the four blocks' selectors: a period as a filter, and a figure for now and before."""

from datetime import date
from decimal import Decimal

from django.db.models import DateField, Q
from django.db.models.functions import TruncMonth, TruncWeek

from ..period import PARIS, Period

ZERO = Decimal("0.00")
CENT = Decimal("0.01")


def during(field: str, period: Period) -> Q:
    """`field` (a date-time) falls within the period's Paris days."""
    return Q(**{f"{field}__gte": period.start, f"{field}__lt": period.end})


def on_days(field: str, period: Period) -> Q:
    """`field` (a date) is one of the period's days."""
    return Q(**{f"{field}__gte": period.first_day, f"{field}__lte": period.last_day})


def spanning(period: Period) -> Period:
    """The previous period and this one together: one query reads both."""
    return Period(first_day=period.previous().first_day, last_day=period.last_day)


def bucket_of(field: str, bucket: str):
    """The Monday of the week, or the first of the month, of `field` in Paris (a date)."""
    trunc = TruncWeek if bucket == "week" else TruncMonth
    return trunc(field, tzinfo=PARIS, output_field=DateField())


def as_day(value) -> date:
    return value.date() if hasattr(value, "date") and callable(value.date) else value


def money(value) -> Decimal:
    return (value or ZERO).quantize(CENT)


def pair(values: dict, key: str, cast=int) -> dict:
    """{current, previous} from an aggregate's `<key>_now` and `<key>_before`."""
    return {"current": cast(values[f"{key}_now"] or 0), "previous": cast(values[f"{key}_before"] or 0)}


def rate(part, whole) -> float | None:
    """part / whole rounded to 4 places, or None when there is nothing to divide."""
    return round(part / whole, 4) if whole else None
