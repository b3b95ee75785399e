"""Django's PostgreSQL backend, with a health check that costs no round trip when the connection is idle and quiet.

Persistent connections are checked before their first use in each request (`CONN_HEALTH_CHECKS`, issue 18): Django
sends `SELECT 1` and waits for the answer, once per request that touches the database: a round trip and ~0.1 ms of
CPU on each, four times per booking of the rush. A connection the server ended (restart, idle timeout,
`pg_terminate_backend`) has something to read on its socket: the server's farewell message, then the end of the
stream. So when the connection is idle (no transaction open) and its socket has nothing to read, it is reused at
once; anything else (data waiting, a transaction open, a connection psycopg already knows is closed) falls back to
Django's `SELECT 1`. After an error Django's own check (`errors_occurred`) still runs its `SELECT 1` as before.
"""

import select

from django.db.backends.postgresql.base import DatabaseWrapper as PostgreSQLDatabaseWrapper
from psycopg import pq

_POLL = getattr(select, "poll", None)  # Linux and macOS; elsewhere, Django's check as it is


class DatabaseWrapper(PostgreSQLDatabaseWrapper):
    def _idle_and_quiet(self) -> bool:
        connection = self.connection
        if _POLL is None or connection.closed or connection.broken:
            return False
        if connection.pgconn.status != pq.ConnStatus.OK:
            return False
        if connection.info.transaction_status != pq.TransactionStatus.IDLE:
            return False
        poller = _POLL()
        poller.register(connection.fileno(), select.POLLIN | select.POLLPRI | select.POLLERR | select.POLLHUP)
        return not poller.poll(0)

    def close_if_health_check_failed(self):
        if (
            self.connection is not None
            and self.health_check_enabled
            and not self.health_check_done
            and not self.pool
            and self._idle_and_quiet()
        ):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()
