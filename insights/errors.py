"""The French refusals of the stats API: one error class, its texts beside it (tests import them)."""

from studio.errors import ApplicationError

MSG_STATS_DATE = "Indiquez les dates de début et de fin au format AAAA-MM-JJ (paramètres « from » et « to »)."
MSG_STATS_ORDER = "La date de fin doit être le jour de début ou après."
MSG_STATS_TOO_LONG = "La période ne peut pas dépasser 400 jours."
MSG_STATS_YEARS = "Les dates doivent être comprises entre le 1er janvier 2000 et le 31 décembre 2100."


class InsightsError(ApplicationError):
    default_code = "stats_invalid"
    messages = {
        "stats_order": MSG_STATS_ORDER,
        "stats_too_long": MSG_STATS_TOO_LONG,
        "stats_years": MSG_STATS_YEARS,
    }
