"""The staff session list (GET /api/course-sessions?view=staff), page by page, from compiled queries.

Each row is the dict `feed.staff_session_data` plus `session_list_extras.with_list_extras` build for a session, made
here from `.values()` rows (the tests compare them): the list's count and its page run as one compiled query
(studio.compiled_queries), the time as a late value. Model instances and the ORM's compilation were most of the
list's CPU time.

Each row also carries its seats, its reservations and its waiting list as correlated subqueries, instead of a second
query over the page's ids: PostgreSQL evaluates them after the LIMIT (an expensive select list is computed for the
rows the page keeps only; later pages choose their ids first, CompiledList), so they cost ten index lookups each, and
the list is one round trip (0.3 ms less CPU a request, Django and PostgreSQL together).
"""

import re
from datetime import UTC

from django.db.models import BigIntegerField, CharField, F, Func, IntegerField, OuterRef, Q, Subquery, Value
from django.utils import timezone

from courses.models import SessionStatus
from studio.compiled_queries import CompiledList

from .. import selectors
from ..models import WAITLIST_LIVE_STATUSES, Reservation, WaitlistEntry
from ..services import active_reservations_q
from .session_filters import staff_sessions_filtered

COLUMNS = (
    "id",
    "course_id",
    "course__title",
    "course__level",
    "start",
    "end",
    "instructor_id",
    "instructor__name",
    "level",
    "details",
    "max_attendees",
    "price_per_participant",
    "status",
    "cancellation_reason",
    "series_id",
)
FILTERS = ("when", "course_id", "instructor", "search")
STATUS_LABELS = dict(SessionStatus.choices)


def staff_sessions_query(params, *, ordering: str, now, start=None, end=None):
    """The staff list's sessions (not yet paged): in [start, end) when a range is asked, filtered (session_filters),
    ordered by start then id (`ordering` "start" or "-start")."""
    qs = selectors.sessions_staff_page_list(ordering=ordering)  # its select_related: none in `.values()`
    if start is not None:
        qs = qs.filter(start__lt=end, end__gt=start)
    return staff_sessions_filtered(qs, params, now=now)


_WORD = re.compile(r"[a-z_]+")


class _Written(Value):
    """A status written into the SQL text instead of sent as a parameter. The first page's query is a statement
    PostgreSQL plans once (studio.statements); with the statuses as parameters that generic plan cannot use the
    partial indexes on live reservations and waiting-list entries and read the whole waiting list for each row (0.47
    ms of PostgreSQL's CPU a request against 0.18 with them written). Only a choice's value, a lowercase word, is
    written."""

    def __init__(self, value: str):
        if not _WORD.fullmatch(value):
            raise ValueError(f"not a status: {value!r}")
        super().__init__(str(value), output_field=CharField())

    def as_sql(self, compiler, connection):
        return f"'{self.value}'", ()


def _statuses_written(q: Q) -> Q:
    """`q` with the values of its `status` and `status__in` conditions `_Written`."""
    children = []
    for child in q.children:
        if isinstance(child, Q):
            child = _statuses_written(child)
        elif child[0] == "status":
            child = ("status", _Written(child[1]))
        elif child[0] == "status__in":
            child = ("status__in", [_Written(value) for value in child[1]])
        children.append(child)
    return Q(*children, _connector=q.connector, _negated=q.negated)


def _aggregate(qs, expression) -> Subquery:
    """`SELECT expression FROM qs`, an aggregate without GROUP BY: one row even when `qs` has none."""
    return Subquery(qs.order_by().values(value=expression), output_field=expression.output_field)


# Each live reservation takes a seat of one class: a session's count is far below 2**32, its seats below 2**31 (the
# product stays within PostgreSQL's and SQLite's 64-bit integers).
SEATS_SHIFT = 1 << 32


class _SeatsAndCount(Func):
    """Seats taken and reservations in one number, `SUM(participants) * SEATS_SHIFT + COUNT(*)` (NULL for no
    reservation; `_seats_and_count` splits it): one subquery reads a row's reservations once, where two read them
    twice (0.02-0.05 ms more of PostgreSQL's CPU a page)."""

    template = f"SUM(%(expressions)s) * {SEATS_SHIFT} + COUNT(*)"
    output_field = BigIntegerField()


