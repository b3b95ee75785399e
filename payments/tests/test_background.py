"""Payments never wait on mail, webhooks are acknowledged before their work, lost captures are reconciled
(docs/decisions.md 41)."""

import socket
import threading
import time
from datetime import timedelta

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.utils import timezone
from freezegun import freeze_time

from bookings.models import ReservationStatus
from payments.models import PaymentOrder, PaymentStatus, PaymentWebhookEvent
from payments.provider_types import ProviderError
from payments.providers import PayPalProvider, get_provider
from payments.services import webhooks
from payments.services.receipts import RECEIPT_EMAIL_TOPIC
from payments.tasks import payment_orders_reconcile
from studio.models import EmailStatus, OutgoingEmail
from studio.tests.test_background_emails import DATABASE_TASKS, run_worker

from . import fake_paypal as fp
from .conftest import reservation_payload
from .test_apis import APPROVE, CAPTURE, CREATE, _capture_event, _post_webhook, receipts

pytestmark = pytest.mark.django_db


class SlowMailBackend(BaseEmailBackend):
    """A mail server that holds each message until the test releases it (at most 5 s)."""

    release = threading.Event()
    calls = []

    def send_messages(self, messages):
        type(self).calls.append(threading.current_thread().name)
        type(self).release.wait(timeout=5)
        mail.outbox.extend(messages)
        return len(messages)


class DownMailBackend(BaseEmailBackend):
    def send_messages(self, messages):
        raise ConnectionRefusedError("mail server down")


@pytest.fixture
def slow_mail(settings):
    SlowMailBackend.release = threading.Event()
    SlowMailBackend.calls = []
    settings.MAILERS = {"default": {"BACKEND": f"{__name__}.SlowMailBackend"}}
    yield SlowMailBackend
    SlowMailBackend.release.set()


def _simulated_order(api_client, member, reservation):
    api_client.force_authenticate(member)
    order_id = api_client.post(CREATE, reservation_payload(reservation), format="json").json()["id"]
    response = api_client.post(APPROVE, {"orderId": order_id, "outcome": "approve"}, format="json")
    assert response.status_code == 200
    return order_id


