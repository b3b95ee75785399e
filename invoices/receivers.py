"""Receivers of payments' signals: each only calls an invoices service (docs/architecture.md). They run inside the
payment's transaction, so an invoice and its number commit or roll back with the payment; in a savepoint of their own,
so a failure here never undoes a payment (its number is given back with the savepoint, and the periodic
`invoices_issue_missing` job issues the document later). A payment's receipt, with the invoice attached, is queued
after the commit (receipts.py), whether or not the invoice could be issued now."""

from django.dispatch import receiver

from payments.models import PaymentOrder
from payments.signals import (
    payment_completed,
    payment_refunded,
    subscription_charge_paid,
    subscription_charge_refunded,
)
from payments.subscriptions.models import SubscriptionCharge
from studio.queue import enqueue_after_commit

from . import services
from .receipts import payment_completed_emails_send, payment_subscription_charge_receipt_send


@receiver(payment_completed, sender=PaymentOrder, dispatch_uid="invoices.payment_completed")
def invoice_for_completed_order(sender, order_id: int, receipt: bool = False, **kwargs):
    services.issue_safely(services.invoice_issue_for_order, order_id=order_id)
    if receipt:
        enqueue_after_commit(payment_completed_emails_send, order_pk=order_id)


@receiver(payment_refunded, sender=PaymentOrder, dispatch_uid="invoices.payment_refunded")
def credit_note_for_refunded_order(sender, order_id: int, reason: str = "", amount=None, **kwargs):
    services.issue_safely(services.credit_note_issue_for_order, order_id=order_id, reason=reason, amount=amount)


@receiver(subscription_charge_paid, sender=SubscriptionCharge, dispatch_uid="invoices.subscription_charge_paid")
def invoice_for_paid_period(sender, charge_id: int, **kwargs):
    services.issue_safely(services.invoice_issue_for_charge, charge_id=charge_id)
    enqueue_after_commit(payment_subscription_charge_receipt_send, charge_id=charge_id)


@receiver(subscription_charge_refunded, sender=SubscriptionCharge, dispatch_uid="invoices.subscription_charge_refunded")
def credit_note_for_refunded_period(sender, charge_id: int, reason: str = "", **kwargs):
    services.issue_safely(services.credit_note_issue_for_charge, charge_id=charge_id, reason=reason)
