"""Helpers of the tests of the columns PostgreSQL's triggers keep as copies of another table's (bookings 0014: each
reservation's session start; 0015: each attendance's member): read the copies, check none differs from its source,
and run two transactions so that the second waits on a lock the first holds."""

import threading
import time

from django.db import connection, transaction


def copies(table: str, column: str, rows) -> list:
    """`column` of `table` for each of `rows` (model instances), in the order of their ids."""
    with connection.cursor() as cursor:
        cursor.execute(
            f'SELECT "{column}" FROM "{table}" WHERE "id" = ANY(%s) ORDER BY "id"', [sorted(r.pk for r in rows)]
        )
        return [row[0] for row in cursor.fetchall()]


def in_step(table: str, column: str, *, source: str, source_column: str, key: str) -> bool:
    """Whether every row of `table` has `column` equal to `source_column` of its `source` row (joined on `key`)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f'SELECT COUNT(*) FROM "{table}" c JOIN "{source}" s ON s."id" = c."{key}"'
            f' WHERE c."{column}" IS DISTINCT FROM s."{source_column}"'
        )
        return cursor.fetchone()[0] == 0


def _waiting_on_a_lock(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return bool(row) and row[0] == "Lock"


def second_waits_for_first(first, second):
    """`first` runs in a transaction on a thread and stays open until `second`, on another thread, waits on a lock
    (polled in pg_stat_activity, not a fixed wait); then `first` commits and `second` ends. Any error fails."""
    errors, pids = [], []
    first_done_work, second_waiting = threading.Event(), threading.Event()

    def run_first():
        try:
            with transaction.atomic():
                first()
                first_done_work.set()
                assert second_waiting.wait(timeout=30), "the second transaction never waited"
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            first_done_work.set()
            connection.close()

    def run_second():
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pids.append(cursor.fetchone()[0])
            with transaction.atomic():
                second()
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    one, two = threading.Thread(target=run_first), threading.Thread(target=run_second)
    one.start()
    assert first_done_work.wait(timeout=30)
    two.start()
    deadline = time.monotonic() + 30
    while not pids or not _waiting_on_a_lock(pids[0]):
        assert two.is_alive(), f"the second transaction ended without waiting: {errors}"
        assert time.monotonic() < deadline, "the second transaction never waited"
        time.sleep(0.01)  # polling a condition (the other backend waits on a lock), not a fixed wait
    second_waiting.set()
    one.join(timeout=30)
    two.join(timeout=30)
    assert not errors, errors
