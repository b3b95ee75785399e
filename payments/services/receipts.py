"""The payment receipt: rendered and recorded in the outbox by a task after the capture commits (the invoice's PDF
attached), recorded as sent once its mail has left."""

import logging
from datetime import date

from django.db import router, transaction
from django.utils import timezone

from studio.day_text import day_text
from studio.emails import send_templated_email
from studio.registry import provided

from ..models import PaymentOrder

logger = logging.getLogger(__name__)

RECEIPT_SUBJECT = "Votre reçu de paiement"
# What a higher app attaches to a receipt (invoices: the invoice's PDF), provided through `studio.registry`:
# a function (order_pk=...) -> [(file name, bytes, mimetype)].
RECEIPT_ATTACHMENTS = "payment_receipt_attachments"


# --- receipt ---------------------------------------------------------------------------------------------------


def receipt_send_queue(*, order_pk: int) -> None:
    """After the capture's commit: the receipt (and a reservation's confirmation) are built by a worker, in one task
    (neither the PDF nor the .ics is rendered in the request, and the request queues one task, not three)."""
    from ..tasks import payment_completed_emails_send

    try:
        payment_completed_emails_send.enqueue(order_pk=order_pk)
    except Exception:  # noqa: BLE001 - the queue is down: the member still gets the e-mails, built here
        logger.exception("Could not queue the receipt of order %s; sending it now", order_pk)
        completed_order_emails(order_pk=order_pk)


def receipt_send_queue_with_payment(*, order_pk: int) -> None:
    """Inside the capture's transaction: queue the receipt's task so that it commits with the payment.

    With the database queue on the payment's own database (django-tasks-db, production's default), the task's row is
    written in this transaction: the payment, its reservation, its invoice and its e-mails' task commit together or
    not at all, in one commit (one wait for the disk) instead of a second write after it; the worker cannot see the
    row before the commit. Any other queue (Redis) is told after the commit (`receipt_send_queue`)."""
    from ..tasks import payment_completed_emails_send

    if _queue_in_payments_database(payment_completed_emails_send.get_backend()):
        payment_completed_emails_send.enqueue(order_pk=order_pk)
    else:
        transaction.on_commit(lambda: receipt_send_queue(order_pk=order_pk))


def _queue_in_payments_database(backend) -> bool:
    try:
        from django_tasks_db import DatabaseBackend
        from django_tasks_db.models import DBTaskResult
    except ImportError:  # pragma: no cover - the database queue is not installed
        return False
    return isinstance(backend, DatabaseBackend) and router.db_for_write(DBTaskResult) == router.db_for_write(
        PaymentOrder
    )


def completed_order_emails(*, order_pk: int) -> None:
    """What a captured order sends, once: the confirmation of the reservation it paid for (bookings' e-mail with
    its .ics; the capture confirmed it), then the receipt with the invoice's PDF (which renders and stores it)."""
    from bookings.services.reservations import reservation_confirmation_email

    reservation_id = PaymentOrder.objects.filter(pk=order_pk).values_list("reservation_id", flat=True).first()
    if reservation_id:
        reservation_confirmation_email(reservation_id=reservation_id)
    _send_receipt(order_pk=order_pk)


def _receipt_attachments(order_pk: int) -> list:
    attach = provided(RECEIPT_ATTACHMENTS)
    return list(attach(order_pk=order_pk)) if attach is not None else []


def _send_receipt(*, order_pk: int) -> None:
    order = PaymentOrder.objects.select_related("reservation__session__course", "tariff").get(pk=order_pk)
    what = order.title
    if order.reservation_id:
        what = f"{order.title} – séance du {_class_day_and_time(order)} ({order.quantity} participant(s))"
    elif order.tariff_id:
        what = f"{order.title} × {order.quantity}"
    attachments = _receipt_attachments(order.pk)
    # Recorded in the outbox and sent by a worker (docs/decisions.md 41): the capture never waits on the mail server.
    send_templated_email(
        to=order.email,
        subject=RECEIPT_SUBJECT,
        template="payments_receipt",
        context={
            "order": order,
            "what": what,
            "demo": order.provider == "simulator",
            "invoice_attached": bool(attachments),
        },
        attachments=attachments,
        topic=RECEIPT_EMAIL_TOPIC,
        topic_id=order.pk,
    )


def _class_day_and_time(order: PaymentOrder) -> str:
    """ "01/12/2026 à 18:30", as the site writes dates: the class's own start in Europe/Paris, else the order's record
    (an ISO date, written the French way when it is one)."""
    session = order.reservation.session if order.reservation else None
    if session is not None:
        start = timezone.localtime(session.start)
        return f"{day_text(start)} à {start:%H:%M}"
    try:
        day = day_text(date.fromisoformat(order.date))
    except ValueError:
        day = order.date
    return f"{day} à {order.time}"


RECEIPT_EMAIL_TOPIC = "payments.receipt"


def payment_order_receipt_mark_sent(*, order_pk: int, sent_at) -> None:
    """The receipt's mail has left (studio's `email_delivered`): record it once."""
    PaymentOrder.objects.filter(pk=order_pk, receipt_sent_at__isnull=True).update(receipt_sent_at=sent_at)
