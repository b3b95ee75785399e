"""Subscriptions through PayPal (docs/decisions.md 24): a catalog product and a billing plan per tariff,
created once and reused (SubscriptionPlan keeps their ids); the member approves a PayPal Subscription in PayPal's
popup; PayPal charges each period and tells us by webhooks, which this module applies (once per event id, in
webhooks.py), and the daily job reads what a lost webhook would have said.

The purchase is a PaymentOrder whose order_id is PayPal's subscription id (type ABONNEMENT_PAYPAL): its first sale
fulfils it like a captured order (payment_order_fulfil grants the pass and starts the Subscription, period 1 paid
with the sale's id); each later sale pays the first unpaid period.

Charged once: a sale's id is recorded on the period it paid, chosen under the Subscription's row lock, so a webhook
and the daily job reading the same sale at once record it once (and the (subscription, period) constraint holds).
Locks in the documented order (payments/services/locking.py): PaymentOrder (the first sale, in payment_order_fulfil)
→ Subscription → SubscriptionCharge → bookings' Pass, as every other writer of a subscription.
Provider calls run outside transactions, bounded by the provider's time budget; all run in tasks but the creation
(the popup needs the id at once) and the member's "Payer maintenant" (the member waits for its answer).
"""

import logging
from datetime import date as date_type
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.tasks import task
from django.utils import timezone

from bookings.services.pass_rules import pass_rule_set
from studio.errors import CONFLICT, ApplicationError

from ...models import PaymentOrder, PaymentStatus
from ...provider_types import ProviderError
from ...providers import PayPalProvider, get_provider
from ...services.capture import payment_order_fulfil
from ...services.common import OPEN_STATUSES, PaymentError, _mark
from ...services.locking import lock_charge, lock_subscription, lock_subscription_of_order
from ..models import ChargeStatus, Subscription, SubscriptionCharge, SubscriptionStatus
from ..paypal_client import (
    ACTIVE,
    APPROVED,
    CANCELLED,
    EXPIRED,
    SUSPENDED,
    PayPalSubscriptions,
    ProviderSale,
    parse_sale,
    parse_subscription,
)
from ..periods import period_due_on
from .charging import subscription_charge_failed, subscription_charge_paid
from .common import LIVE_STATUSES, SubscriptionError

logger = logging.getLogger(__name__)

PAYPAL_SUBSCRIPTION_TYPE = "ABONNEMENT_PAYPAL"
UNPAID = (ChargeStatus.DUE, ChargeStatus.FAILED, ChargeStatus.PROCESSING)


MSG_PAYPAL_NOT_CONFIGURED = "Le paiement par PayPal n'est pas disponible : le site fonctionne en mode démonstration."


class PayPalSubscriptionError(ApplicationError):
    default_code = "paypal_not_configured"
    messages = {"paypal_not_configured": MSG_PAYPAL_NOT_CONFIGURED}
    statuses = {"paypal_not_configured": CONFLICT}


def _paypal() -> PayPalSubscriptions:
    provider = get_provider()
    if not isinstance(provider, PayPalProvider):
        raise PayPalSubscriptionError.of("paypal_not_configured")
    return PayPalSubscriptions(provider)


# --- what PayPal says -------------------------------------------------------------------------------------------


def _order_of(provider_subscription_id: str) -> PaymentOrder | None:
    return PaymentOrder.objects.filter(order_id=provider_subscription_id, type=PAYPAL_SUBSCRIPTION_TYPE).first()


def _subscription_of(provider_subscription_id: str) -> Subscription | None:
    if not provider_subscription_id:
        return None
    return Subscription.objects.filter(source_order__order_id=provider_subscription_id, provider="paypal").first()


def _period_to_settle(subscription: Subscription, *, as_of: date_type) -> SubscriptionCharge | None:
    """Under the subscription's lock: the first unpaid period, else the next one (its row created)."""
    charge = subscription.charges.filter(status__in=UNPAID).order_by("period").first()
    if charge is not None:
        return charge
    last = subscription.charges.aggregate(last=Max("period"))["last"] or 0
    if last >= subscription.periods_committed:
        return None
    period = last + 1
    try:
        with transaction.atomic():
            return SubscriptionCharge.objects.create(
                subscription=subscription,
                period=period,
                due_on=period_due_on(subscription, period),
                amount=subscription.amount,
            )
    except IntegrityError:
        return SubscriptionCharge.objects.get(subscription=subscription, period=period)


