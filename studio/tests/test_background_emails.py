"""E-mails leave through the outbox and a worker (docs/decisions.md 41): the request never waits on the mail server."""

import socket
from datetime import timedelta
from email import message_from_bytes, policy

import pytest
from django.core.management import call_command
from django.tasks.backends.base import BaseTaskBackend
from django.utils import timezone
from freezegun import freeze_time

from accounts.tests.helpers import VALID_REGISTRATION
from studio import emails
from studio.models import EmailStatus, OutgoingEmail
from studio.tasks import outgoing_emails_retry

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


def run_worker():
    """The production worker, in-process, until the queue is empty."""
    call_command("db_worker", batch=True, startup_delay=False, interval=0, reload=False, verbosity=0)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class SmtpServer:
    """A real SMTP server on 127.0.0.1 (aiosmtpd), started and stopped by the test."""

    def __init__(self, port: int):
        self.port = port
        self.messages = []
        self.controller = None

    def start(self):
        from aiosmtpd.controller import Controller

        server = self

        class Handler:
            async def handle_DATA(self, _server, _session, envelope):
                server.messages.append(envelope)
                return "250 OK"

        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self):
        if self.controller:
            self.controller.stop()

    def to(self, address: str) -> list:
        return [m for m in self.messages if address in m.rcpt_tos]


@pytest.fixture
def smtp_settings(settings):
    port = free_port()
    settings.TASKS = DATABASE_TASKS
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port, "timeout": 5},
        }
    }
    server = SmtpServer(port)
    yield server
    server.stop()


@pytest.mark.django_db(transaction=True)
def test_registration_with_the_mail_server_down_answers_fast_and_mails_exactly_once_when_it_is_back(
    api_client, smtp_settings
):
    response = api_client.post("/api/users/register", VALID_REGISTRATION, format="json")
    assert response.status_code == 201, response.json()

    # The request only recorded the mail: it never tried the server (no attempt counted), so it did not wait for it.
    email = OutgoingEmail.objects.get(to=[VALID_REGISTRATION["email"]])
    assert email.status == EmailStatus.PENDING and email.attempts == 0

    run_worker()  # the server is down: the attempt fails and is kept for later
    email.refresh_from_db()
    assert email.status == EmailStatus.PENDING and email.attempts == 1 and email.last_error

    smtp_settings.start()
    with freeze_time(timezone.now() + emails.retry_delay(1) + timedelta(seconds=1)):
        assert outgoing_emails_retry.call() == 1
        run_worker()
        assert len(smtp_settings.to(VALID_REGISTRATION["email"])) == 1
        # the scheduler runs again (and a second scheduler too): nothing is sent twice
        outgoing_emails_retry.call()
        outgoing_emails_retry.call()
        run_worker()
    email.refresh_from_db()
    assert email.status == EmailStatus.SENT and email.sent_at
    assert len(smtp_settings.to(VALID_REGISTRATION["email"])) == 1
    from accounts.services.registration import SUBJECT_CONFIRM

    received = message_from_bytes(smtp_settings.to(VALID_REGISTRATION["email"])[0].content, policy=policy.default)
    assert SUBJECT_CONFIRM in received["subject"]


@pytest.mark.django_db(transaction=True)
def test_the_request_never_talks_to_the_mail_server(api_client, member, smtp_settings):
    """Contact form and forgot-password record their mails; nothing reaches the server before a worker runs."""
    smtp_settings.start()
    contact = {"name": "Léa", "email": "lea@example.fr", "message": "Bonjour", "subject": "Cours"}
    assert api_client.post("/api/contact-messages", contact, format="json").status_code in (200, 201)
    assert api_client.post("/api/users/forgot-password", {"email": member.email}, format="json").status_code == 200
    assert smtp_settings.messages == []
    run_worker()
    assert len(smtp_settings.to(member.email)) == 1
    assert OutgoingEmail.objects.filter(status=EmailStatus.SENT).count() == OutgoingEmail.objects.count() == 2