@pytest.mark.django_db(transaction=True)
def test_a_capture_never_waits_on_the_mail_server(api_client, member, make_reservation, slow_mail, settings):
    settings.TASKS = DATABASE_TASKS
    reservation = make_reservation(member)
    order_id = _simulated_order(api_client, member, reservation)

    response = api_client.post(CAPTURE, {"orderId": order_id}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "COMPLETED"
    assert slow_mail.calls == []  # nothing talked to the mail server in the request
    order = PaymentOrder.objects.get(order_id=order_id)
    assert order.status == PaymentStatus.COMPLETED
    assert order.receipt_sent_at is None  # not sent yet: not recorded as sent

    slow_mail.release.set()
    run_worker()
    order.refresh_from_db()
    assert order.receipt_sent_at is not None
    assert len(receipts(mail.outbox)) == 1


def test_a_receipt_that_did_not_leave_is_not_recorded_as_sent(
    api_client, member, make_reservation, settings, django_capture_on_commit_callbacks
):
    settings.MAILERS = {"default": {"BACKEND": f"{__name__}.DownMailBackend"}}
    reservation = make_reservation(member)
    order_id = _simulated_order(api_client, member, reservation)
    with django_capture_on_commit_callbacks(execute=True):
        assert api_client.post(CAPTURE, {"orderId": order_id}, format="json").json()["status"] == "COMPLETED"
    order = PaymentOrder.objects.get(order_id=order_id)
    assert order.status == PaymentStatus.COMPLETED and order.receipt_sent_at is None
    receipt = OutgoingEmail.objects.get(topic=RECEIPT_EMAIL_TOPIC, topic_id=str(order.pk))
    assert receipt.status == EmailStatus.PENDING and receipt.attempts == 1

    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
    from studio.tasks import outgoing_emails_retry

    with freeze_time(timezone.now() + timedelta(minutes=2)):
        with django_capture_on_commit_callbacks(execute=True):
            outgoing_emails_retry.call()
    order.refresh_from_db()
    assert order.receipt_sent_at is not None
    assert len(receipts(mail.outbox)) == 1


@pytest.mark.django_db(transaction=True)
def test_the_webhook_answers_before_its_work_is_done(api_client, member, make_reservation, paypal_settings):
    paypal_settings.TASKS = DATABASE_TASKS
    reservation = make_reservation(member)
    api_client.force_authenticate(member)
    order_id = api_client.post(CREATE, reservation_payload(reservation), format="json").json()["id"]
    api_client.force_authenticate(None)
    order = PaymentOrder.objects.get(order_id=order_id)

    response = _post_webhook(api_client, _capture_event(order))
    assert response.status_code == 202 and response.json() == {"result": "queued"}
    order.refresh_from_db()
    assert order.status == PaymentStatus.CREATED and not PaymentWebhookEvent.objects.exists()

    run_worker()
    order.refresh_from_db()
    reservation.refresh_from_db()
    assert order.status == PaymentStatus.COMPLETED and reservation.status == ReservationStatus.CONFIRMED
    assert PaymentWebhookEvent.objects.count() == 1
    assert len(receipts(mail.outbox)) == 1


def test_a_forged_webhook_is_refused_before_anything_is_queued(
    api_client, member, make_reservation, paypal_settings, django_capture_on_commit_callbacks
):
    from django_tasks_db.models import DBTaskResult

    paypal_settings.TASKS = DATABASE_TASKS
    reservation = make_reservation(member)
    api_client.force_authenticate(member)
    order_id = api_client.post(CREATE, reservation_payload(reservation), format="json").json()["id"]
    order = PaymentOrder.objects.get(order_id=order_id)
    with django_capture_on_commit_callbacks(execute=True):
        assert _post_webhook(api_client, _capture_event(order), signature="forged").status_code == 403
    assert not DBTaskResult.objects.exists()


def _lost_capture(api_client, member, reservation, fake_paypal):
    """The member paid at PayPal, the site captured, and the answer never came back (no webhook either)."""
    api_client.force_authenticate(member)
    order_id = api_client.post(CREATE, reservation_payload(reservation), format="json").json()["id"]
    fake_paypal.approve(order_id)
    get_provider().capture_order(order_id=order_id, request_id=f"capture-{order_id}")
    return PaymentOrder.objects.get(order_id=order_id)


def test_reconcile_confirms_an_order_captured_at_paypal_whose_answer_was_lost(
    api_client, member, make_reservation, paypal_settings, fake_paypal, mailoutbox, django_capture_on_commit_callbacks
):
    reservation = make_reservation(member)
    order = _lost_capture(api_client, member, reservation, fake_paypal)
    assert order.status == PaymentStatus.CREATED

    assert payment_orders_reconcile.call() == {}  # the member may still be paying: left alone for now
    with freeze_time(timezone.now() + timedelta(minutes=6)), django_capture_on_commit_callbacks(execute=True):
        assert payment_orders_reconcile.call() == {"completed": 1}
        assert payment_orders_reconcile.call() == {}  # a second scheduler, or the next run: nothing more
    order.refresh_from_db()
    reservation.refresh_from_db()
    assert order.status == PaymentStatus.COMPLETED and order.capture_id
    assert reservation.status == ReservationStatus.CONFIRMED
    assert len(receipts(mailoutbox)) == 1
    assert len(fake_paypal.calls("/capture")) == 1  # reconcile read the order; it did not capture twice


def test_reconcile_captures_an_order_approved_at_paypal_that_nobody_captured(
    api_client, member, make_reservation, paypal_settings, fake_paypal, mailoutbox, django_capture_on_commit_callbacks
):
    reservation = make_reservation(member)
    api_client.force_authenticate(member)
    order_id = api_client.post(CREATE, reservation_payload(reservation), format="json").json()["id"]
    fake_paypal.approve(order_id)
    with freeze_time(timezone.now() + timedelta(minutes=6)), django_capture_on_commit_callbacks(execute=True):
        assert payment_orders_reconcile.call() == {"completed": 1}
    order = PaymentOrder.objects.get(order_id=order_id)
    assert order.status == PaymentStatus.COMPLETED
    assert len(receipts(mailoutbox)) == 1


def test_reconcile_leaves_unpaid_orders_open_and_survives_paypal_down(
    api_client, member, make_reservation, paypal_settings, fake_paypal
):
    reservation = make_reservation(member)
    api_client.force_authenticate(member)
    order_id = api_client.post(CREATE, reservation_payload(reservation), format="json").json()["id"]
    later = timezone.now() + timedelta(minutes=6)
    with freeze_time(later):
        assert payment_orders_reconcile.call() == {"open": 1}
    fake_paypal.stop()
    paypal_settings.PAYPAL_REQUEST_BUDGET = 2
    with freeze_time(later):
        assert payment_orders_reconcile.call() == {"unreachable": 1}
    assert PaymentOrder.objects.get(order_id=order_id).status == PaymentStatus.CREATED


def test_a_paypal_call_is_bounded_in_time(settings):
    """A PayPal that accepts the connection and never answers: the call gives up within the budget."""
    settings.PAYPAL_REQUEST_BUDGET = 0.5
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    try:
        provider = PayPalProvider(
            base_url=f"http://127.0.0.1:{silent.getsockname()[1]}", client_id=fp.CLIENT_ID, client_secret="x"
        )
        started = time.monotonic()
        with pytest.raises(ProviderError):
            provider.capture_order(order_id="X", request_id="capture-X")
        assert time.monotonic() - started < 2
    finally:
        silent.close()


@pytest.mark.django_db(transaction=True)
def test_a_webhook_whose_work_fails_is_retried_with_back_off(
    api_client, member, make_reservation, paypal_settings, monkeypatch, caplog
):
    from payments import tasks

    paypal_settings.TASKS = DATABASE_TASKS
    reservation = make_reservation(member)
    api_client.force_authenticate(member)
    order_id = api_client.post(CREATE, reservation_payload(reservation), format="json").json()["id"]
    api_client.force_authenticate(None)
    order = PaymentOrder.objects.get(order_id=order_id)

    real_handle = webhooks.payment_webhook_handle

    def database_busy(**kwargs):
        raise RuntimeError("database is locked")

    monkeypatch.setattr(webhooks, "payment_webhook_handle", database_busy)
    assert _post_webhook(api_client, _capture_event(order)).status_code == 202
    run_worker()
    assert "failed (attempt 1), retried in 0:02:00" in caplog.text
    order.refresh_from_db()
    assert order.status == PaymentStatus.CREATED

    monkeypatch.setattr(webhooks, "payment_webhook_handle", real_handle)
    run_worker()  # the retry waits for its back-off
    order.refresh_from_db()
    assert order.status == PaymentStatus.CREATED
    with freeze_time(timezone.now() + tasks.webhook_retry_delay(1) + timedelta(seconds=1)):
        run_worker()
    order.refresh_from_db()
    assert order.status == PaymentStatus.COMPLETED
    assert PaymentWebhookEvent.objects.count() == 1
