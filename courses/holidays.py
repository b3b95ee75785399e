"""French public holidays (metropolitan France), computed: the 8 fixed days and the 3 that follow Easter."""

from datetime import date, timedelta
from functools import cache

FIXED = {
    (1, 1): "Jour de l'an",
    (5, 1): "Fête du Travail",
    (5, 8): "Victoire 1945",
    (7, 14): "Fête nationale",
    (8, 15): "Assomption",
    (11, 1): "Toussaint",
    (11, 11): "Armistice 1918",
    (12, 25): "Noël",
}


def easter_sunday(year: int) -> date:
    """The anonymous Gregorian algorithm (Meeus/Jones/Butcher)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    leap = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * leap) // 451
    month = (h + leap - 7 * m + 114) // 31
    day = (h + leap - 7 * m + 114) % 31 + 1
    return date(year, month, day)


@cache
def french_public_holidays(year: int) -> dict[date, str]:
    days = {date(year, month, day): name for (month, day), name in FIXED.items()}
    easter = easter_sunday(year)
    days[easter + timedelta(days=1)] = "Lundi de Pâques"
    days[easter + timedelta(days=39)] = "Ascension"
    days[easter + timedelta(days=50)] = "Lundi de Pentecôte"
    return days


def public_holiday_name(day: date) -> str | None:
    return french_public_holidays(day.year).get(day)
