"""Scheduled work of the core (docs/decisions.md 41): retrying what did not leave the outbox, pruning the queue's
results. A mail's own sending is the outbox's task (`studio.emails.outgoing_email_send`)."""

from datetime import timedelta

from crontask import cron
from django.db.models import Q
from django.tasks import TaskResultStatus, task
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from . import emails


@cron("* * * * *")
@task
def outgoing_emails_retry() -> int:
    return emails.emails_retry_due()


TASK_RESULTS_KEPT = timedelta(days=14)
FAILED_TASK_RESULTS_KEPT = timedelta(days=30)


@cron("17 3 * * *")
@task
def task_results_prune() -> int:
    """The database queue keeps a row per task run: drop the finished ones after two weeks (failed after 30 days)."""
    now = timezone.now()
    deleted, _ = (
        DBTaskResult.objects.finished()
        .filter(
            Q(status=TaskResultStatus.SUCCESSFUL, finished_at__lte=now - TASK_RESULTS_KEPT)
            | Q(status=TaskResultStatus.FAILED, finished_at__lte=now - FAILED_TASK_RESULTS_KEPT)
        )
        .delete()
    )
    return deleted
