"""The payment receipt: rendered and recorded in the outbox by a task after the capture commits (the invoice's PDF
attached, issue 23), recorded as sent once its mail has left."""

import logging

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
    """After the capture's commit: the receipt is built by a worker (its PDF is not rendered in the request)."""
    from ..tasks import payment_receipt_send

    try:
        payment_receipt_send.enqueue(order_pk=order_pk)
    except Exception:  # noqa: BLE001 - the queue is down: the member still gets the receipt, built here
        logger.exception("Could not queue the receipt of order %s; sending it now", order_pk)
        _send_receipt(order_pk=order_pk)


def _receipt_attachments(order_pk: int) -> list:
    attach = provided(RECEIPT_ATTACHMENTS)
    return list(attach(order_pk=order_pk)) if attach is not None else []


def _send_receipt(*, order_pk: int) -> None:
    order = PaymentOrder.objects.select_related("reservation__session__course", "tariff").get(pk=order_pk)
    what = order.title
    if order.reservation_id:
        what = f"{order.title} – séance du {order.date} à {order.time} ({order.quantity} participant(s))"
    elif order.tariff_id:
        what = f"{order.title} × {order.quantity}"
    attachments = _receipt_attachments(order.pk)
    # Recorded in the outbox and sent by a worker (DECISIONS.md 41): the capture never waits on the mail server.
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


RECEIPT_EMAIL_TOPIC = "payments.receipt"


def payment_order_receipt_mark_sent(*, order_pk: int, sent_at) -> None:
    """The receipt's mail has left (studio's `email_delivered`): record it once."""
    PaymentOrder.objects.filter(pk=order_pk, receipt_sent_at__isnull=True).update(receipt_sent_at=sent_at)
