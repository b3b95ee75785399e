"""Alerts to the admins when background work stops: by e-mail through the outbox, and a banner on the dashboard."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from freezegun import freeze_time

from operations import alerts
from operations.heartbeats import heartbeat_record
from operations.models import Alert, AlertKind, BackupRun, Heartbeat
from operations.tasks import operations_worker_heartbeat, scheduler_tick
from studio.models import EmailStatus, OutgoingEmail
from studio.tasks import outgoing_emails_retry

pytestmark = pytest.mark.django_db(transaction=True)

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
START = "2027-03-02 10:00:00+00:00"
MSG_BANNER = "Le site a besoin d'un administrateur :"


def run_worker():
    """The production worker, in-process, until the queue is empty (a worker restarted)."""
    call_command("db_worker", batch=True, startup_delay=False, interval=0, reload=False, verbosity=0)


@pytest.fixture
def site(settings):
    """A site whose scheduler ticks, whose last backup is recent, on the database queue as in production."""
    settings.TASKS = DATABASE_TASKS
    settings.OPERATIONS_EMAILS = ["ops@studio.example"]
    return settings


def all_well():
    """Now, the last backup has just finished and both processes have just shown signs of life."""
    now = timezone.now()
    BackupRun.objects.create(started_at=now, finished_at=now, succeeded=True)
    heartbeat_record(Heartbeat.WORKER, now=now)
    heartbeat_record(Heartbeat.SCHEDULER, now=now)


def alert_mails(mailoutbox):
    return [m for m in mailoutbox if "Alerte" in m.subject]


def test_a_stopped_worker_with_a_task_waiting_is_seen_within_a_minute_and_alerted_after_five(
    client, site, mailoutbox, staff
):
    with freeze_time(START) as clock:
        all_well()
        operations_worker_heartbeat.enqueue()  # the scheduler's minute job; the worker is stopped: nobody takes it
        for minute in range(7):
            scheduler_tick()  # the scheduler keeps ticking
            if minute == 1:
                clock.tick(timedelta(seconds=1))
                response = client.get("/readyz")
                assert response.status_code == 503
                assert response.json()["failing"] == ["worker"]
                assert response.json()["checks"]["worker"]["oldest_waiting_seconds"] == 61
                assert Alert.objects.count() == 0  # not yet an alert: a busy minute is not a stopped worker
                assert client.get("/healthz").status_code == 200
            clock.tick(timedelta(minutes=1))
            BackupRun.objects.update(finished_at=timezone.now())

        alert = Alert.objects.get()
        assert (alert.kind, alert.resolved_at) == (AlertKind.WORKER, None)
        assert alert.message == "Le worker ne prend plus de tâches : une tâche attend depuis 5 minutes."
        (queued,) = OutgoingEmail.objects.filter(topic="operations.alert")
        assert queued.status == EmailStatus.PENDING and queued.to == ["ops@studio.example"]
        assert alert_mails(mailoutbox) == []  # the outbox keeps it while the worker is stopped
        assert client.get("/healthz").status_code == 200

        client.force_login(staff)
        page = client.get("/admin/dashboard").content.decode()
        assert MSG_BANNER in page and alert.message in page

        run_worker()  # the worker restarts: it takes the waiting tasks, the alert's mail among them
        (mail,) = alert_mails(mailoutbox)
        assert mail.to == ["ops@studio.example"]
        assert "Alerte : Le worker ne prend plus de tâches" in mail.subject
        assert alert.message in mail.body
        queued.refresh_from_db()
        assert queued.status == EmailStatus.SENT

        scheduler_tick()
        assert client.get("/readyz").status_code == 200
        alert.refresh_from_db()
        assert alert.resolved_at is not None  # the trouble is gone: the banner with it
        assert MSG_BANNER not in client.get("/admin/dashboard").content.decode()
        run_worker()
        assert len(alert_mails(mailoutbox)) == 1  # raised once, mailed once


def test_a_scheduler_silent_for_five_minutes_is_alerted_by_the_monitors_readyz(client, site, mailoutbox):
    with freeze_time(START) as clock:
        all_well()
        clock.tick(timedelta(minutes=3))
        heartbeat_record(Heartbeat.WORKER)
        assert client.get("/readyz").json()["failing"] == ["scheduler"]
        assert Alert.objects.count() == 0
        clock.tick(timedelta(minutes=2, seconds=1))
        heartbeat_record(Heartbeat.WORKER)
        BackupRun.objects.update(finished_at=timezone.now())
        assert client.get("/readyz").status_code == 503
        alert = Alert.objects.get()
        assert alert.kind == AlertKind.SCHEDULER
        assert alert.message == (
            "Le planificateur ne tourne plus : aucune tâche périodique n'a été lancée depuis 5 minutes."
        )
        client.get("/readyz")  # the monitor asks again: the alert stays one
        assert Alert.objects.count() == 1
        assert OutgoingEmail.objects.filter(topic="operations.alert").count() == 1


def test_a_failed_backup_is_recorded_and_alerted(site, mailoutbox, monkeypatch, settings):
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    from dbbackup.management.commands import dbbackup

    def full_disk(self, **options):
        raise OSError("No space left on device")

    monkeypatch.setattr(dbbackup.Command, "handle", full_disk)
    with freeze_time(START):
        all_well()
        with pytest.raises(OSError):
            from operations.tasks import operations_backup

            operations_backup.call()
    run = BackupRun.objects.latest("started_at")
    assert not run.succeeded and run.error == "OSError: No space left on device"
    alert = Alert.objects.get(kind=AlertKind.BACKUP)
    assert alert.message == "La dernière sauvegarde a échoué."
    (mail,) = alert_mails(mailoutbox)
    assert "La dernière sauvegarde a échoué." in mail.body


def test_a_backup_older_than_a_day_is_alerted(site, mailoutbox):
    with freeze_time(START) as clock:
        all_well()
        clock.tick(timedelta(hours=25, minutes=1))
        scheduler_tick()
    assert [a.message for a in alerts.open_alerts()] == ["La dernière sauvegarde réussie date de plus d'un jour."]


def test_the_scheduler_records_its_tick_in_its_own_process_without_the_queue(site):
    from crontask import scheduler

    job = scheduler.get_job("operations.tasks.scheduler_tick")
    assert job is not None and job.func is scheduler_tick
    assert outgoing_emails_retry is not None  # the outbox's retry is a queued job; the tick is not
    with freeze_time(START):
        scheduler_tick()
        assert Heartbeat.objects.get(name=Heartbeat.SCHEDULER).beat_at == timezone.now()


def test_a_site_never_backed_up_is_alerted(site):
    with freeze_time(START):
        heartbeat_record(Heartbeat.WORKER)
        scheduler_tick()
    assert [a.message for a in alerts.open_alerts()] == ["Aucune sauvegarde n'a encore réussi."]