def paypal_sale_record(*, provider_subscription_id: str, sale: ProviderSale) -> str:
    """A completed sale of a PayPal subscription (the webhook PAYMENT.SALE.COMPLETED, the daily job's reading of the
    subscription's transactions, a capture of the outstanding balance): pay one period with it, once."""
    if not sale.id or sale.status not in ("COMPLETED", "SUCCESS"):
        return "ignored"
    order = _order_of(provider_subscription_id)
    if order is None:
        return "unknown subscription"
    if order.status != PaymentStatus.COMPLETED:
        # The first sale pays the purchase: the order's lock decides between two readers of the same sale.
        outcome = payment_order_fulfil(
            order_id=order.order_id, capture_id=sale.id, amount=sale.amount, currency=sale.currency
        )
        if not outcome.completed:
            return "mismatch"
        order.refresh_from_db()
        if order.capture_id == sale.id:
            return "paid"
    with transaction.atomic():
        subscription = lock_subscription_of_order(order.pk)
        if subscription is None:
            return "no subscription"
        if order.capture_id == sale.id or subscription.charges.filter(provider_reference=sale.id).exists():
            return "duplicate"
        if sale.amount is not None and (sale.amount != subscription.amount or sale.currency != subscription.currency):
            logger.error("PayPal sale %s of %s: %s %s", sale.id, order.order_id, sale.amount, sale.currency)
            return "mismatch"
        charge = _period_to_settle(subscription, as_of=timezone.localdate())
        if charge is None:
            logger.error("PayPal sale %s beyond the commitment of %s", sale.id, order.order_id)
            return "beyond commitment"
        subscription_charge_paid(charge_id=charge.pk, reference=sale.id)
    return "paid"


def paypal_payment_failed(*, provider_subscription_id: str, reason: str, as_of: date_type | None = None) -> str:
    """BILLING.SUBSCRIPTION.PAYMENT.FAILED: the period PayPal could not charge is unpaid (retried after 3 days by the
    daily job, the member e-mailed with "Payer maintenant", the pass blocked after 7 days)."""
    as_of = as_of or timezone.localdate()
    subscription = _subscription_of(provider_subscription_id)
    if subscription is None:
        return "unknown subscription"
    with transaction.atomic():
        subscription = lock_subscription(subscription.pk)
        if subscription.status not in LIVE_STATUSES:
            return "closed"
        charge = _period_to_settle(subscription, as_of=as_of)
        if charge is None:
            return "beyond commitment"
        SubscriptionCharge.objects.filter(pk=charge.pk).update(attempts=charge.attempts + 1)
        subscription_charge_failed(charge_id=charge.pk, as_of=as_of, note=(reason or "PAYMENT_FAILED")[:200])
    return "failed"


def paypal_subscription_closed(*, provider_subscription_id: str, status: str) -> str:
    """BILLING.SUBSCRIPTION.CANCELLED / SUSPENDED (or a status read from PayPal). Cancelled: nothing more is charged,
    unpaid periods are cancelled, the pass stays valid through the last paid period. Suspended: unpaid, the pass books
    nothing new until PayPal reactivates it and the period is paid."""
    order = _order_of(provider_subscription_id)
    if order is None:
        return "unknown subscription"
    subscription = _subscription_of(provider_subscription_id)
    if subscription is None:
        if status in (CANCELLED, EXPIRED):
            _mark(order_id=order.order_id, status=PaymentStatus.VOIDED, only_from=OPEN_STATUSES)
        return "closed before payment"
    with transaction.atomic():
        subscription = lock_subscription(subscription.pk)
        if subscription.status not in (*LIVE_STATUSES, SubscriptionStatus.FROZEN):
            return "closed"
        if status == SUSPENDED and frozen_on(subscription, timezone.localdate()):
            return "suspended for the freeze"  # the studio's own suspension (paypal_freeze_sync)
        if status == SUSPENDED:
            subscription.status = SubscriptionStatus.UNPAID
            subscription.save(update_fields=["status", "updated_at"])
            pass_rule_set(pass_id=subscription.granted_pass_id, blocked_from=timezone.localdate())
            return "suspended"
        all_paid = subscription.periods_paid >= subscription.periods_committed
        subscription.status = SubscriptionStatus.ENDED if all_paid else SubscriptionStatus.CANCELLED
        subscription.save(update_fields=["status", "updated_at"])
        subscription.charges.filter(status__in=UNPAID).update(status=ChargeStatus.CANCELLED, next_attempt_on=None)
    return "cancelled"


def paypal_subscription_sync(*, provider_subscription_id: str) -> str:
    """Read the subscription and its transactions at PayPal and apply what a webhook would have (a task: after the
    popup's approval, on ACTIVATED, and daily for each due period)."""
    order = _order_of(provider_subscription_id)
    if order is None:
        return "unknown subscription"
    api = _paypal()
    remote = api.get_subscription(subscription_id=provider_subscription_id)
    if remote.status in (APPROVED, ACTIVE):
        _mark(order_id=order.order_id, status=PaymentStatus.APPROVED, only_from=(PaymentStatus.CREATED,))
    now = timezone.now()
    sales = api.transactions(
        subscription_id=provider_subscription_id,
        start=order.created_at - timedelta(days=1),
        end=now + timedelta(days=1),
    )
    recorded = 0
    for sale in sorted(sales, key=lambda s: (s.time, s.id)):
        recorded += paypal_sale_record(provider_subscription_id=provider_subscription_id, sale=sale) == "paid"
    if remote.status in (CANCELLED, EXPIRED, SUSPENDED):
        paypal_subscription_closed(provider_subscription_id=provider_subscription_id, status=remote.status)
    return f"{remote.status}: {recorded} paid"


