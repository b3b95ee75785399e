"""The Redis switch (README, Deployment): with TASKS_BACKEND=rq the same tasks queue in Redis and an RQ worker runs
them. Runs against the Redis on 127.0.0.1:6379 (database 15), skipped where there is none."""

import os

import pytest

from accounts.tests.helpers import VALID_REGISTRATION
from studio.models import EmailStatus, OutgoingEmail

REDIS_URL = os.environ.get("TEST_TASKS_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
def rq_tasks(settings):
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip(f"needs Redis at {REDIS_URL} for the RQ backend switch")
    import django_rq

    settings.RQ_QUEUES = {"default": {"URL": REDIS_URL}}
    settings.RQ = {"JOB_CLASS": "django_tasks_rq.backend.Job"}
    settings.TASKS = {"default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": ["default"]}}
    queue = django_rq.get_queue("default")
    queue.empty()
    yield queue
    queue.empty()


def run_rq_worker():
    import django_rq

    # SimpleWorker runs the jobs in this process (no fork), so the test sees the mails it sends.
    django_rq.get_worker("default", worker_class="rq.SimpleWorker").work(burst=True)


@pytest.mark.django_db(transaction=True)
def test_with_the_rq_backend_a_registration_mail_queues_in_redis_and_an_rq_worker_sends_it(
    api_client, rq_tasks, mailoutbox
):
    response = api_client.post("/api/users/register", VALID_REGISTRATION, format="json")
    assert response.status_code == 201, response.json()
    assert mailoutbox == [] and rq_tasks.count == 1  # queued in Redis, not sent in the request

    run_rq_worker()
    assert rq_tasks.count == 0
    assert [m.to for m in mailoutbox] == [[VALID_REGISTRATION["email"]]]
    assert OutgoingEmail.objects.get().status == EmailStatus.SENT
