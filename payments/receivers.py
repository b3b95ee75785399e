"""Receivers of the signals of the core and of the apps below: each only calls a payments service
(docs/architecture.md)."""

from django.dispatch import receiver

from bookings.signals import session_cancelled
from quotes.signals import quoted_request_closed
from studio.models import OutgoingEmail
from studio.queue import enqueue_after_commit
from studio.signals import email_delivered

from .models import PaymentOrder
from .services import class_refunds, deposits, gift_card_orders
from .services.receipts import RECEIPT_EMAIL_TOPIC, payment_order_receipt_mark_sent
from .signals import payment_completed, payment_refunded, stripe_event_received
from .subscriptions.services.debits import stripe_subscription_event


@receiver(email_delivered, sender=OutgoingEmail, dispatch_uid="payments.receipt_delivered")
def receipt_delivered(sender, email: OutgoingEmail, **kwargs):
    if email.topic == RECEIPT_EMAIL_TOPIC and email.topic_id:
        payment_order_receipt_mark_sent(order_pk=int(email.topic_id), sent_at=email.sent_at)


@receiver(session_cancelled, dispatch_uid="payments.session_cancelled")
def cancelled_class_refunds(sender, session_id: int, reservation_ids: list[int], **kwargs):
    """The studio cancelled a class: its card payments are refunded in full, in tasks (docs/decisions.md 27)."""
    enqueue_after_commit(
        class_refunds.payment_cancelled_class_refund, session_id=session_id, reservation_ids=list(reservation_ids)
    )


@receiver(quoted_request_closed, dispatch_uid="payments.quoted_request_closed")
def closed_request_deposit_refund(sender, request_id: int, **kwargs):
    """A request refused or cancelled after its deposit was paid: the deposit is refunded, in a task."""
    deposits.deposit_refund_for_closed_request(sender=sender, request_id=request_id)


@receiver(stripe_event_received, dispatch_uid="payments.subscriptions.stripe_event")
def subscription_stripe_event(sender, event, **kwargs):
    """Saved methods, mandates and the periods' PaymentIntents of subscriptions."""
    stripe_subscription_event(event=event)


@receiver(payment_completed, sender=PaymentOrder, dispatch_uid="payments.gift_card_paid")
def gift_card_paid(sender, order_id: int, **kwargs):
    """A gift card's order is paid: the card becomes active (docs/decisions.md 56)."""
    gift_card_orders.gift_card_order_paid(order_id=order_id)


@receiver(payment_refunded, sender=PaymentOrder, dispatch_uid="payments.gift_card_refunded")
def gift_card_refunded(sender, order_id: int, **kwargs):
    """A gift card's purchase was refunded or voided: the card can no longer be spent."""
    gift_card_orders.gift_card_order_refunded(order_id=order_id)