def test_a_mail_that_keeps_failing_is_given_up_after_the_last_attempt(
    db, settings, caplog, django_capture_on_commit_callbacks
):
    settings.EMAIL_MAX_ATTEMPTS = 2
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": free_port(), "timeout": 2},
        }
    }
    with django_capture_on_commit_callbacks(execute=True):
        email = emails.send_templated_email(to="a@example.fr", subject="Test", template="messaging_contact_staff")
    email.refresh_from_db()
    assert email.status == EmailStatus.PENDING and email.attempts == 1
    assert "not sent (attempt 1)" in caplog.text
    assert emails.email_deliver(email_id=email.pk) == "not due"  # the back-off holds it
    # The scheduler runs the job outside any transaction, where its sendings are queued at once.
    with (
        freeze_time(timezone.now() + emails.retry_delay(1) + timedelta(seconds=1)),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert outgoing_emails_retry.call() == 1
    email.refresh_from_db()
    assert email.status == EmailStatus.FAILED and email.attempts == 2
    assert "undelivered after 2 attempts" in caplog.text
    assert emails.emails_due(now=timezone.now() + timedelta(days=1)) == []


def test_retry_delays_grow_and_are_bounded():
    assert [emails.retry_delay(n).total_seconds() // 60 for n in (1, 2, 3, 4)] == [1, 2, 4, 8]
    assert emails.retry_delay(20) == timedelta(hours=1)


def test_a_claimed_mail_is_not_sent_by_a_second_worker(db, mailoutbox, settings):
    settings.TASKS = DATABASE_TASKS
    email = emails.send_templated_email(to="a@example.fr", subject="Test", template="messaging_contact_staff")
    OutgoingEmail.objects.filter(pk=email.pk).update(status=EmailStatus.SENDING, claimed_at=timezone.now())
    assert emails.email_deliver(email_id=email.pk) == "claimed"
    assert mailoutbox == []
    # a worker that died while sending: after the claim timeout the mail is tried again
    later = timezone.now() + emails.CLAIM_TIMEOUT + timedelta(seconds=1)
    assert emails.emails_due(now=later) == [email.pk]
    with freeze_time(later):
        assert emails.email_deliver(email_id=email.pk) == "sent"
    assert len(mailoutbox) == 1


def test_attachments_and_html_survive_the_outbox(db, mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        emails.send_templated_email(
            to=["a@example.fr"],
            subject="Test",
            template="messaging_contact_staff",
            attachments=[
                ("cours.ics", "BEGIN:VCALENDAR\r\n", "text/calendar"),
                ("x.bin", b"\x00\x01", "application/x"),
            ],
            reply_to=["b@example.fr"],
        )
    (message,) = mailoutbox
    assert message.reply_to == ["b@example.fr"]
    assert [(a[0], a[2]) for a in message.attachments] == [("cours.ics", "text/calendar"), ("x.bin", "application/x")]
    assert message.attachments[1][1] == b"\x00\x01"


def test_nothing_is_sent_when_the_transaction_rolls_back(db, mailoutbox, django_capture_on_commit_callbacks):
    from django.db import transaction

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        emails.send_templated_email(to="a@example.fr", subject="Test", template="messaging_contact_staff")
        raise RuntimeError
    assert mailoutbox == [] and not OutgoingEmail.objects.exists()


class QueueDownBackend(BaseTaskBackend):
    def enqueue(self, task, args, kwargs):
        raise ConnectionError("queue down")


def test_a_queue_that_is_down_at_the_commit_loses_no_mail(
    db, mailoutbox, settings, caplog, django_capture_on_commit_callbacks
):
    """The queue's one policy (studio.queue): the mail is sent after the commit, without a worker."""
    settings.TASKS = {"default": {"BACKEND": f"{__name__}.QueueDownBackend"}}
    with django_capture_on_commit_callbacks(execute=True):
        email = emails.send_templated_email(to="a@example.fr", subject="Test", template="messaging_contact_staff")
        assert mailoutbox == []  # not before the commit
    assert "Could not queue" in caplog.text
    assert len(mailoutbox) == 1
    email.refresh_from_db()
    assert email.status == EmailStatus.SENT
    assert emails.emails_due(now=timezone.now() + emails.FIRST_ATTEMPT_GRACE) == []  # nothing left to retry


def test_staff_hear_of_a_delivery_through_the_signal(db, mailoutbox, django_capture_on_commit_callbacks):
    from studio.signals import email_delivered

    heard = []

    def receiver(sender, email, **kwargs):
        heard.append((email.topic, email.topic_id, email.status))

    email_delivered.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            emails.send_templated_email(
                to="a@example.fr", subject="Test", template="messaging_contact_staff", topic="test.topic", topic_id=7
            )
    finally:
        email_delivered.disconnect(receiver)
    assert heard == [("test.topic", "7", EmailStatus.SENT)]


def test_concurrent_deliveries_send_once(db, mailoutbox, settings):
    """Two workers handed the same mail (a retry job on two schedulers): the claim lets one send."""
    settings.TASKS = DATABASE_TASKS
    email = emails.send_templated_email(to="a@example.fr", subject="Test", template="messaging_contact_staff")
    results = [emails.email_deliver(email_id=email.pk) for _ in range(2)]
    assert sorted(results) == ["done", "sent"]
    assert len(mailoutbox) == 1


@pytest.mark.django_db(transaction=True)
def test_old_task_results_are_pruned(settings):
    from django_tasks_db.models import DBTaskResult

    from studio.tasks import task_results_prune

    settings.TASKS = DATABASE_TASKS
    emails.send_templated_email(to="a@example.fr", subject="Test", template="messaging_contact_staff")
    run_worker()
    assert DBTaskResult.objects.count() == 1
    assert task_results_prune.call() == 0  # a fresh result stays
    with freeze_time(timezone.now() + timedelta(days=15)):
        assert task_results_prune.call() == 1
    assert not DBTaskResult.objects.exists()
