"""The member's history of followed courses, paginated: their reserved
sessions (confirmed, or held and not lapsed), upcoming ones first (soonest first), then past ones (most recent
first), each with the member's feedback on its course, how it was paid and until when it can be cancelled.

One query a page, written once here as SQL: the count (a window over the member's reservations), the
page's rows with their session, course, instructor and pass, and the member's feedback on each row's course. Only
the member's own reservations are read to order them (on PostgreSQL each carries a copy of its session's start, kept
by triggers: bookings migration 0014; on SQLite the start is looked up by the session's primary key), and the other
tables are joined to the page's rows only; the ORM's query joined every reservation to every table and PostgreSQL
hashed all sessions and all passes to keep 20 rows.

On PostgreSQL the query is a prepared statement (PREPARE once per database connection, then EXECUTE): PostgreSQL
then plans it once (a generic plan, after its first five runs) instead of at every request, which cost as much as
running it. A prepared statement belongs to the database session: it outlives transactions (a rollback keeps it)
and goes with the connection, so it is prepared again on each new connection (tracked on psycopg's connection
object). Behind a pooler in transaction mode (README, PgBouncer) a statement prepared through one server connection
may be missing from the next: the first such miss sends the plain SQL instead, and that connection keeps to it.
Inside a transaction the plain SQL is sent (a miss there would abort it). Measured on the bench's member (208
reservations, 2,130 sessions): PostgreSQL's CPU for the page ~1.7 ms (three queries, each planned) -> ~0.5 ms.

The rows are answered as plain dicts, the keys of FollowedCourseOutput (the tests compare every field), or for the
API already written as JSON (`FollowedCourses(written=True)`, `WrittenRow`): each row's JSON is kept, keyed by
every value of the row the query read, the time zone, its cancellation deadline and where now stands against its
start and deadline; the same row is then not built or encoded again. Nothing needs forgetting: a change
to anything the row shows changes its key (the query reads it on every request)."""

import functools
import re
from datetime import datetime
from decimal import Decimal
from types import SimpleNamespace

from django.db import connection
from django.db.models import Count
from django.utils import timezone
from rest_framework.renderers import JSONRenderer

from studio.fields import rfc3339
from studio.pagination import offset_fits
from studio.prepared import PreparedQuery
from studio.statements import Statement

from .models import CourseFeedback, Pass, Reservation, ReservationStatus
from .services import active_reservations_q, cancellation_deadline

PREPARED_NAME = "studio_member_history_page"  # then a hash of its SQL


class FollowedCourses:
    """A member's history as Django's Paginator reads it: `count()`, then one slice, a list of row dicts (the keys
    of FollowedCourseOutput). `expect_page(page_size, page)` (the pagination does it) lets the count come with the
    rows of that page: one query. A page past the last (a 404) is counted by a second query."""

    def __init__(self, *, member_id: int, now: datetime, written: bool = False):
        self.member_id, self.now = member_id, now
        self.written = written  # rows answered as WrittenRow (their JSON) instead of dicts
        self._expected: tuple[int, int] | None = None  # (offset, limit) of the page the paginator will slice
        self._read: tuple[int, int, list] | None = None  # (offset, limit, rows) last read
        self._count: int | None = None

    def expect_page(self, page_size: int, page) -> None:
        """The page the paginator is about to slice, as the query string gave it (any page number Django's
        Paginator takes: a whole number, possibly as text; anything else is left to the paginator)."""
        try:
            number = int(page)
        except (TypeError, ValueError):
            return
        if number >= 1 and page_size >= 1 and offset_fits((number - 1) * page_size, page_size):
            self._expected = ((number - 1) * page_size, page_size)

    def count(self) -> int:
        if self._count is None and self._expected is not None:
            offset, limit = self._expected
            rows = self._rows(offset, limit)
            if rows:
                self._count = rows[0][0]
            elif offset == 0:
                self._count = 0
        if self._count is None:  # no page expected, or one past the last: count alone
            found = _FOLLOWED_COUNT.rows(member_id=self.member_id, now=self.now)
            self._count = found[0][0] if found else 0
        return self._count

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, page: slice) -> list:
        start, stop = page.start or 0, page.stop
        if stop <= start:  # an empty history's only page: nothing to read (as an empty queryset slice)
            return []
        read = self._read
        if read is not None and read[0] == start and read[1] >= stop - start:
            rows = read[2][: stop - start]
        else:
            rows = self._rows(start, stop - start)
        if not rows:
            return []
        tz = timezone.get_current_timezone()
        now = self.now
        if self.written:
            return [_written_row(row, now, tz) for row in rows]
        return [_followed_row(row, now, tz) for row in rows]

    def _rows(self, offset: int, limit: int) -> list:
        rows = _page_rows(self.member_id, self.now, limit, offset)
        self._read = (offset, limit, rows)
        if rows:
            self._count = rows[0][0]
        return rows


