"""The staff's users list, page by page, without a serializer per row (it was most of the list's CPU time).

StaffUserOutput stays the documented answer (`extend_schema`); each row here is the same dict it writes, built from
a `.values()` row (the tests compare them), and the count and page run as compiled queries
(studio.compiled_queries): the serializers and the ORM's compilation were most of the list's CPU time."""

from types import SimpleNamespace

from django.db.models import IntegerField, Value
from django.templatetags.static import static
from django.utils import timezone

from studio.compiled_queries import CompiledList
from studio.registry import provided
from studio.row_formats import drf_datetime

from .. import selectors, services

COLUMNS = (
    "id",
    "first_name",
    "last_name",
    "email",
    "phone",
    "address",
    "postal_code",
    "city",
    "country",
    "avatar",
    "role",
    "email_confirmed_at",
    "pending_email",
    "date_joined",
    "no_shows",
)


def users_page_list(*, search: str, ordering: str) -> CompiledList:
    """The list Django's paginator pages: the accounts matching `search`, in `ordering`, each with its no-shows."""
    words, order = selectors.user_search_words(search), selectors.user_ordering(ordering)

    def build():
        # The no-shows on each member's record (docs/decisions.md 38): an annotation bookings provides
        # (studio.registry), so the page stays one query; 0 when no app provides it.
        no_shows = provided("user_no_shows", default=Value(0, output_field=IntegerField()))
        return selectors.users_matching(words, order).annotate(no_shows=no_shows).values(*COLUMNS)

    return CompiledList(
        ("accounts.users", words, order), build, count_build=lambda: selectors.users_matching(words, order)
    )


def user_rows(values: list[dict], *, actor) -> list[dict]:
    """StaffUserOutput's rows, from `users_page_list`'s."""
    default_avatar = static(selectors.DEFAULT_AVATAR)
    tz = timezone.get_current_timezone()
    return [
        {
            "id": row["id"],
            "first_name": row["first_name"],
            "last_name": row["last_name"],
            "name": row["last_name"],
            "email": row["email"],
            "phone": row["phone"],
            "address": row["address"],
            "postal_code": row["postal_code"],
            "city": row["city"],
            "country": row["country"],
            "avatar": selectors.avatar_url_of(row["avatar"], default=default_avatar),
            "role": row["role"],
            "email_confirmed": row["email_confirmed_at"] is not None,
            "pending_email": row["pending_email"],
            "date_joined": drf_datetime(row["date_joined"], tz),
            "can_edit": services.user_can_edit(actor=actor, target=SimpleNamespace(pk=row["id"], role=row["role"])),
            "no_shows": int(row["no_shows"]),
        }
        for row in values
    ]
