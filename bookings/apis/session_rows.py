"""The staff session list (GET /api/course-sessions?view=staff), page by page, from compiled queries (issue 18).

Each row is the dict `feed.staff_session_data` plus `session_list_extras.with_list_extras` build for a session, made
here from `.values()` rows (the tests compare them): the list's count, its page, the page's seats and its waiting
lists run as compiled queries (studio.compiled_queries), the time and the page's ids as late values. Model instances
and the ORM's compilation were most of the list's CPU time.
"""

from datetime import UTC

from django.db.models import Count, IntegerField, Sum, Value
from django.utils import timezone

from courses.models import SessionStatus
from studio.compiled_queries import CompiledList
from studio.compiled_queries import rows as compiled_rows

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
_ZERO = Value(0, output_field=IntegerField())


def staff_sessions_query(params, *, ordering: str, now, start=None, end=None):
    """The staff list's sessions (not yet paged): in [start, end) when a range is asked, filtered (session_filters),
    ordered by start then id (`ordering` "start" or "-start")."""
    qs = selectors.sessions_staff_page_list(ordering=ordering)  # its select_related: none in `.values()`
    if start is not None:
        qs = qs.filter(start__lt=end, end__gt=start)
    return staff_sessions_filtered(qs, params, now=now)


def staff_page_list(params, *, ordering: str, now, start=None, end=None) -> CompiledList:
    """The list Django's paginator pages: `staff_sessions_query` as `.values()` rows. The time and the range are late
    values (the range defaults from the time), the filters part of the key."""
    filters = {name: params[name] for name in FILTERS if name in params}
    ranged = start is not None
    late = {"now": now, **({"start": start, "end": end} if ranged else {})}

    def build(**late):
        return staff_sessions_query(filters, ordering=ordering, **late)

    return CompiledList(
        ("bookings.staff_sessions", ordering, ranged, tuple(sorted(filters.items()))),
        lambda **late: build(**late).values(*COLUMNS),
        count_build=build,
        late=late,
    )


def _seats(*, now, ids):
    # selectors.sessions_with_seats' query (the tests compare the two).
    return (
        Reservation.objects.filter(active_reservations_q(now), session_id__in=ids)
        .values("session_id")
        .annotate(seats=Sum("participants"), count=Count("id"), waiting=_ZERO)
        .order_by()
    )


def _waitlists(*, ids):
    # selectors_waitlist.waitlist_counts' query (the tests compare the two).
    return (
        WaitlistEntry.objects.filter(session_id__in=ids, status__in=WAITLIST_LIVE_STATUSES)
        .values("session_id")
        .annotate(seats=_ZERO, count=_ZERO, waiting=Count("id"))
        .order_by()
    )


def _extras(*, now, ids):
    """The page's seats (one row per session with live reservations) and waiting lists (one row per session with a
    live entry) in one query: the two grouped queries above, UNION ALL."""
    return _seats(now=now, ids=ids).union(_waitlists(ids=ids), all=True).order_by()


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
    """The page's rows as staff_session_data and with_list_extras write them: one more query (seats and waiting
    lists), none for an empty page."""
    if not values:
        return []
    ids = [row["id"] for row in values]
    seats, waiting = {}, {}
    for row in compiled_rows(("bookings.page_extras",), _extras, now=now, ids=ids):
        if row["waiting"]:
            waiting[row["session_id"]] = row["waiting"]
        else:
            seats[row["session_id"]] = row
    tz = timezone.get_current_timezone()  # once for the page's 40 dates
    rows = []
    for row in values:
        date, start_paris = _date_texts(row["start"], tz)
        end_date, end_paris = _date_texts(row["end"], tz)
        taken = seats.get(row["id"])
        max_attendees = row["max_attendees"]
        seats_left = max(max_attendees - (taken["seats"] if taken else 0), 0)
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
                "reservations_count": taken["count"] if taken else 0,
                "start_paris": start_paris,
                "end_paris": end_paris,
                "waitlist_count": waiting.get(row["id"], 0),
                "series_id": row["series_id"],
            }
        )
    return rows
