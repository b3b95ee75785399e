"""Background work is queued after the commit; when the queue cannot take it, the work is still done."""

import pytest
from django.db import transaction
from django.tasks import task

from studio.queue import enqueue_after_commit

pytestmark = pytest.mark.django_db(transaction=True)

DONE = []


@task
def note_done(label: str) -> None:
    DONE.append(label)


@task
def failing() -> None:
    raise OSError("SMTP is down")


@pytest.fixture(autouse=True)
def clear():
    DONE.clear()
    yield
    DONE.clear()


def test_the_work_is_queued_once_the_transaction_commits():
    with transaction.atomic():
        enqueue_after_commit(note_done, label="receipt")
        assert DONE == []  # a worker must not look for rows that are not committed yet
    assert DONE == ["receipt"]  # the tests' queue runs a task as soon as it is queued


def test_a_rolled_back_write_queues_nothing():
    with pytest.raises(RuntimeError), transaction.atomic():
        enqueue_after_commit(note_done, label="receipt")
        raise RuntimeError("the write failed")
    assert DONE == []


def test_when_the_queue_refuses_the_work_is_done_after_the_commit(monkeypatch, caplog):
    def refuse(*args, **kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(type(note_done.get_backend()), "enqueue", refuse)
    with transaction.atomic():
        enqueue_after_commit(note_done, label="refund")
        assert DONE == []
    assert DONE == ["refund"]
    assert "Could not queue" in caplog.text


def test_when_the_work_fails_too_the_committed_request_still_answers(monkeypatch, caplog):
    def refuse(*args, **kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(type(failing.get_backend()), "enqueue", refuse)
    with transaction.atomic():
        enqueue_after_commit(failing)
    assert "failed outside the queue" in caplog.text
