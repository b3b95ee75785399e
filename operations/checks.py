"""The readiness of the site, as a monitor asks for it every 30 s: a fixed, small number of cheap queries.

Each check answers `ok` and a few numbers (ages in seconds), never a member's data. A check that cannot be read (the
database is down) is failing."""

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import Max, Q
from django.utils import timezone

from studio.models import EmailStatus, OutgoingEmail

from .models import BackupRun, Heartbeat

logger = logging.getLogger(__name__)

# The scheduler ticks every minute: two missed ticks and it is said to be down; five, and the admins are told.
SCHEDULER_LATE = timedelta(minutes=2)
SCHEDULER_ALERT = timedelta(minutes=5)
# The worker polls every second: a task ready for a minute is one nobody takes; for five, the admins are told.
WORKER_LATE = timedelta(minutes=1)
WORKER_ALERT = timedelta(minutes=5)
# Without a database queue to read (TASKS_BACKEND=rq), the worker's periodic task is its only sign of life.
WORKER_SILENT = timedelta(minutes=3)
# The outbox retries with back-off up to an hour (studio/emails.py): a mail unsent after this long is a trouble.
OUTBOX_LATE = timedelta(minutes=30)


@dataclass
class Readiness:
    now: datetime
    checks: dict = field(default_factory=dict)
    # What the alerts need beyond the answer: the ages they compare with their own, longer, limits.
    scheduler_silence: timedelta | None = None
    worker_stall: timedelta | None = None
    backup_problem: str = ""

    @property
    def failing(self) -> list[str]:
        return [name for name, check in self.checks.items() if not check["ok"]]


def _seconds(delta: timedelta | None) -> int | None:
    return None if delta is None else max(int(delta.total_seconds()), 0)


def _database_queue() -> bool:
    return settings.TASKS["default"]["BACKEND"].startswith("django_tasks_db.")


def _oldest_waiting_task(now):
    from django_tasks_db.models import DBTaskResult

    return (
        DBTaskResult.objects.ready()
        .filter(enqueued_at__lte=now)
        .order_by("enqueued_at")
        .values_list("enqueued_at", flat=True)
        .first()
    )


def readiness(*, now=None) -> Readiness:
    now = now or timezone.now()
    result = Readiness(now=now)
    result.checks["cache"] = _cache_check()
    try:
        _database_checks(result, now)
    except Exception:  # noqa: BLE001 - any failure of the database is what this check reports
        logger.exception("Readiness: the database does not answer")
        result.checks = {"cache": result.checks["cache"], "database": {"ok": False}}
        result.scheduler_silence = result.worker_stall = None
        result.backup_problem = ""
    return result


def _database_checks(result: Readiness, now) -> None:
    beats = dict(Heartbeat.objects.values_list("name", "beat_at"))  # also proves the database answers
    result.checks["database"] = {"ok": True}

    scheduler_beat = beats.get(Heartbeat.SCHEDULER)
    result.scheduler_silence = now - scheduler_beat if scheduler_beat else None
    result.checks["scheduler"] = {
        "ok": result.scheduler_silence is not None and result.scheduler_silence <= SCHEDULER_LATE,
        "last_beat_seconds": _seconds(result.scheduler_silence),
    }

    worker_beat = beats.get(Heartbeat.WORKER)
    worker_silence = now - worker_beat if worker_beat else None
    worker = {"last_beat_seconds": _seconds(worker_silence)}
    if _database_queue():
        oldest = _oldest_waiting_task(now)
        waiting = now - oldest if oldest else None
        worker["oldest_waiting_seconds"] = _seconds(waiting)
        worker["ok"] = waiting is None or waiting <= WORKER_LATE
        if waiting is not None and (worker_silence is None or worker_silence >= waiting):
            # A task waits, and the worker has shown no sign of life since it came: nobody takes the tasks.
            result.worker_stall = waiting
    else:
        worker["ok"] = worker_silence is not None and worker_silence <= WORKER_SILENT
        result.worker_stall = worker_silence
    result.checks["worker"] = worker

    oldest_unsent = (
        OutgoingEmail.objects.filter(status__in=[EmailStatus.PENDING, EmailStatus.SENDING])
        .order_by("created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    unsent_age = now - oldest_unsent if oldest_unsent else None
    result.checks["outbox"] = {
        "ok": unsent_age is None or unsent_age <= OUTBOX_LATE,
        "oldest_unsent_seconds": _seconds(unsent_age),
    }

    backups = BackupRun.objects.aggregate(
        last_ok=Max("finished_at", filter=Q(succeeded=True)),
        last_failed=Max("finished_at", filter=Q(succeeded=False)),
    )
    last_ok, last_failed = backups["last_ok"], backups["last_failed"]
    age = now - last_ok if last_ok else None
    if last_failed and (last_ok is None or last_failed >= last_ok):
        result.backup_problem = "failed"
    elif age is None:
        result.backup_problem = "missing"
    elif age > timedelta(hours=settings.BACKUP_MAX_AGE_HOURS):
        result.backup_problem = "old"
    result.checks["backup"] = {
        "ok": not result.backup_problem,
        "age_seconds": _seconds(age),
        "last_failed": bool(result.backup_problem == "failed"),
    }


def _cache_check() -> dict:
    try:
        cache.set("operations:readyz", "ok", 60)
        return {"ok": cache.get("operations:readyz") == "ok"}
    except Exception:  # noqa: BLE001 - Redis down, refused, timed out: the cache is failing
        logger.exception("Readiness: the cache does not answer")
        return {"ok": False}
