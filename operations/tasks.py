"""The periodic work of running the site (loaded by the scheduler, `manage.py crontask`, as every app's tasks).

- `operations_worker_heartbeat`, every minute, enqueued by the scheduler and run by a worker: the worker's sign of
  life (a worker that takes no task records none, and the waiting task shows in /readyz).
- `scheduler_tick`, every minute, in the scheduler's own process (not through the queue, which a stopped worker
  would hold): the scheduler's sign of life, and the look at the alerts, so a stopped worker is noticed.
- `operations_backup`, daily (BACKUP_CRON, 02:30 by default; empty: none), run by a worker: a full backup, the last N
  kept.
"""

import logging

from apscheduler.triggers.cron import CronTrigger
from crontask import cron, scheduler
from django.conf import settings
from django.db import close_old_connections
from django.tasks import task
from django.utils import timezone

from . import alerts, backups
from .heartbeats import heartbeat_record
from .models import Heartbeat

logger = logging.getLogger(__name__)


@cron("* * * * *")
@task
def operations_worker_heartbeat() -> None:
    heartbeat_record(Heartbeat.WORKER)


@task
def operations_backup() -> int:
    try:
        run = backups.backup_run()
    finally:
        alerts.alerts_check()  # a failed backup is an alert at once; a good one closes it
    return run.pk


if settings.BACKUP_CRON:  # empty: a systemd timer runs `manage.py backup` instead (docs/operations.md)
    operations_backup = cron(settings.BACKUP_CRON)(operations_backup)


def scheduler_tick() -> None:
    close_old_connections()
    try:
        heartbeat_record(Heartbeat.SCHEDULER, now=timezone.now())
        alerts.alerts_check()
    except Exception:  # noqa: BLE001 - the scheduler keeps ticking; the next minute tries again
        logger.exception("The scheduler's tick failed")
    finally:
        close_old_connections()


scheduler.add_job(
    scheduler_tick,
    CronTrigger.from_crontab("* * * * *", timezone=timezone.get_default_timezone()),
    name="operations.tasks.scheduler_tick",
    id="operations.tasks.scheduler_tick",
    replace_existing=True,
)