# The count alone, for a page past the last (its query reads no row, hence no count).
_FOLLOWED_COUNT = PreparedQuery(
    lambda member_id, now: (
        Reservation.objects.filter(active_reservations_q(now), user_id=member_id)
        .order_by()
        .values("user_id")
        .annotate(n=Count("id"))
        .values_list("n")
    ),
    member_id="int",
    now="datetime",
)


_PARAMETERS = ("member", "now", "limit", "offset")
_MARKER = re.compile(r":(member|now|limit|offset):")  # a parameter in the SQL written below
_POSTGRESQL_TYPES = {"member": "bigint", "now": "timestamptz", "limit": "bigint", "offset": "bigint"}
_SQL: dict[str, tuple[str, tuple[str, ...]]] = {}  # vendor -> (plain SQL, its parameters in order)


def _page_sql(vendor: str) -> str:
    """The page's SQL, its parameters written as `:member:`, `:now:`, `:limit:`, `:offset:`."""
    from courses.models import Course, CourseSession, Instructor

    qn = connection.ops.quote_name

    def table(model) -> str:
        return qn(model._meta.db_table)

    def col(alias: str, model, field: str) -> str:
        return f"{alias}.{qn(model._meta.get_field(field).column)}"

    def literal(value: str) -> str:
        assert value.isascii() and value.isalnum(), value  # a code constant, written in the SQL
        return f"'{value}'"

    r, s, c, i, p, f = Reservation, CourseSession, Course, Instructor, Pass, CourseFeedback
    member, now, limit, offset = (f":{name}:" for name in _PARAMETERS)
    # A fence: the session start is read once per reservation (PostgreSQL would otherwise copy the subquery into
    # each sort key). SQLite has no OFFSET without LIMIT.
    fence = "OFFSET 0" if vendor == "postgresql" else "LIMIT -1 OFFSET 0"
    start = qn("start")

    def order(alias: str) -> str:
        # Upcoming ones first, soonest first (past ones have no first key: last), then past ones, latest first.
        return (
            f"CASE WHEN {alias}.{start} > {now} THEN {alias}.{start} END NULLS LAST,"
            f" {alias}.{start} DESC, {alias}.{qn('id')}"
        )

    if vendor == "postgresql":
        # The copy of the session's start each reservation carries on PostgreSQL, kept by triggers (bookings 0014).
        session_start = f"r.{qn('session_start')}"
    else:
        session_start = (
            f"(SELECT {col('s0', s, 'start')} FROM {table(s)} s0 WHERE {col('s0', s, 'id')} = {col('r', r, 'session')})"
        )
    reservation_columns = ", ".join(
        f"{col('r', r, name)} AS {qn(name)}"
        for name in (
            "id",
            "participants",
            "status",
            "credits_spent",
            "session",
            "paid_with_pass",
            "unit_price",
            "hold_expires_at",
        )
    )
    # The page's details, each of its rows joined to its session, course, instructor, pass and the member's
    # feedback on the course (one row at most: one feedback per member and course).
    session_of_row = f"{col('s', s, 'id')} = q.{qn('session')}"
    joins = (
        f"INNER JOIN {table(c)} c ON {col('c', c, 'id')} = {col('s', s, 'course')}"
        f" LEFT OUTER JOIN {table(i)} i ON {col('i', i, 'id')} = {col('s', s, 'instructor')}"
        f" LEFT OUTER JOIN {table(p)} p ON {col('p', p, 'id')} = q.{qn('paid_with_pass')}"
        f" LEFT OUTER JOIN {table(f)} f ON {col('f', f, 'user')} = {member}"
        f" AND {col('f', f, 'course')} = {col('s', s, 'course')}"
    )
    detail_columns = {
        "end": col("s", s, "end"),
        "session_level": col("s", s, "level"),
        "course": col("s", s, "course"),
        "title": col("c", c, "title"),
        "description": col("c", c, "description"),
        "course_level": col("c", c, "level"),
        "instructor": col("i", i, "name"),
        "pass_title": col("p", p, "title"),
        "pass_kind": col("p", p, "kind"),
        "rating": col("f", f, "rating"),
        "comment": col("f", f, "comment"),
    }
    if vendor == "postgresql":
        # Joined per page row (LATERAL, fenced): PostgreSQL then plans two small queries instead of searching the
        # join order of six relations (~0.3 ms less planning when the statement is not prepared).
        selected = ", ".join(f"{expression} AS {qn(name)}" for name, expression in detail_columns.items())
        source = f"CROSS JOIN LATERAL (SELECT {selected} FROM {table(s)} s {joins} WHERE {session_of_row} OFFSET 0) d"
        detail = {name: f"d.{qn(name)}" for name in detail_columns}
    else:  # SQLite has no LATERAL
        source = f"INNER JOIN {table(s)} s ON {session_of_row} {joins}"
        detail = detail_columns
    return (
        f"SELECT q.n, q.{qn('id')}, q.{qn('participants')}, q.{qn('status')}, q.{qn('credits_spent')},"
        f" q.{qn('session')}, q.{start}, {detail['end']}, {detail['session_level']}, {detail['course']},"
        f" {detail['title']}, {detail['description']}, {detail['course_level']}, {detail['instructor']},"
        f" q.{qn('paid_with_pass')}, {detail['pass_title']}, {detail['pass_kind']}, {detail['rating']},"
        f" {detail['comment']}, q.{qn('unit_price')}, q.{qn('hold_expires_at')}"
        f" FROM (SELECT m.*, COUNT(*) OVER () AS n FROM ("
        f"SELECT {reservation_columns},"
        f" {session_start} AS {start}"
        f" FROM {table(r)} r WHERE {col('r', r, 'user')} = {member}"
        f" AND ({col('r', r, 'status')} = {literal(ReservationStatus.CONFIRMED.value)}"
        f" OR ({col('r', r, 'status')} = {literal(ReservationStatus.HELD.value)}"
        f" AND {col('r', r, 'hold_expires_at')} > {now}))"
        f" {fence}) m ORDER BY {order('m')} LIMIT {limit} OFFSET {offset}) q"
        f" {source}"
        f" ORDER BY {order('q')}"
    )


