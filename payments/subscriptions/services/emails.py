"""The e-mails of subscriptions: a period's receipt (sent by invoices when it hears the period paid, with the invoice
attached: invoices/receipts.py) or its refusal with "Payer maintenant", and the invitation to renew 15 days before the
commitment ends. Split from `common.py`; sent after the commit."""

from datetime import date as date_type
from datetime import timedelta
from decimal import Decimal

from django.conf import settings

from studio.emails import send_templated_email

from ...simulator import SimulatorProvider
from ..models import SepaPreNotification, Subscription, SubscriptionCharge
from .common import (
    BLOCKED_AFTER_DAYS,
    CHARGE_FAILED_SUBJECT,
    CHARGE_PAID_SUBJECT,
    RENEWAL_SUBJECT,
    SEPA_NOTICE_SUBJECT,
)


def subscription_charge_email(*, charge_id: int, paid: bool, attachments: list[tuple[str, bytes, str]] = ()) -> None:
    """A period's receipt (`paid`, with what is attached to it: invoices' PDF) or its refusal, recorded in the
    outbox."""
    charge = SubscriptionCharge.objects.select_related("subscription__member", "subscription__saved_method").get(
        pk=charge_id
    )
    subscription = charge.subscription
    method = subscription.saved_method
    member = subscription.member
    attachments = list(attachments)
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
            # A refused SEPA debit is debited again at the retry: this e-mail is its pre-notification too.
            "mandate_reference": method.mandate_reference if method and method.kind == "sepa_debit" else "",
            "method_label": method.label if method else "",
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


def sepa_pre_notification_email(*, notice_id: int) -> None:
    """The SEPA pre-notification: the amount and date of the coming debit, with the mandate's reference."""
    notice = SepaPreNotification.objects.select_related("subscription__member", "subscription__saved_method").get(
        pk=notice_id
    )
    subscription = notice.subscription
    method = subscription.saved_method
    send_templated_email(
        to=subscription.member.email,
        subject=SEPA_NOTICE_SUBJECT,
        template="payments_subscription_sepa_notice",
        context={
            "member": subscription.member,
            "subscription": subscription,
            "notice": notice,
            "amount": f"{Decimal(notice.amount):.2f}".replace(".", ","),
            "method_label": method.label if method else "",
            "mandate_reference": method.mandate_reference if method else "",
            "demo": method is not None and method.provider == "simulator",
        },
        topic="payments.subscription_sepa_notice",
        topic_id=notice.pk,
    )
