"""The payment receipt: rendered and recorded in the outbox by a task queued after the capture commits (the
invoice's PDF attached), recorded as sent once its mail has left."""

from datetime import date

from django.tasks import task
from django.utils import timezone

from bookings.services.reservations import reservation_confirmation_email
from studio.day_text import day_text
from studio.emails import send_templated_email
from studio.registry import provided

from ..models import PaymentOrder

RECEIPT_SUBJECT = "Votre reçu de paiement"
# What a higher app attaches to a receipt (invoices: the invoice's PDF), provided through `studio.registry`:
# a function (order_pk=...) -> [(file name, bytes, mimetype)].
RECEIPT_ATTACHMENTS = "payment_receipt_attachments"


# --- receipt ---------------------------------------------------------------------------------------------------


@task
def payment_completed_emails_send(order_pk: int) -> None:
    """A captured order's e-mails (one task per capture, queued after its commit by capture.py): the reservation's
    confirmation, then the receipt with its invoice attached, each recorded in the outbox once (neither the PDF nor
    the .ics is rendered in the request)."""
    completed_order_emails(order_pk=order_pk)


@task
def payment_receipt_send(order_pk: int) -> None:
    """The receipt of a completed order, with its invoice attached, recorded in the outbox."""
    _send_receipt(order_pk=order_pk)


def completed_order_emails(*, order_pk: int) -> None:
    """What a captured order sends, once: the confirmation of the reservation it paid for (bookings' e-mail with
    its .ics; the capture confirmed it), then the receipt with the invoice's PDF (which renders and stores it)."""
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
