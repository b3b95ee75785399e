"""Background work is queued in one way, with one policy for when the queue cannot take it.

`enqueue_after_commit(task, **kwargs)`: the task is queued once the current transaction commits (at once outside a
transaction), so that a worker never looks for rows that are not there yet, and a write that rolls back queues
nothing. If the queue refuses it (Redis or the database queue unreachable), the failure is logged and the task's
work is done here, after the commit: an e-mail, a PDF or a refund comes late rather than never. If that fails too,
it is logged; the work's own safety net (the outbox's retry job, the sweeps of waiting lists and cancelled classes,
the PDF rendered when first asked for) takes it from there.

Services define the tasks of the work they do (as pretix's services define their Celery tasks) and queue them
with this helper; an app's `tasks.py` keeps the scheduled jobs, which call services.
"""

import logging

from django.db import transaction

logger = logging.getLogger(__name__)


def enqueue_after_commit(task, **kwargs) -> None:
    """Queue `task(**kwargs)` after the commit; if the queue refuses it, do the work now (the module's policy)."""
    transaction.on_commit(lambda: _enqueue_or_run(task, kwargs))


def _enqueue_or_run(task, kwargs: dict) -> None:
    try:
        task.enqueue(**kwargs)
        return
    except Exception:  # noqa: BLE001 - any failure of the queue: the work is done here instead
        logger.exception("Could not queue %s(%s); doing it now", task.name, kwargs)
    try:
        task.call(**kwargs)
    except Exception:  # noqa: BLE001 - the commit is done: the work's own safety net takes it from there
        logger.exception("%s(%s) failed outside the queue", task.name, kwargs)
