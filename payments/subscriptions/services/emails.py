"""The e-mails of subscriptions: a period's receipt (with its invoice attached when invoices provide it)
or its refusal with "Payer maintenant", and the invitation to renew 15 days before the commitment ends. Split from
`common.py`; sent after the commit, through the task queue."""

from datetime import date as date_type
from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.tasks import task

from studio.emails import send_templated_email
from studio.registry import provided

from ...simulator import SimulatorProvider
from ..models import Subscription, SubscriptionCharge
from .common import (
    BLOCKED_AFTER_DAYS,
    CHARGE_FAILED_SUBJECT,
    CHARGE_PAID_SUBJECT,
    CHARGE_RECEIPT_ATTACHMENTS,
    RENEWAL_SUBJECT,
)


@task
def payment_subscription_charge_receipt_send(charge_id: int) -> None:
    """The receipt of a subscription period paid, with its invoice attached, recorded in the outbox (queued after the
    commit by charging.py)."""
    _send_charge_email(charge_id=charge_id, paid=True)


def _send_charge_email(*, charge_id: int, paid: bool) -> None:
    charge = SubscriptionCharge.objects.select_related("subscription__member").get(pk=charge_id)
    subscription = charge.subscription
    member = subscription.member
    attach = provided(CHARGE_RECEIPT_ATTACHMENTS) if paid else None
    attachments = list(attach(charge_id=charge.pk)) if attach is not None else []
    send_templated_email(
        to=member.email,
        attachments=attachments,
        subject=CHARGE_PAID_SUBJECT if paid else CHARGE_FAILED_SUBJECT,
        template="payments_subscription_paid" if paid else "payments_subscription_failed",
        context={
            "invoice_attached": bool(attachments),
            "member": member,
            "subscription": subscription,
            "charge": charge,
            "amount": f"{Decimal(charge.amount):.2f}".replace(".", ","),
            "pay_url": f"{settings.SITE_URL}/user/profile#abonnements",
            "blocked_on": charge.due_on + timedelta(days=BLOCKED_AFTER_DAYS),
            "demo": subscription.provider == SimulatorProvider.name,
        },
        topic="payments.subscription_charge",
        topic_id=charge.pk,
    )


def _send_renewal_email(*, subscription_id: int, end: date_type) -> None:
    subscription = Subscription.objects.select_related("member").get(pk=subscription_id)
    send_templated_email(
        to=subscription.member.email,
        subject=RENEWAL_SUBJECT,
        template="payments_subscription_renewal",
        context={
            "member": subscription.member,
            "subscription": subscription,
            "end": end,
            "tariffs_url": f"{settings.SITE_URL}/tarifs",
        },
        topic="payments.subscription_renewal",
        topic_id=subscription.pk,
    )
