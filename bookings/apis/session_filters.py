"""The staff session list's filters: which sessions (`when`: upcoming, past, cancelled, full), a course,
an instructor, a search over course title and instructor. Checked as the schema states them (400 in French)."""

from django.db.models import F, Q
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from courses.models import CourseSession, SessionStatus

from ..selectors.sessions import with_seats_taken
from .common import MAX_ID

WHENS = ["upcoming", "past", "cancelled", "full"]
MAX_SEARCH = 150
MSG_WHEN_INVALID = (
    "Le filtre doit être « upcoming » (à venir), « past » (passées), « cancelled » (annulées) ou « full » (complètes)."
)
MSG_COURSE_FILTER_INVALID = "Le cours choisi n'est pas un identifiant valide."
MSG_SEARCH_INVALID = f"La recherche fait {MAX_SEARCH} caractères au plus, sans caractère nul."

FILTER_PARAMETERS = [
    OpenApiParameter(
        "when",
        str,
        enum=WHENS,
        description="Avec view=staff : à venir, passées, annulées ou complètes (vérifié dans tous les cas).",
    ),
    OpenApiParameter("course_id", {"type": "integer", "minimum": 1, "maximum": MAX_ID}, description="Avec view=staff."),
    OpenApiParameter(
        "instructor",
        {"type": "string", "maxLength": MAX_SEARCH, "pattern": r"^[^\x00]*$"},
        description="Avec view=staff : professeur (contient).",
    ),
    OpenApiParameter(
        "search",
        {"type": "string", "maxLength": MAX_SEARCH, "pattern": r"^[^\x00]*$"},
        description="Avec view=staff : cours ou professeur (contient).",
    ),
]


def check_filter_parameters(params) -> None:
    errors = {}
    if "when" in params and params["when"] not in WHENS:
        errors["when"] = [MSG_WHEN_INVALID]
    raw = params.get("course_id")
    if raw is not None and not (raw.isascii() and raw.isdigit() and 1 <= int(raw) <= MAX_ID):
        errors["course_id"] = [MSG_COURSE_FILTER_INVALID]
    for name in ("instructor", "search"):
        text = params.get(name)
        if text is not None and (len(text) > MAX_SEARCH or "\x00" in text):
            errors[name] = [MSG_SEARCH_INVALID]
    if errors:
        raise serializers.ValidationError(errors)


def staff_sessions_filtered(qs, params, *, now):
    when = params.get("when")
    if when == "upcoming":
        qs = qs.filter(end__gt=now).exclude(status=SessionStatus.CANCELLED)
    elif when == "past":
        qs = qs.filter(end__lte=now)
    elif when == "cancelled":
        qs = qs.filter(status=SessionStatus.CANCELLED)
    elif when == "full":
        # The full sessions as a subquery, so that the list stays a plain query to count and to page.
        upcoming = CourseSession.objects.filter(end__gt=now).exclude(status=SessionStatus.CANCELLED)
        full = with_seats_taken(upcoming, now).filter(seats_taken__gte=F("max_attendees"))
        qs = qs.filter(pk__in=full.values("pk"))
    if params.get("course_id"):
        qs = qs.filter(course_id=int(params["course_id"]))
    if params.get("instructor", "").strip():
        qs = qs.filter(instructor__name__icontains=params["instructor"].strip())
    if params.get("search", "").strip():
        text = params["search"].strip()
        qs = qs.filter(Q(course__title__icontains=text) | Q(instructor__name__icontains=text))
    return qs
