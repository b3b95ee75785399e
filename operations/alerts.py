"""Alerts to the admins (OPERATIONS_EMAILS) when background work stops: the scheduler missed its ticks for 5 minutes,
the worker has taken no task for 5 minutes while tasks wait, or the last backup failed or is older than a day.

An alert is raised once (a row, and an e-mail through the outbox: with the worker stopped it waits there and leaves
when the worker is back) and stays open, shown on the staff dashboard, until the trouble is gone. The scheduler's
tick looks every minute, and so does every /readyz a monitor asks for: a stopped scheduler is still noticed."""

import logging

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from studio.emails import send_templated_email

from .checks import SCHEDULER_ALERT, WORKER_ALERT, Readiness
from .models import Alert, AlertKind

logger = logging.getLogger(__name__)

MSG_SCHEDULER = "Le planificateur ne tourne plus : aucune tâche périodique n'a été lancée depuis {minutes} minutes."
MSG_WORKER = "Le worker ne prend plus de tâches : une tâche attend depuis {minutes} minutes."
MSG_BACKUP_FAILED = "La dernière sauvegarde a échoué."
MSG_BACKUP_OLD = "La dernière sauvegarde réussie date de plus d'un jour."
MSG_BACKUP_MISSING = "Aucune sauvegarde n'a encore réussi."
SUBJECT = "Alerte : {message}"


def _minutes(delta) -> int:
    return int(delta.total_seconds() // 60)


def troubles(state: Readiness) -> dict[str, str]:
    """The alerts the site's state calls for, by kind, with their French message."""
    found = {}
    if "database" not in state.checks or not state.checks["database"]["ok"]:
        return found  # nothing can be recorded; the monitor sees the database failing
    if state.scheduler_silence is None or state.scheduler_silence > SCHEDULER_ALERT:
        # Never ticked: a scheduler that never started is as stopped as one that died.
        minutes = _minutes(state.scheduler_silence) if state.scheduler_silence else _minutes(SCHEDULER_ALERT)
        found[AlertKind.SCHEDULER] = MSG_SCHEDULER.format(minutes=minutes)
    if state.worker_stall is not None and state.worker_stall > WORKER_ALERT:
        found[AlertKind.WORKER] = MSG_WORKER.format(minutes=_minutes(state.worker_stall))
    if state.backup_problem:
        found[AlertKind.BACKUP] = {
            "failed": MSG_BACKUP_FAILED,
            "old": MSG_BACKUP_OLD,
            "missing": MSG_BACKUP_MISSING,
        }[state.backup_problem]
    return found


def alerts_update(state: Readiness) -> list[Alert]:
    """Raise the alerts the state calls for and close those it no longer does. One query when nothing changes."""
    found = troubles(state)
    if "database" not in state.checks or not state.checks["database"]["ok"]:
        return []
    open_alerts = {alert.kind: alert for alert in Alert.objects.filter(resolved_at__isnull=True)}
    for kind, alert in open_alerts.items():
        if kind not in found:
            Alert.objects.filter(pk=alert.pk).update(resolved_at=state.now)
    raised = []
    for kind, message in found.items():
        if kind not in open_alerts:
            alert = _raise(kind, message, state.now)
            if alert is not None:
                raised.append(alert)
    return raised


def _raise(kind: str, message: str, now) -> Alert | None:
    try:
        with transaction.atomic():
            alert = Alert.objects.create(kind=kind, message=message, raised_at=now)
            # In the same transaction: the alert is mailed once, by whichever process raised it first.
            send_templated_email(
                to=settings.OPERATIONS_EMAILS,
                subject=SUBJECT.format(message=message.rstrip(".")),
                template="operations_alert",
                context={"message": message, "raised_at": now},
                topic="operations.alert",
                topic_id=kind,
            )
    except IntegrityError:  # another process (a second /readyz, the scheduler) raised it a moment ago
        return None
    logger.error("Alert raised: %s", message)
    return alert


def open_alerts() -> list[Alert]:
    return list(Alert.objects.filter(resolved_at__isnull=True).order_by("raised_at"))


def alerts_check(*, now=None) -> list[Alert]:
    """Look at the site now and raise or close the alerts (the scheduler's tick)."""
    from .checks import readiness

    return alerts_update(readiness(now=now or timezone.now()))