def _plain() -> tuple[str, tuple[str, ...]]:
    """The page's SQL with a placeholder where each parameter is written, and the parameters in that order."""
    return _plain_sql(connection.vendor)


def _plain_sql(vendor: str) -> tuple[str, tuple[str, ...]]:
    if vendor not in _SQL:
        sql = _page_sql(vendor)
        _SQL[vendor] = (_MARKER.sub("%s", sql), tuple(_MARKER.findall(sql)))
    return _SQL[vendor]


@functools.cache
def _statement() -> Statement:
    """The page as a statement prepared on PostgreSQL (studio.statements), typed; its name carries a hash of its SQL."""
    sql, order = _plain_sql("postgresql")
    return Statement(sql, types=[_POSTGRESQL_TYPES[name] for name in order], prefix=PREPARED_NAME)


def _prepared() -> tuple[str, str]:
    """(PREPARE, EXECUTE) texts of the page on PostgreSQL (tests)."""
    return _statement().prepare_sql, _statement().execute_sql


def prepared_statement_name() -> str:
    """The name of the page's prepared statement (tests)."""
    return _statement().name


def _page_rows(member_id: int, now: datetime, limit: int, offset: int) -> list:
    """The rows of one page: (count, reservation id, participants, status, credits spent, session id, start, end,
    session level, course id, title, description, course level, instructor, pass id, pass title, pass kind,
    rating, comment, unit price, hold expiry)."""
    postgresql = connection.vendor == "postgresql"
    values = {
        "member": int(member_id),
        "now": now if postgresql else connection.ops.adapt_datetimefield_value(now),
        "limit": int(limit),
        "offset": int(offset),
    }
    sql, order = _plain()
    params = [values[name] for name in order]
    with connection.cursor() as cursor:
        rows = _statement().rows(connection, cursor, params) if postgresql else None
        if rows is None:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
    convert = getattr(connection.ops, "convert_datetimefield_value", None)
    if convert is not None and rows:  # SQLite answers dates as text
        rows = [list(row) for row in rows]
        for row in rows:
            row[6] = convert(row[6], None, connection)
            row[7] = convert(row[7], None, connection)
            if row[20] is not None:
                row[20] = convert(row[20], None, connection)
    return rows


_RESERVATION_STATUS_LABELS = dict(ReservationStatus.choices)
_CONFIRMED = ReservationStatus.CONFIRMED.value
_HELD = ReservationStatus.HELD.value
CENT = Decimal("0.01")


