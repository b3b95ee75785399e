"""Error reports reach the configured Sentry-compatible service without the member's e-mail or name; without one,
they are mailed to the admins through the outbox, scrubbed the same way and a few an hour."""

import gzip
import io
import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.management import call_command
from django.tasks import task

from operations import reporting
from studio.models import OutgoingEmail
from studio.tests.test_background_emails import DATABASE_TASKS

pytestmark = pytest.mark.django_db

URLS = "operations.tests.urls_boom"


class FakeSentry:
    """A Sentry-compatible endpoint on 127.0.0.1 keeping every envelope it is sent, decompressed."""

    def __init__(self):
        self.envelopes = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                encoding = self.headers.get("Content-Encoding", "")
                if encoding == "gzip":
                    body = gzip.decompress(body)
                elif encoding == "br":
                    import brotli

                    body = brotli.decompress(body)
                fake.envelopes.append((self.path, body.decode("utf-8")))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def dsn(self):
        return f"http://public0key@127.0.0.1:{self.server.server_address[1]}/42"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def sentry():
    import sentry_sdk

    with FakeSentry() as fake:
        assert reporting.sentry_setup(fake.dsn)
        yield fake
        sentry_sdk.flush(timeout=5)
        sentry_sdk.get_client().close()
        sentry_sdk.get_global_scope().set_client(None)


def test_an_error_in_a_page_reaches_the_reporter_without_the_members_email_or_name(client, member, settings, sentry):
    import sentry_sdk

    settings.ROOT_URLCONF = URLS
    client.raise_request_exception = False
    client.force_login(member)
    session_key = client.cookies[settings.SESSION_COOKIE_NAME].value
    response = client.get("/boom?email=emma@example.fr")
    assert response.status_code == 500
    sentry_sdk.flush(timeout=5)

    events = [body for path, body in sentry.envelopes if '"type":"event"' in body.replace(" ", "")]
    assert len(events) == 1, sentry.envelopes
    assert all(path == "/api/42/envelope/" for path, _body in sentry.envelopes)
    event = json.loads(events[0].splitlines()[-1])
    (exception,) = event["exception"]["values"]
    assert exception["type"] == "ValueError"
    assert exception["value"] == "Paiement introuvable pour [nom] <[e-mail]>"
    assert event["transaction"] == "/boom"  # where it happened, without the query string that had the e-mail
    sent = "\n".join(body for _path, body in sentry.envelopes)
    for personal in ("emma@example.fr", "Emma", "Petit", session_key):
        assert personal not in sent, personal
    assert "user" not in event


def test_scrubbing_masks_every_email_and_the_connected_persons_names():
    event = {
        "message": "Réservation de Lucie (lucie.martin+pole@example.fr)",
        "breadcrumbs": {"values": [{"message": 'SELECT … WHERE "email" = %s', "data": {"params": ["a.b@c.fr"]}}]},
        "user": {"email": "lucie.martin+pole@example.fr"},
        "request": {"cookies": {"sessionid": "x"}, "data": {"password": "p"}, "headers": {"Cookie": "x", "Host": "h"}},
    }
    scrubbed = reporting.scrub_event(event)
    assert scrubbed["message"] == "Réservation de Lucie ([e-mail])"
    assert scrubbed["breadcrumbs"]["values"][0]["data"]["params"] == ["[e-mail]"]
    assert "user" not in scrubbed and scrubbed["request"] == {"headers": {"Host": "h"}}
    assert reporting.scrub_text("Mme Lucie Martin a écrit", ["Lucie Martin", "Lucie"]) == "Mme [nom] a écrit"


def test_without_a_dsn_errors_are_mailed_to_the_admins_through_the_outbox_scrubbed_and_rate_limited(
    client, member, settings, django_capture_on_commit_callbacks, mailoutbox
):
    settings.ROOT_URLCONF = URLS
    settings.ERROR_EMAILS_PER_HOUR = 2
    settings.OPERATIONS_EMAILS = ["ops@studio.example"]
    client.raise_request_exception = False
    client.force_login(member)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            assert client.get("/boom").status_code == 500
    (mail,) = OutgoingEmail.objects.filter(topic="operations.error")  # the same error, once an hour
    assert mail.to == ["ops@studio.example"]
    assert mail.subject.endswith("Erreur sur le site : ValueError: Paiement introuvable pour [nom] <[e-mail]>")
    assert "(GET /boom)" in mail.body_text and "Traceback" in mail.body_text
    assert "emma@example.fr" not in mail.body_text and "Emma" not in mail.body_text and "Petit" not in mail.body_text
    assert len(mailoutbox) == 1  # sent by the worker, like every mail

    with django_capture_on_commit_callbacks(execute=True):
        client.get("/other-boom")  # another kind of error: its own mail
    assert OutgoingEmail.objects.filter(topic="operations.error").count() == 2


def test_at_most_the_hourly_cap_of_error_mails_whatever_the_kinds(settings):
    import logging
    import sys

    settings.ERROR_EMAILS_PER_HOUR = 2
    queued = []
    for kind in (RuntimeError, KeyError, TypeError, OSError):
        try:
            raise kind("erreur")
        except kind:
            record = logging.LogRecord("django.request", logging.ERROR, "x.py", 1, "Erreur", (), sys.exc_info())
        queued.append(reporting.error_mail_queue(record))
    assert queued == [True, True, False, False]
    assert OutgoingEmail.objects.filter(topic="operations.error").count() == 2


def test_a_view_answering_503_on_purpose_is_no_error_to_report(client, settings):
    settings.ERROR_EMAILS_PER_HOUR = 2
    assert client.get("/readyz").status_code == 503  # nothing ticks in a test: the scheduler is "down"
    assert not OutgoingEmail.objects.filter(topic="operations.error").exists()


@task
def failing_refund(member_email: str) -> None:
    raise ConnectionError(f"refund refused for {member_email}")


def test_without_a_dsn_a_failed_task_in_the_worker_is_mailed_too(settings, transactional_db):
    settings.ERROR_EMAILS_PER_HOUR = 2
    settings.TASKS = DATABASE_TASKS
    failing_refund.enqueue(member_email="emma@example.fr")
    # The worker as the Procfile starts it (verbosity 1: it logs a failed task), its log levels restored afterwards.
    loggers = [logging.getLogger(name) for name in ("django.tasks", "django_tasks_db")]
    levels = [each.level for each in loggers]
    try:
        call_command("db_worker", batch=True, startup_delay=False, interval=0, reload=False, stdout=io.StringIO())
    finally:
        for each, level in zip(loggers, levels, strict=True):
            each.setLevel(level)
    (mail,) = OutgoingEmail.objects.filter(topic="operations.error")
    assert "tâche d'arrière-plan : Task id=" in mail.body_text
    assert "operations.tests.test_reporting.failing_refund" in mail.body_text
    assert "ConnectionError: refund refused for [e-mail]" in mail.body_text
    assert "emma@example.fr" not in mail.body_text
