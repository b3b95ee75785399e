"""Receivers of the core's signals: each only calls a payments service (STYLE.md)."""

from django.dispatch import receiver

from studio.models import OutgoingEmail
from studio.signals import email_delivered

from . import services


@receiver(email_delivered, sender=OutgoingEmail, dispatch_uid="payments.receipt_delivered")
def receipt_delivered(sender, email: OutgoingEmail, **kwargs):
    if email.topic == services.RECEIPT_EMAIL_TOPIC and email.topic_id:
        services.payment_order_receipt_mark_sent(order_pk=int(email.topic_id), sent_at=email.sent_at)
