"""What follows a period's charge to a saved method: the SEPA pre-notification e-mail days before each debit, the
simulator's bank settling the debits it received, and Stripe's events about subscriptions (saved methods, mandates,
periods' PaymentIntents), heard through `payments.signals.stripe_event_received`."""

import logging
from datetime import date as date_type
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from ...stripe_events import MandateEvent, PaymentEvent, SetupEvent
from ..models import (
    ChargeStatus,
    SavedMethodKind,
    SavedMethodProvider,
    SavedMethodStatus,
    SepaPreNotification,
    Subscription,
    SubscriptionCharge,
)
from ..periods import period_due_on
from ..simulated_debits import PAID, simulated_debit_result
from .charging import subscription_debit_settle
from .common import LIVE_STATUSES
from .emails import sepa_pre_notification_email
from .method_charging import PURPOSE
from .saved_methods import SavedMethodError, stripe_mandate_updated, stripe_saving_complete, stripe_saving_failed

logger = logging.getLogger(__name__)


def simulated_debits_settle(*, now=None, delay_days: int | None = None) -> dict:
    """The simulator's bank: each SEPA debit sent at least SIMULATOR_SEPA_SETTLE_DAYS ago is settled, paid, or
    returned for Stripe's failing test IBAN (then the period is unpaid: retry, e-mail, block)."""
    now = now or timezone.now()
    delay = settings.SIMULATOR_SEPA_SETTLE_DAYS if delay_days is None else delay_days
    charges = SubscriptionCharge.objects.filter(
        status=ChargeStatus.PROCESSING,
        debit_started_at__isnull=False,
        debit_started_at__lte=now - timedelta(days=delay),
        subscription__saved_method__provider=SavedMethodProvider.SIMULATOR,
    ).values_list("pk", "provider_reference", "subscription__saved_method__simulated_outcome")
    outcome = {"paid": 0, "returned": 0}
    as_of = timezone.localdate(now)
    for charge_id, reference, simulated in list(charges):
        result = simulated_debit_result(outcome=simulated, reference=reference)
        charge = subscription_debit_settle(
            charge_id=charge_id, reference=reference, paid=result.status == PAID, as_of=as_of, note=result.note
        )
        if getattr(charge, "settled_now", False):
            outcome["paid" if charge.status == ChargeStatus.PAID else "returned"] += 1
    return outcome


def sepa_pre_notifications_send(*, as_of: date_type | None = None) -> int:
    """Daily: SUBSCRIPTION_SEPA_NOTICE_DAYS before a period is debited from a SEPA mandate, the member is told the
    amount, the date and the mandate's reference, once per period (the unique row decides between two
    schedulers)."""
    as_of = as_of or timezone.localdate()
    ahead = as_of + timedelta(days=settings.SUBSCRIPTION_SEPA_NOTICE_DAYS)
    candidates = (
        Subscription.objects.filter(
            status__in=LIVE_STATUSES,
            saved_method__kind=SavedMethodKind.SEPA_DEBIT,
            saved_method__status=SavedMethodStatus.ACTIVE,
        )
        .annotate(last_period=Max("charges__period"))
        .prefetch_related("freezes")
        .order_by("pk")
    )
    sent = 0
    for subscription in candidates:
        period = (subscription.last_period or 0) + 1
        if period > subscription.periods_committed:
            continue
        due = period_due_on(subscription, period)
        if not as_of <= due <= ahead:
            continue
        with transaction.atomic():
            notice, created = SepaPreNotification.objects.get_or_create(
                subscription=subscription, period=period, defaults={"due_on": due, "amount": subscription.amount}
            )
            if created:
                sent += 1
                transaction.on_commit(lambda pk=notice.pk: sepa_pre_notification_email(notice_id=pk))
    return sent


def stripe_subscription_event(*, event) -> str:
    """Apply one of Stripe's events that concern subscriptions; answers what was done (for the logs and tests).
    Every branch is idempotent: Stripe delivers an event at least once."""
    if isinstance(event, SetupEvent):
        if event.type == "setup_intent.succeeded":
            try:
                stripe_saving_complete(setup_intent_id=event.setup_intent_id)
            except SavedMethodError:
                return "ignored"
            return "saved"
        stripe_saving_failed(setup_intent_id=event.setup_intent_id)
        return "setup_failed"
    if isinstance(event, MandateEvent):
        changed = stripe_mandate_updated(mandate_id=event.mandate_id, status=event.status)
        return "mandate_inactive" if changed else "ignored"
    if isinstance(event, PaymentEvent) and (event.metadata or {}).get("purpose") == PURPOSE:
        charge_id = str(event.metadata.get("charge_id") or "")
        if not charge_id.isdigit() or not SubscriptionCharge.objects.filter(pk=int(charge_id)).exists():
            return "ignored"
        as_of = timezone.localdate()
        if event.type == "payment_intent.succeeded":
            subscription_debit_settle(charge_id=int(charge_id), reference=event.intent_id, paid=True, as_of=as_of)
            return "paid"
        if event.type == "payment_intent.payment_failed":
            note = event.message or event.decline_code or "DECLINED"
            subscription_debit_settle(
                charge_id=int(charge_id), reference=event.intent_id, paid=False, as_of=as_of, note=note
            )
            return "failed"
        return "ignored"  # processing: the period is PROCESSING already, from the charge's own answer
    return "ignored"
