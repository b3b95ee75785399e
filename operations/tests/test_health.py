"""/healthz says the process answers; /readyz says, cheaply and without personal data, what of the site works."""

from datetime import timedelta

import pytest
from django.utils import timezone

from operations.heartbeats import heartbeat_record
from operations.models import BackupRun, Heartbeat
from studio.models import EmailStatus, OutgoingEmail

pytestmark = pytest.mark.django_db

# The database queue, as production's embedded default, so that waiting tasks can be read.
DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


@pytest.fixture
def healthy(settings):
    settings.TASKS = DATABASE_TASKS
    now = timezone.now()
    heartbeat_record(Heartbeat.SCHEDULER, now=now - timedelta(seconds=20))
    heartbeat_record(Heartbeat.WORKER, now=now - timedelta(seconds=40))
    BackupRun.objects.create(started_at=now - timedelta(hours=3), finished_at=now - timedelta(hours=3), succeeded=True)
    return now


def test_healthz_answers_without_touching_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert "no-cache" in response["Cache-Control"]


def test_readyz_answers_200_when_everything_works_in_five_queries(client, healthy, django_assert_num_queries):
    OutgoingEmail.objects.create(
        template="t", subject="Rappel", from_email="studio@example.fr", to=["emma@example.fr"], body_text="Bonjour Emma"
    )
    with django_assert_num_queries(5):  # heartbeats, waiting tasks, outbox, backups, open alerts
        response = client.get("/readyz")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "ok" and body["failing"] == []
    assert set(body["checks"]) == {"database", "cache", "scheduler", "worker", "outbox", "backup"}
    assert body["checks"]["scheduler"]["last_beat_seconds"] == 20
    assert body["checks"]["backup"]["age_seconds"] == 3 * 3600
    assert body["checks"]["outbox"]["oldest_unsent_seconds"] == 0
    assert "emma" not in response.content.decode().lower()  # ages and flags, never whom they concern


def test_readyz_costs_the_same_queries_however_much_the_site_holds(client, healthy, django_assert_num_queries):
    for number in range(30):
        OutgoingEmail.objects.create(
            template="t", subject=f"n{number}", from_email="s@example.fr", to=["a@example.fr"], body_text="x"
        )
        BackupRun.objects.create(started_at=healthy, finished_at=healthy, succeeded=True)
    with django_assert_num_queries(5):
        assert client.get("/readyz").status_code == 200


def test_readyz_answers_503_naming_what_fails(client, healthy):
    heartbeat_record(Heartbeat.SCHEDULER, now=timezone.now() - timedelta(minutes=3))
    old = OutgoingEmail.objects.create(
        template="t", subject="Rappel", from_email="s@example.fr", to=["emma@example.fr"], body_text="x"
    )
    OutgoingEmail.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=1))
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing"
    assert body["failing"] == ["scheduler", "outbox"]
    assert body["checks"]["scheduler"] == {"ok": False, "last_beat_seconds": 180}
    assert body["checks"]["outbox"] == {"ok": False, "oldest_unsent_seconds": 3600}


def test_a_sent_mail_is_not_waiting_in_the_outbox(client, healthy):
    sent = OutgoingEmail.objects.create(
        template="t",
        subject="s",
        from_email="s@example.fr",
        to=["a@example.fr"],
        body_text="x",
        status=EmailStatus.SENT,
    )
    OutgoingEmail.objects.filter(pk=sent.pk).update(created_at=timezone.now() - timedelta(days=2))
    assert client.get("/readyz").json()["checks"]["outbox"] == {"ok": True, "oldest_unsent_seconds": None}


def test_a_failed_or_missing_backup_fails_readyz(client, healthy):
    now = timezone.now()
    BackupRun.objects.create(started_at=now, finished_at=now, succeeded=False, error="disk full")
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["failing"] == ["backup"]
    assert response.json()["checks"]["backup"]["last_failed"] is True
    assert "disk full" not in response.content.decode()

    BackupRun.objects.all().delete()
    assert client.get("/readyz").json()["checks"]["backup"] == {"ok": False, "age_seconds": None, "last_failed": False}


def test_a_backup_older_than_a_day_fails_readyz(client, healthy):
    BackupRun.objects.update(finished_at=timezone.now() - timedelta(hours=26))
    response = client.get("/readyz")
    assert response.status_code == 503 and response.json()["failing"] == ["backup"]


def test_readyz_says_the_database_fails_when_it_does_not_answer(client, healthy, monkeypatch):
    def down(*args, **kwargs):
        raise ConnectionError("the database is down")

    monkeypatch.setattr(Heartbeat.objects, "values_list", down)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["failing"] == ["database"]
    assert client.get("/healthz").status_code == 200


def test_readyz_says_the_cache_fails_when_it_does_not_answer(client, healthy, monkeypatch):
    from django.core.cache import cache

    def down(*args, **kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(cache, "set", down)
    response = client.get("/readyz")
    assert response.status_code == 503 and response.json()["failing"] == ["cache"]


def test_only_get_and_head_are_answered(client):
    assert client.post("/healthz").status_code == 405
    assert client.head("/readyz").status_code in (200, 503)


def test_readyz_says_the_database_fails_when_it_stops_answering_midway(client, healthy, monkeypatch):
    def down(*args, **kwargs):
        raise ConnectionError("the connection was closed")

    monkeypatch.setattr(OutgoingEmail.objects, "filter", down)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "failing",
        "failing": ["database"],
        "checks": {"cache": {"ok": True}, "database": {"ok": False}},
    }


def test_with_the_redis_queue_the_worker_is_judged_by_its_heartbeat(client, healthy, settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": ["default"]}}
    assert client.get("/readyz").json()["checks"]["worker"] == {"ok": True, "last_beat_seconds": 40}
    heartbeat_record(Heartbeat.WORKER, now=timezone.now() - timedelta(minutes=4))
    response = client.get("/readyz")
    assert response.status_code == 503 and response.json()["failing"] == ["worker"]
    assert response.json()["checks"]["worker"] == {"ok": False, "last_beat_seconds": 240}
