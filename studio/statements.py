"""SQL prepared once per PostgreSQL connection, then run with EXECUTE (issue 18).

PostgreSQL parses and plans every statement it receives; for the small reads of a logged-in page planning often
costs as much as running them (0.2-0.8 ms of its CPU for a query that runs in 0.1-0.5 ms). A `Statement` is one SQL
text (with Django's %s placeholders) that each database connection PREPAREs once, on psycopg's own connection (not
one of the request's queries), and then EXECUTEs with the request's values: PostgreSQL plans it once (a generic plan
after its first five runs). A prepared statement belongs to the database session: it outlives transactions (a
rollback keeps it) and goes with the connection, so it is prepared again on each new connection.

Behind a pooler in transaction mode (README, PgBouncer) a statement prepared through one server connection may be
missing from the next: the first such miss sends the plain SQL instead, and that connection keeps to the plain SQL.
Inside a transaction the plain SQL is sent (a miss there would abort it), and so it is unless Django binds the
parameters on the client (psycopg 3's ClientCursor, its default: EXECUTE's arguments are then written in its text).
A statement PostgreSQL refuses to prepare (a parameter whose type it cannot infer) is sent as plain SQL from then on.
The statement's name carries a hash of its SQL, so a session holding an older version's statement never runs it.
"""

import hashlib
import re
from collections.abc import Sequence

from django.db import DatabaseError

# A statement this connection prepared is not in the session it reaches: not found (26000), already there (42P05,
# another client prepared it on that server connection), or its plan no longer fits the tables (0A000, a migration).
_LOST = {"26000", "42P05", "0A000"}
_PREPARED_HERE = "_studio_prepared_statements"  # on psycopg's connection: the names prepared through it
_UNPREPARED_HERE = "_studio_statements_unprepared"  # on psycopg's connection: a statement was lost there once


def dollar_placeholders(sql: str) -> tuple[str, int]:
    """Django's %s placeholders as $1..$n (and %% as %), with n."""
    count = 0

    def replace(found):
        nonlocal count
        if found[0] == "%%":
            return "%"
        count += 1
        return f"${count}"

    return re.sub(r"%%|%s", replace, sql), count


class Statement:
    """`Statement(sql, types=None, prefix=...)`; `.rows(connection, cursor, params)` runs it prepared, or answers
    None when the caller is to send `sql` itself (not PostgreSQL, in a transaction, after a miss)."""

    def __init__(self, sql: str, types: Sequence[str] | None = None, prefix: str = "studio"):
        dollar, count = dollar_placeholders(sql)
        typed = f" ({', '.join(types)})" if types else ""
        self.name = f"{prefix}_{hashlib.sha256(f'{typed} {dollar}'.encode()).hexdigest()[:12]}"
        self.prepare_sql = f"PREPARE {self.name}{typed} AS {dollar}"
        self.execute_sql = f"EXECUTE {self.name}({', '.join(['%s'] * count)})" if count else f"EXECUTE {self.name}"
        self.refused = False

    def rows(self, connection, cursor, params) -> list | None:
        if self.refused or connection.vendor != "postgresql" or connection.in_atomic_block:
            return None
        raw = connection.connection
        client_cursor = getattr(connection.Database, "ClientCursor", None)
        if client_cursor is None or not isinstance(cursor.cursor, client_cursor):
            return None
        if getattr(raw, _UNPREPARED_HERE, False):
            return None
        prepared = getattr(raw, _PREPARED_HERE, None)
        if prepared is None:
            prepared = set()
            setattr(raw, _PREPARED_HERE, prepared)
        try:
            if self.name not in prepared:
                try:
                    with connection.wrap_database_errors:
                        raw.execute(self.prepare_sql)
                except DatabaseError as error:
                    if getattr(error.__cause__, "sqlstate", None) != "42P05":  # already prepared there: fine
                        self.refused = True  # e.g. a parameter whose type PostgreSQL cannot infer
                        return None
                prepared.add(self.name)
            cursor.execute(self.execute_sql, params)
            return cursor.fetchall()
        except DatabaseError as error:
            if getattr(error.__cause__, "sqlstate", None) not in _LOST:
                raise
            setattr(raw, _UNPREPARED_HERE, True)
            return None
