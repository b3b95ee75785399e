"""The sessions list's own query (GET /api/course-sessions): the range, the view, the staff page and order, as the
OpenAPI schema states them and as check_list_parameters refuses them in French (400), whichever view is asked.
The staff filters (when, course, instructor, search) are session_filters'."""

from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from .pages import MSG_PAGE_SIZE_INVALID, CheckedPagination

RANGE_HELP = (
    "AAAA-MM-JJ, ou date et heure RFC 3339 (sans décalage : heure de Paris). La fin après le début, 400 jours au plus "
    "entre les deux (sinon 400)."
)
RANGE_SCHEMA = {"anyOf": [{"type": "string", "format": "date"}, {"type": "string", "format": "date-time"}]}
VIEWS = ["staff"]
ORDERINGS = ["date", "-date"]
MAX_PAGE = 10**9
MSG_VIEW_INVALID = "La vue demandée n'existe pas (seule « staff » existe)."
MSG_ORDERING_INVALID = "Le tri doit être « date » ou « -date »."
MSG_PAGE_INVALID = "Le numéro de page doit être un nombre entier entre 1 et {max}."
LIST_PARAMETERS = [
    OpenApiParameter("start", RANGE_SCHEMA, description=RANGE_HELP),
    OpenApiParameter("end", RANGE_SCHEMA, description=RANGE_HELP),
    OpenApiParameter("view", str, enum=VIEWS, description="staff : la liste paginée des sessions (équipe)."),
    OpenApiParameter(
        "page",
        {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
        description="Avec view=staff (vérifié dans tous les cas) ; une page au-delà de la dernière répond 404.",
    ),
    OpenApiParameter(
        "page_size",
        {"type": "integer", "minimum": 1, "maximum": CheckedPagination.max_page_size},
        description="Avec view=staff (vérifié dans tous les cas).",
    ),
    OpenApiParameter("ordering", str, enum=ORDERINGS, description="Avec view=staff (vérifié dans tous les cas)."),
]


def check_list_parameters(params) -> None:
    """The list's query as the schema states it, refused in French (400) otherwise, whichever view is asked."""
    errors = {}
    if "view" in params and params["view"] not in VIEWS:
        errors["view"] = [MSG_VIEW_INVALID]
    if "ordering" in params and params["ordering"] not in ORDERINGS:
        errors["ordering"] = [MSG_ORDERING_INVALID]
    for name, top, message in (
        ("page", MAX_PAGE, MSG_PAGE_INVALID),
        ("page_size", CheckedPagination.max_page_size, MSG_PAGE_SIZE_INVALID),
    ):
        raw = params.get(name)
        if raw is not None and not (raw.isascii() and raw.isdigit() and 1 <= int(raw) <= top):
            errors[name] = [message.format(max=top)]
    if errors:
        raise serializers.ValidationError(errors)