def _seats_and_count(packed: int | None) -> tuple[int, int]:
    return divmod(packed, SEATS_SHIFT) if packed is not None else (0, 0)


def _with_seats_and_waiting(qs, *, now):
    """`qs` (`.values()` rows) with each session's seats taken and reservations (`page_seats`, `_SeatsAndCount`),
    live reservations as selectors.sessions_with_seats counts them, and its live waiting list (`page_waiting`) as
    selectors_waitlist.waitlist_counts does (the tests compare them)."""
    live = Reservation.objects.filter(_statuses_written(active_reservations_q(now)), session_id=OuterRef("pk"))
    waiting = WaitlistEntry.objects.filter(
        _statuses_written(Q(status__in=WAITLIST_LIVE_STATUSES)), session_id=OuterRef("pk")
    )
    return qs.annotate(
        page_seats=_aggregate(live, _SeatsAndCount(F("participants"))),
        page_waiting=_aggregate(waiting, Func(F("id"), function="COUNT", output_field=IntegerField())),
    )


def staff_page_list(params, *, ordering: str, now, start=None, end=None) -> CompiledList:
    """The list Django's paginator pages: `staff_sessions_query` as `.values()` rows with their seats and waiting
    lists. The time and the range are late values (the range defaults from the time), the filters part of the key."""
    filters = {name: params[name] for name in FILTERS if name in params}
    ranged = start is not None
    late = {"now": now, **({"start": start, "end": end} if ranged else {})}

    def build(**late):
        return staff_sessions_query(filters, ordering=ordering, **late)

    return CompiledList(
        ("bookings.staff_sessions", ordering, ranged, tuple(sorted(filters.items()))),
        lambda **late: _with_seats_and_waiting(build(**late).values(*COLUMNS), now=late["now"]),
        count_build=build,
        late=late,
    )


def _paris_text(local) -> str:
    """common.paris_text of a time already in Paris time."""
    return f"{local.year:04d}-{local:%m-%d %H:%M:%S}"


def _date_texts(value, tz) -> tuple[str, str]:
    """(`rfc3339(value, tz)`, `_paris_text` of it in Paris time), from one conversion: both texts share their digits
    (isoformat writes the year on 4 digits as `_paris_text` does)."""
    local = value.astimezone(tz)
    text = local.isoformat()
    offset = local.utcoffset()
    if offset is not None and offset.total_seconds() % 60:  # rfc3339's UTC fallback (Paris before 1911)
        return value.astimezone(UTC).isoformat(), _paris_text(local)
    return text, f"{text[:10]} {text[11:19]}"


def staff_rows(values: list[dict], *, now) -> list[dict]:
    """The page's rows as staff_session_data and with_list_extras write them (no query)."""
    tz = timezone.get_current_timezone()  # once for the page's 40 dates
    rows = []
    for row in values:
        date, start_paris = _date_texts(row["start"], tz)
        end_date, end_paris = _date_texts(row["end"], tz)
        taken, reservations = _seats_and_count(row["page_seats"])
        max_attendees = row["max_attendees"]
        seats_left = max(max_attendees - taken, 0)
        rows.append(
            {
                "id": row["id"],
                "course_id": row["course_id"],
                "course_title": row["course__title"],
                "title": row["course__title"],
                "date": date,
                "end_date": end_date,
                "instructor": row["instructor__name"] if row["instructor_id"] else "",
                "instructor_id": row["instructor_id"],
                "level": row["level"] or row["course__level"],
                "details": row["details"],
                "seats_left": seats_left,
                "max_attendees": max_attendees,
                "price_per_participant": f"{row['price_per_participant']:.2f}",
                "is_full": seats_left == 0,
                "is_past": row["start"] <= now,
                "status": row["status"],
                "status_label": STATUS_LABELS.get(row["status"], row["status"]),
                "cancellation_reason": row["cancellation_reason"],
                "seats_taken": max_attendees - seats_left,
                "reservations_count": reservations,
                "start_paris": start_paris,
                "end_paris": end_paris,
                "waitlist_count": row["page_waiting"],
                "series_id": row["series_id"],
            }
        )
    return rows
