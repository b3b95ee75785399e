"""The member's overlay on the calendar feed: their live reservations on the feed's sessions.

The feed is the hottest logged-in read (every calendar view, every week a member pages through). Its rows are the
public feed's cached bytes (bookings/apis/feed.py) plus this one narrow query. Built with the ORM, the query cost
more CPU to compile (lookups, joins, the two-branch "takes a seat" condition) than the rest of the request; it is
written once here as SQL, and `test_selectors_feed.py` checks it against the ORM's `active_reservations_q` on
every kind of reservation (`test_member_feed_overlay.py` against the previous version of this query too).

It reads the member's reservations on the sessions the cached feed holds (their ids are kept with it, already
written as text: `public_feed_for_members`), instead of joining the sessions to find those of the range: PostgreSQL
then reads the member's reservations by their index and keeps those whose session is in a hash of the ids, instead
of scanning every session (measured on the bench's member, 208 reservations on 2,130 sessions, as the prepared
statement runs: ~50 µs of execution for a month, 110 µs joining the sessions on the range).

The ids travel as one parameter: on PostgreSQL a bigint array, unnested (`'{1,2,3}'::bigint[]`: parsed faster than
a JSON array, 76 -> 50 µs of execution a month; `= ANY($2)` is slower still once the statement's plan is
generic: its array is searched row by row), on SQLite a JSON array (json_each). The statuses are written in the SQL
text, not sent as parameters. On PostgreSQL the query is prepared once per connection (studio.statements): planning
it with a month's ~300 ids cost ~0.7 ms of PostgreSQL's CPU per request, more than running it.
"""

from collections.abc import Iterable
from datetime import datetime

from django.db import DEFAULT_DB_ALIAS, connection, connections

from studio.statements import Statement

from .models import Reservation, ReservationStatus

_SQL: dict[str, str] = {}
_STATEMENTS: dict[str, Statement] = {}

# The feed's session ids, given as "1,2,3" (the text `public_feed_for_members` keeps), read as a set of bigints.
_IDS_FROM_TEXT = {
    "postgresql": ("SELECT unnest(%s::bigint[])", "{{{}}}"),
    "sqlite": ("SELECT value FROM json_each(%s)", "[{}]"),
}


def _literal(status: ReservationStatus) -> str:
    value = str(status)
    assert value.isidentifier(), value  # written into the SQL text: a plain word only
    return f"'{value}'"


def _sql() -> str:
    vendor = connection.vendor
    if vendor not in _SQL:
        qn = connection.ops.quote_name
        meta = Reservation._meta

        def column(name):
            return "r." + qn(meta.get_field(name).column)

        status = column("status")
        _SQL[vendor] = (
            f"SELECT {column('session')}, r.{qn(meta.pk.column)}, {status}, {column('participants')}"
            f" FROM {qn(meta.db_table)} r"
            f" WHERE {column('user')} = %s AND {column('session')} IN ({_IDS_FROM_TEXT[vendor][0]})"
            f" AND ({status} = {_literal(ReservationStatus.CONFIRMED)}"
            f" OR ({status} = {_literal(ReservationStatus.HELD)} AND {column('hold_expires_at')} > %s))"
        )
    return _SQL[vendor]


def member_reservation_rows(*, user_id: int, session_ids_text: str, now: datetime) -> list[tuple[int, int, str, int]]:
    """(session id, reservation id, status, participants) of the member's reservations that take seats (confirmed,
    or held and not expired) on the sessions whose ids `session_ids_text` lists ("1,2,3", "" for none): one query,
    written once per process (also for no session: a page runs the same queries whatever the range holds)."""
    db = connections[DEFAULT_DB_ALIAS]  # the connection itself: each use of the `connection` proxy looks it up again
    vendor = db.vendor
    params = [user_id, _IDS_FROM_TEXT[vendor][1].format(session_ids_text), db.ops.adapt_datetimefield_value(now)]
    sql = _SQL.get(vendor) or _sql()
    with db.cursor() as cursor:
        rows = None
        if vendor == "postgresql":
            statement = _STATEMENTS.get(sql) or _STATEMENTS.setdefault(sql, Statement(sql, prefix="studio_feed"))
            rows = statement.rows(db, cursor, params)
        if rows is None:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
    return rows


def session_ids_text(session_ids: Iterable[int]) -> str:
    """The ids as `member_reservation_rows` takes them: "1,2,3"."""
    return ",".join(str(int(i)) for i in session_ids)


def member_reservations_on_sessions(*, user, session_ids: Iterable[int], now: datetime) -> dict[int, dict]:
    """{session id: {id, status, participants}} of the member's reservations that take seats on these sessions."""
    rows = member_reservation_rows(user_id=user.pk, session_ids_text=session_ids_text(session_ids), now=now)
    return {sid: {"id": pk, "status": status, "participants": n} for sid, pk, status, n in rows}
