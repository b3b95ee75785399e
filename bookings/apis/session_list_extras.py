"""The staff session list's extras, beside its query (session_query) and filters (session_filters):

- `?focus=<id>`: the answer is the page of the list (its filters and order kept) that holds that session, so that
  the dashboard shows a session just saved; the page asked is used when the session is not in the filtered list.
  Every staff page says which page it is (`page`).
- each row carries its waiting list's length (`waitlist_count`) and its weekly series (`series_id`), the
  whole page in one more query.
"""

from django.db.models import Q
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from ..selectors.waitlist import waitlist_counts
from .common import MAX_ID
from .pages import CheckedPagination

MSG_FOCUS_INVALID = "La session à montrer doit être un identifiant de session (nombre entier positif)."

FOCUS_PARAMETER = OpenApiParameter(
    "focus",
    {"type": "integer", "minimum": 1, "maximum": MAX_ID},
    description=(
        "Avec view=staff : une session ; la réponse est la page de la liste (filtres et tri compris) qui la contient "
        "(la page demandée sinon)."
    ),
)


def check_focus_parameter(params) -> None:
    raw = params.get("focus")
    if raw is not None and not (raw.isascii() and raw.isdigit() and 1 <= int(raw) <= MAX_ID):
        raise serializers.ValidationError({"focus": [MSG_FOCUS_INVALID]})


def focus_page(qs, params, *, page_size: int, descending: bool) -> int | None:
    """The page of `qs` (ordered by start then id, `descending` or not) holding the session `?focus=`: 2 queries;
    None without focus or when the filtered list does not hold it."""
    raw = params.get("focus")
    if not raw:
        return None
    pk = int(raw)
    start = qs.filter(pk=pk).values_list("start", flat=True).first()
    if start is None:
        return None
    if descending:
        before = qs.filter(Q(start__gt=start) | Q(start=start, pk__gt=pk))
    else:
        before = qs.filter(Q(start__lt=start) | Q(start=start, pk__lt=pk))
    return before.count() // page_size + 1


class StaffListPagination(CheckedPagination):
    """The checked pagination, on the focused session's page when there is one, saying which page it answers."""

    def __init__(self, forced_page: int | None = None):
        self.forced_page = forced_page

    def get_page_number(self, request, paginator):
        if self.forced_page is not None:
            return self.forced_page
        return super().get_page_number(request, paginator)

    def page_body(self, results) -> dict:
        return {**super().page_body(results), "page": self.page.number}


class ListExtrasOutput(serializers.Serializer):
    """What a row of the staff list adds to the staff session (mixed into its output serializer)."""

    waitlist_count = serializers.IntegerField(
        min_value=0, help_text="Membres en liste d'attente (en attente ou place proposée)."
    )
    series_id = serializers.IntegerField(allow_null=True, help_text="Sa série hebdomadaire, s'il y en a une.")


def with_list_extras(rows: list[dict], sessions) -> list[dict]:
    """Each row's waiting-list length and series (one query for the page)."""
    counts = waitlist_counts(session_ids=[s.pk for s in sessions])
    for row, session in zip(rows, sessions, strict=True):
        row["waitlist_count"] = counts.get(session.pk, 0)
        row["series_id"] = session.series_id
    return rows