@functools.lru_cache(maxsize=8192)
def _local_iso(value: datetime, tz) -> str:
    """`rfc3339(value, tz)` of a datetime, sparing its checks for other values in the common case: the offset in
    whole minutes, as every offset of Paris since 1911 is.

    Cached: a row formats three instants (start, end, cancellation deadline), 1.2 µs each, and the same
    sessions' instants come back in every member's history, page after page; a hit costs 0.06 µs. The text depends
    on the instant and the time zone only (an aware datetime hashes and compares by its instant), so a cached one
    is always right; at most 8,192 are kept (~2 MB), the least recently used dropped."""
    local = value.astimezone(tz)
    if local.utcoffset().seconds % 60:
        return rfc3339(value, tz)
    return local.isoformat()


def _followed_row(row, now: datetime, tz) -> dict:
    """A row of the API from a row of the page's SQL."""
    (_n, pk, participants, status, credits_spent, session_id, start, end, session_level, course_id, title,
     description, course_level, instructor, pass_id, pass_title, pass_kind, rating, comment, unit_price,
     hold_expires_at) = row  # fmt: skip
    deadline = cancellation_deadline(SimpleNamespace(start=start))  # the rule reads the session's start
    is_past = start <= now
    confirmed = status == _CONFIRMED
    # A live hold (the page keeps no lapsed one) is paid or released from the history until the class starts.
    held = status == _HELD and not is_past
    return {
        "id": course_id,
        "course_id": course_id,
        "session_id": session_id,
        "reservation_id": pk,
        "title": title,
        "description": description,
        "level": session_level or course_level,
        "date": _local_iso(start, tz),
        "end_date": _local_iso(end, tz),
        "instructor": instructor or "",
        "participants": participants,
        "status": status,
        "status_label": _RESERVATION_STATUS_LABELS.get(status, status),
        "is_past": is_past,
        "can_give_feedback": is_past and confirmed,
        "rating": rating,
        "comment": comment if rating is not None else "",  # no feedback: no row joined
        "paid_with_pass": {"id": pass_id, "title": pass_title, "kind": pass_kind} if pass_id is not None else None,
        "credits_spent": credits_spent,
        "cancel_deadline": _local_iso(deadline, tz),
        "can_cancel": (confirmed and now <= deadline) or held,
        "total_amount": f"{(Decimal(str(unit_price)) * participants).quantize(CENT)}",
        "hold_expires_at": _local_iso(hold_expires_at, tz) if status == _HELD and hold_expires_at else None,
        "can_pay": held,
    }


class WrittenRow(bytes):
    """A row of the API as Django REST framework's JSONRenderer writes its dict (compact, UTF-8, U+2028 and U+2029
    escaped): a page's JSON is its rows' bytes joined by commas (bookings.apis.feedback)."""

    __slots__ = ()


_ROW_RENDERER = JSONRenderer()
_WRITTEN_MAX = 2048  # rows
_WRITTEN_BUDGET = 4 * 1024 * 1024  # bytes of JSON (the keys hold about as much again: the same texts)
_WRITTEN: dict[tuple, WrittenRow] = {}
_written_size = 0


def _written_row(row, now: datetime, tz) -> WrittenRow:
    """`_followed_row(row, now, tz)` as JSON, kept: building a row and encoding it cost ~4.5 µs, finding
    it again ~1.6 µs. The key holds everything the row's JSON is made of: every column the query read but the
    history's count (whose values change with the data: a change shows at once, nothing needs to be forgotten),
    the time zone, the cancellation deadline (as the rule gives it now) and the two tests against now (started,
    still cancellable). At most _WRITTEN_MAX rows and _WRITTEN_BUDGET bytes of JSON are kept (descriptions and
    comments are free text); when either is reached, all are dropped."""
    global _written_size
    start = row[6]
    deadline = cancellation_deadline(SimpleNamespace(start=start))
    key = (row[1:] if type(row) is tuple else tuple(row[1:]), tz, deadline, start <= now, now <= deadline)
    written = _WRITTEN.get(key)
    if written is None:
        written = WrittenRow(_ROW_RENDERER.render(_followed_row(row, now, tz)))
        if len(_WRITTEN) >= _WRITTEN_MAX or _written_size + len(written) > _WRITTEN_BUDGET:
            _WRITTEN.clear()
            _written_size = 0
        _WRITTEN[key] = written
        _written_size += len(written)
    return written