def _failed(subscription_id: int, charge_id: int, as_of: date_type, note: str) -> None:
    """A refused PayPal period, under the documented lock order (the Subscription, then its charge)."""
    with transaction.atomic():
        lock_subscription(subscription_id)
        subscription_charge_failed(charge_id=charge_id, as_of=as_of, note=note[:200])


def paypal_charge_retry(*, charge_id: int, as_of: date_type) -> str:
    """Charge an unpaid period of a PayPal subscription now (the daily retry 3 days after a failure, staff's
    "Relancer"): PayPal's capture of the outstanding balance, one idempotency key per attempt."""
    with transaction.atomic():
        subscription, charge = lock_charge(charge_id)
        if charge.status not in UNPAID or subscription.status not in LIVE_STATUSES:
            return "nothing to charge"
        charge.attempts += 1
        charge.save(update_fields=["attempts", "updated_at"])
    psid = subscription.source_order.order_id
    try:
        sale = _paypal().capture_outstanding(
            subscription_id=psid,
            amount=charge.amount,
            currency=subscription.currency,
            note=f"Échéance {charge.period}/{subscription.periods_committed}",
            request_id=f"subscription-{subscription.pk}-period-{charge.period}-attempt-{charge.attempts}",
        )
    except ProviderError as exc:
        if exc.status_code is None or exc.status_code >= 500:
            logger.warning("PayPal capture of %s unreachable: %s", psid, exc.message)
            return "provider down"
        _failed(subscription.pk, charge.pk, as_of, exc.issue or "DECLINED")
        return "failed"
    if sale.status != "COMPLETED":
        _failed(subscription.pk, charge.pk, as_of, sale.status or "DECLINED")
        return "failed"
    return paypal_sale_record(provider_subscription_id=psid, sale=sale)


def paypal_pay_now(*, subscription: Subscription) -> Subscription:
    """The member's "Payer maintenant" on a PayPal subscription: capture each unpaid period now."""
    unpaid = list(
        subscription.charges.filter(status__in=(ChargeStatus.FAILED, ChargeStatus.DUE))
        .order_by("period")
        .values_list("pk", flat=True)
    )
    if not unpaid:
        raise SubscriptionError.of("nothing_due")
    today = timezone.localdate()
    outcomes = [paypal_charge_retry(charge_id=charge_id, as_of=today) for charge_id in unpaid]
    if "provider down" in outcomes:
        raise PaymentError.of("provider_down")
    if any(outcome != "paid" for outcome in outcomes):
        raise SubscriptionError.of("pay_now_declined")
    return Subscription.objects.get(pk=subscription.pk)


def frozen_on(subscription: Subscription, day: date_type) -> bool:
    return any(f.starts_on <= day < f.starts_on + timedelta(weeks=f.weeks) for f in subscription.freezes.all())


def paypal_subscription_webhook(event_type: str, resource: dict) -> str:
    """The Subscriptions v1 events (webhooks.py verified them and applies each once per event id)."""
    if event_type == "PAYMENT.SALE.COMPLETED":
        return paypal_sale_record(
            provider_subscription_id=str(resource.get("billing_agreement_id", "")), sale=parse_sale(resource)
        )
    remote = parse_subscription(resource)
    if event_type == "BILLING.SUBSCRIPTION.ACTIVATED":
        # The first payment's sale may come before or after this event: read PayPal now (this runs in the worker).
        if _order_of(remote.id) is None:
            return "unknown subscription"
        try:
            return f"activated ({paypal_subscription_sync(provider_subscription_id=remote.id)})"
        except ProviderError as exc:
            logger.warning("PayPal subscription %s unreadable after activation: %s", remote.id, exc.message)
            return "activated"
    if event_type == "BILLING.SUBSCRIPTION.PAYMENT.FAILED":
        return paypal_payment_failed(provider_subscription_id=remote.id, reason=remote.last_failed_reason)
    if event_type == "BILLING.SUBSCRIPTION.CANCELLED":
        return paypal_subscription_closed(provider_subscription_id=remote.id, status=CANCELLED)
    if event_type == "BILLING.SUBSCRIPTION.SUSPENDED":
        return paypal_subscription_closed(provider_subscription_id=remote.id, status=SUSPENDED)
    return "ignored"


SUBSCRIPTION_WEBHOOKS = (
    "BILLING.SUBSCRIPTION.ACTIVATED",
    "PAYMENT.SALE.COMPLETED",
    "BILLING.SUBSCRIPTION.PAYMENT.FAILED",
    "BILLING.SUBSCRIPTION.CANCELLED",
    "BILLING.SUBSCRIPTION.SUSPENDED",
)


@task
def paypal_subscription_sync_task(provider_subscription_id: str) -> str:
    """After the member approved in PayPal's popup: read the subscription and its payments at PayPal."""
    return paypal_subscription_sync(provider_subscription_id=provider_subscription_id)


@task
def subscription_paypal_retry(charge_id: int) -> str:
    """Staff's "Relancer l'échéance" of a PayPal subscription: capture the outstanding balance."""
    return paypal_charge_retry(charge_id=charge_id, as_of=timezone.localdate())
