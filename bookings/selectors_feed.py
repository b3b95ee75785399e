"""The member's overlay on the calendar feed: their live reservations on the feed's sessions (issue 18).

The feed is the hottest logged-in read (every calendar view, every week a member pages through). Its rows are the
public feed's cached bytes (bookings/apis/feed.py) plus this one narrow query. Built with the ORM, the query cost
more CPU to compile (lookups, joins, the two-branch "takes a seat" condition) than the rest of the request; it is
written once here as SQL, and `test_selectors_feed.py` checks it against the ORM's `active_reservations_q` on
every kind of reservation.

It reads the member's reservations on the sessions the cached feed holds (their ids come with it), instead of
joining the sessions to find those of the range: PostgreSQL then reads two indexes instead of scanning every
session (0.47 -> 0.18 ms of execution for the bench's member, who has 210 reservations, on 2,130 sessions). Only
those sessions' reservations could be spliced into the feed anyway. The ids travel as one JSON array, the same SQL
text on SQLite (json_each) and PostgreSQL (jsonb_array_elements_text). On PostgreSQL the query is prepared once per
connection (studio.statements): planning it with a month's ~300 ids cost ~0.7 ms of PostgreSQL's CPU per request,
more than running it.
"""

import json
from collections.abc import Iterable
from datetime import datetime

from django.db import connection

from studio.statements import Statement

from .models import Reservation, ReservationStatus

_SQL: dict[str, str] = {}
_STATEMENTS: dict[str, Statement] = {}

_IDS_FROM_JSON = {
    "postgresql": "SELECT (jsonb_array_elements_text(%s::jsonb))::bigint",
    "sqlite": "SELECT value FROM json_each(%s)",
}


def _sql() -> str:
    vendor = connection.vendor
    if vendor not in _SQL:
        qn = connection.ops.quote_name
        meta = Reservation._meta

        def column(name):
            return "r." + qn(meta.get_field(name).column)

        _SQL[vendor] = (
            f"SELECT {column('session')}, r.{qn(meta.pk.column)}, {column('status')}, {column('participants')}"
            f" FROM {qn(meta.db_table)} r"
            f" WHERE {column('user')} = %s AND {column('session')} IN ({_IDS_FROM_JSON[vendor]})"
            f" AND ({column('status')} = %s OR ({column('status')} = %s AND {column('hold_expires_at')} > %s))"
        )
    return _SQL[vendor]


def member_reservations_on_sessions(*, user, session_ids: Iterable[int], now: datetime) -> dict[int, dict]:
    """{session id: {id, status, participants}} of the member's reservations that take seats (confirmed, or held
    and not expired) on these sessions: one query, written once per process (also for no session: a page runs the
    same queries whatever the range holds)."""
    ids = [int(i) for i in session_ids]
    params = [
        user.pk,
        json.dumps(ids),
        str(ReservationStatus.CONFIRMED),
        str(ReservationStatus.HELD),
        connection.ops.adapt_datetimefield_value(now),
    ]
    sql = _sql()
    with connection.cursor() as cursor:
        rows = None
        if connection.vendor == "postgresql":
            statement = _STATEMENTS.get(sql) or _STATEMENTS.setdefault(sql, Statement(sql, prefix="studio_feed"))
            rows = statement.rows(connection, cursor, params)
        if rows is None:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
    return {sid: {"id": pk, "status": status, "participants": n} for sid, pk, status, n in rows}
