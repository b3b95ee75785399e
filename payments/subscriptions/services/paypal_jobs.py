"""The periodic work of PayPal subscriptions, split from paypal.py:
freezes kept in step at PayPal (suspended while a freeze covers the day, reactivated after), the daily run (refused
periods retried after 3 days, due periods read from PayPal when no webhook came), and purchases approved at PayPal
whose answers never reached the site."""

from datetime import date as date_type
from datetime import timedelta

from django.tasks import task
from django.utils import timezone

from ...models import PaymentOrder, PaymentStatus
from ...provider_types import ProviderError
from ..models import ChargeStatus, Subscription, SubscriptionStatus
from ..paypal_client import ACTIVE, SUSPENDED
from ..periods import period_due_on
from .common import LIVE_STATUSES
from .paypal import PAYPAL_SUBSCRIPTION_TYPE, _paypal, frozen_on, logger, paypal_charge_retry, paypal_subscription_sync


def paypal_freeze_sync(*, subscription_id: int, as_of: date_type | None = None) -> str:
    """Nothing is charged during a freeze: PayPal's subscription is suspended while a freeze covers the day and
    reactivated after it (only one the studio suspended: a subscription PayPal suspended for refused payments stays
    unpaid until it is paid)."""
    as_of = as_of or timezone.localdate()
    subscription = Subscription.objects.select_related("source_order").get(pk=subscription_id)
    if subscription.provider != "paypal" or subscription.status not in (*LIVE_STATUSES, SubscriptionStatus.FROZEN):
        return "nothing to do"
    api = _paypal()
    psid = subscription.source_order.order_id
    remote = api.get_subscription(subscription_id=psid)
    if frozen_on(subscription, as_of):
        if remote.status == ACTIVE:
            api.suspend(subscription_id=psid, reason="Abonnement gelé par le studio")
            return "suspended"
    elif remote.status == SUSPENDED and subscription.status in (SubscriptionStatus.ACTIVE, SubscriptionStatus.FROZEN):
        api.activate(subscription_id=psid, reason="Fin du gel")
        return "reactivated"
    return "in step"


def paypal_subscriptions_run(*, as_of: date_type) -> dict:
    """The daily job's PayPal part: retry periods refused 3 days ago, and read PayPal for every period come due
    that no webhook has reported yet (a lost delivery)."""
    outcome = {"retried": 0, "synced": 0, "freezes": 0}
    frozen = Subscription.objects.filter(
        provider="paypal", status__in=(*LIVE_STATUSES, SubscriptionStatus.FROZEN), freezes__isnull=False
    ).distinct()
    for subscription_id in frozen.values_list("pk", flat=True):
        try:
            outcome["freezes"] += paypal_freeze_sync(subscription_id=subscription_id, as_of=as_of) != "in step"
        except ProviderError as exc:
            logger.warning("PayPal freeze of subscription %s not synced: %s", subscription_id, exc.message)
    live = (
        Subscription.objects.filter(provider="paypal", status__in=LIVE_STATUSES)
        .select_related("source_order")
        .prefetch_related("freezes", "charges")
        .order_by("pk")
    )
    for subscription in live:
        charges = list(subscription.charges.all())
        for charge in charges:
            if charge.status == ChargeStatus.FAILED and charge.next_attempt_on and charge.next_attempt_on <= as_of:
                paypal_charge_retry(charge_id=charge.pk, as_of=as_of)
                outcome["retried"] += 1
        paid = {c.period for c in charges if c.status == ChargeStatus.PAID}
        following = max(paid, default=0) + 1
        if following <= subscription.periods_committed and period_due_on(subscription, following) <= as_of:
            try:
                paypal_subscription_sync(provider_subscription_id=subscription.source_order.order_id)
                outcome["synced"] += 1
            except ProviderError as exc:
                logger.warning("PayPal subscription %s unreadable: %s", subscription.pk, exc.message)
    return outcome


def paypal_subscription_orders_reconcile(*, now=None) -> dict:
    """Every 10 minutes: PayPal subscriptions bought in the last 3 days and still open here (the member approved,
    but neither the popup's answer nor a webhook arrived) are read from PayPal and applied."""
    now = now or timezone.now()
    counts = {"synced": 0, "unreachable": 0}
    open_orders = PaymentOrder.objects.filter(
        type=PAYPAL_SUBSCRIPTION_TYPE,
        status__in=(PaymentStatus.CREATED, PaymentStatus.APPROVED),
        updated_at__lte=now - timedelta(minutes=5),
        created_at__gte=now - timedelta(days=3),
    ).order_by("created_at", "pk")[:100]
    for order in open_orders:
        try:
            paypal_subscription_sync(provider_subscription_id=order.order_id)
            counts["synced"] += 1
        except ProviderError as exc:
            logger.warning("PayPal subscription %s unreadable: %s", order.order_id, exc.message)
            counts["unreachable"] += 1
    return counts


@task
def subscription_paypal_freeze_sync(subscription_id: int) -> str:
    """A PayPal subscription staff froze from today: suspended at PayPal (the daily job reactivates it after)."""
    try:
        return paypal_freeze_sync(subscription_id=subscription_id)
    except ProviderError as exc:
        logger.warning(
            "PayPal freeze of subscription %s failed: %s; the daily job retries", subscription_id, exc.message
        )
        return "retry"
