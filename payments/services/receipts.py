"""The payment receipt: sent through the outbox after the capture commits, recorded once its mail has left."""

from studio.emails import send_templated_email

from ..models import PaymentOrder

RECEIPT_SUBJECT = "Votre reçu de paiement"


# --- receipt ---------------------------------------------------------------------------------------------------


def _send_receipt(*, order_pk: int) -> None:
    order = PaymentOrder.objects.select_related("reservation__session__course", "tariff").get(pk=order_pk)
    what = order.title
    if order.reservation_id:
        what = f"{order.title} – séance du {order.date} à {order.time} ({order.quantity} participant(s))"
    elif order.tariff_id:
        what = f"{order.title} × {order.quantity}"
    # Recorded in the outbox and sent by a worker (DECISIONS.md 41): the capture never waits on the mail server.
    send_templated_email(
        to=order.email,
        subject=RECEIPT_SUBJECT,
        template="payments_receipt",
        context={"order": order, "what": what, "demo": order.provider == "simulator"},
        topic=RECEIPT_EMAIL_TOPIC,
        topic_id=order.pk,
    )


RECEIPT_EMAIL_TOPIC = "payments.receipt"


def payment_order_receipt_mark_sent(*, order_pk: int, sent_at) -> None:
    """The receipt's mail has left (studio's `email_delivered`): record it once."""
    PaymentOrder.objects.filter(pk=order_pk, receipt_sent_at__isnull=True).update(receipt_sent_at=sent_at)
