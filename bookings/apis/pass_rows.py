"""The staff's passes list, page by page, without a serializer per row.

PassOutput stays the documented answer (`extend_schema`); each row here is the dict `passes.pass_data` builds, from a
`.values()` row (the tests compare them), and the count and page run as compiled queries (studio.compiled_queries):
model instances, the serializer and the ORM's compilation were most of the list's CPU time."""

from types import SimpleNamespace

from django.utils import timezone

from studio.compiled_queries import CompiledList
from studio.fields import rfc3339

from .. import selectors
from ..models import PassKind, PassOrigin

COLUMNS = (
    "id",
    "kind",
    "origin",
    "title",
    "tariff_id",
    "credits_total",
    "credits_left",
    "starts_on",
    "expires_on",
    "member_id",
    "member__first_name",
    "member__last_name",
    "member__email",
    "created_at",
)
KIND_LABELS = dict(PassKind.choices)
ORIGIN_LABELS = dict(PassOrigin.choices)


def passes_page_list(*, search: str, ordering: str) -> CompiledList:
    """The list Django's paginator pages (selectors.passes_staff_list's passes, as `.values()` rows)."""

    def build():
        return selectors.passes_staff_list(search=search, ordering=ordering)

    return CompiledList(("bookings.passes", search, ordering), lambda: build().values(*COLUMNS), count_build=build)


def pass_rows(values: list[dict], *, today) -> list[dict]:
    """`pass_data`'s rows, from `passes_page_list`'s."""
    tz = timezone.get_current_timezone()
    rows = []
    for row in values:
        state = selectors.pass_state(SimpleNamespace(**row), today=today)
        rows.append(
            {
                "id": row["id"],
                "kind": row["kind"],
                "kind_label": str(KIND_LABELS.get(row["kind"], row["kind"])),
                "origin": row["origin"],
                "origin_label": str(ORIGIN_LABELS.get(row["origin"], row["origin"])),
                "title": row["title"],
                "tariff_id": row["tariff_id"],
                "credits_total": row["credits_total"],
                "credits_left": row["credits_left"],
                "starts_on": row["starts_on"].isoformat(),
                "expires_on": row["expires_on"].isoformat(),
                "state": state,
                "state_label": selectors.PASS_STATE_LABELS[state],
                "member_id": row["member_id"],
                "member_name": f"{row['member__first_name']} {row['member__last_name']}".strip(),
                "member_email": row["member__email"],
                "created_at": rfc3339(row["created_at"], tz),
            }
        )
    return rows
