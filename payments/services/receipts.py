"""The payment receipt: rendered and recorded in the outbox, recorded as sent once its mail has left. Invoices sends it
when it hears of a capture (`payment_completed` with `receipt=True`), in a task of its own queued after the commit,
with the invoice's PDF attached (invoices/receipts.py)."""

from datetime import date

from django.utils import timezone

from bookings.services.reservations import reservation_confirmation_email
from studio.day_text import day_text
from studio.emails import send_templated_email
from studio.terms import terms_pdf_render, withdrawal_form_text

from ..models import PaymentOrder

RECEIPT_SUBJECT = "Votre reçu de paiement"
# A card or a subscription bought online: the terms accepted and the withdrawal right (docs/decisions.md 47).
TERMS_PDF_NAME = "conditions-generales-de-vente.pdf"
MSG_RECEIPT_TERMS_ATTACHED = (
    "Nos conditions générales de vente sont jointes à cet e-mail (PDF). Vous pouvez vous rétracter pendant "
    "14 jours : « Exercer mon droit de rétractation » sur votre profil, ou le formulaire ci-dessous."
)


# --- receipt ---------------------------------------------------------------------------------------------------


def order_reservation_confirmation_email(*, order_pk: int) -> None:
    """The confirmation of the reservation a captured order paid for (bookings' e-mail with its .ics; the capture
    confirmed it without sending it), sent before the receipt, once."""
    row = (
        PaymentOrder.objects.filter(pk=order_pk)
        .values("reservation_id", "reservation__confirmed_at", "created_at")
        .first()
    )
    # A booking confirmed before its order was opened (staff booked it "à régler", then it was settled at the desk,
    # docs/decisions.md 50) had its confirmation then: the payment sends only the receipt.
    confirmed_at = row["reservation__confirmed_at"] if row else None
    if row and row["reservation_id"] and not (confirmed_at and confirmed_at < row["created_at"]):
        reservation_confirmation_email(reservation_id=row["reservation_id"])


def order_receipt_email(*, order_pk: int, attachments: list[tuple[str, bytes, str]]) -> None:
    """The receipt of a completed order with what is attached to it (invoices: the invoice's PDF, as
    [(file name, bytes, mimetype)]), recorded in the outbox once."""
    order = PaymentOrder.objects.select_related("reservation__session__course", "tariff").get(pk=order_pk)
    what = order.title
    if order.reservation_id:
        what = f"{order.title} – séance du {_class_day_and_time(order)} ({order.quantity} participant(s))"
    elif order.tariff_id:
        what = f"{order.title} × {order.quantity}"
    # The terms the buyer accepted and the withdrawal form go with a card or a subscription (a deposit's terms have
    # no withdrawal right to exercise: a dated event).
    withdrawal = bool(order.tariff_id and order.terms_version)
    if withdrawal:
        attachments = [*attachments, (TERMS_PDF_NAME, terms_pdf_render(), "application/pdf")]
    # Recorded in the outbox and sent by a worker (docs/decisions.md 41): the capture never waits on the mail server.
    send_templated_email(
        to=order.email,
        subject=RECEIPT_SUBJECT,
        template="payments_receipt",
        context={
            "order": order,
            "what": what,
            "demo": order.provider == "simulator",
            "invoice_attached": any(name != TERMS_PDF_NAME for name, _content, _type in attachments),
            "terms_message": MSG_RECEIPT_TERMS_ATTACHED if withdrawal else "",
            "withdrawal_form": withdrawal_form_text() if withdrawal else "",
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
