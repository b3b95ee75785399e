"""The receipts of payments, with their invoice attached: invoices hears of a captured order (`payment_completed` with
`receipt=True`) or a paid subscription period (`subscription_charge_paid`), issues the invoice in the payment's
transaction (receivers.py), and queues here, after the commit, the task that sends the receipt payments renders, the
invoice's PDF attached (rendered and stored by that task, never in the request)."""

from django.tasks import task

from payments.services.receipts import order_receipt_email, order_reservation_confirmation_email
from payments.subscriptions.services.emails import subscription_charge_email

from .documents import charge_receipt_attachments, order_receipt_attachments


@task
def payment_completed_emails_send(order_pk: int) -> None:
    """A captured order's e-mails (one task per capture): the reservation's confirmation, then the receipt with its
    invoice attached, each recorded in the outbox once (neither the PDF nor the .ics is rendered in the request)."""
    order_reservation_confirmation_email(order_pk=order_pk)
    order_receipt_email(order_pk=order_pk, attachments=order_receipt_attachments(order_pk=order_pk))


@task
def payment_subscription_charge_receipt_send(charge_id: int) -> None:
    """The receipt of a subscription period paid, with its invoice attached, recorded in the outbox."""
    subscription_charge_email(
        charge_id=charge_id, paid=True, attachments=charge_receipt_attachments(charge_id=charge_id)
    )
