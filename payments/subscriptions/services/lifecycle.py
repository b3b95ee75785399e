"""Subscriptions over time: staff freezes, the daily run that charges due periods, ends finished
commitments and invites renewals. Split from `charging.py` (charging one period) to keep each module short."""

from datetime import date as date_type
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from bookings.services.pass_rules import pass_rule_set, pass_validity_set
from studio.queue import enqueue_after_commit

from ... import staff_cache
from ...selectors import payment_provider_name
from ...services.locking import lock_subscription
from ..models import ChargeStatus, Subscription, SubscriptionActionKind, SubscriptionFreeze, SubscriptionStatus
from ..periods import commitment_ends_on
from .charging import paid_at_desk, subscription_charge_attempt, subscription_charges_due
from .common import LIVE_STATUSES, MAX_FREEZE_WEEKS, RENEWAL_DAYS_BEFORE, SubscriptionError
from .emails import _send_renewal_email
from .paypal_jobs import paypal_subscriptions_run, subscription_paypal_freeze_sync


def subscription_freeze(
    *, subscription_id: int, starts_on: date_type, weeks: int, reason: str, by, today: date_type | None = None
) -> Subscription:
    """Staff freeze a subscription from `starts_on` for `weeks` weeks (docs/decisions.md 25): nothing is charged
    meanwhile (the due dates after it move), no session of those days can be booked with the pass, and the commitment's
    end and the pass's end move by as much. Logged with who and why (SubscriptionFreeze)."""
    today = today or timezone.localdate()
    reason = (reason or "").strip()
    if not reason:
        raise SubscriptionError.of("freeze_reason", field="reason")
    if not 1 <= weeks <= MAX_FREEZE_WEEKS:
        raise SubscriptionError.of("freeze_weeks", field="weeks")
    with transaction.atomic():
        subscription = lock_subscription(subscription_id)
        if subscription is None:
            raise SubscriptionError.of("subscription_not_found")
        if subscription.status not in (*LIVE_STATUSES, SubscriptionStatus.FROZEN):
            raise SubscriptionError.of("not_live")
        end = commitment_ends_on(subscription)
        if not today <= starts_on <= end:
            raise SubscriptionError.of("freeze_date", field="starts_on", end=end.strftime("%d/%m/%Y"))
        SubscriptionFreeze.objects.create(
            subscription=subscription, starts_on=starts_on, weeks=weeks, reason=reason[:2000], by=by
        )
        frozen_until = starts_on + timedelta(weeks=weeks) - timedelta(days=1)
        pass_obj = subscription.granted_pass
        if starts_on <= pass_obj.expires_on:
            pass_validity_set(
                pass_id=pass_obj.pk,
                expires_on=pass_obj.expires_on + timedelta(weeks=weeks),
                reason=f"Gel de {weeks} semaine(s) à partir du {starts_on:%d/%m/%Y} : {reason}",
                by=by,
            )
        pass_rule_set(pass_id=pass_obj.pk, frozen=(starts_on, frozen_until))
        if starts_on <= today:
            subscription.status = SubscriptionStatus.FROZEN
            subscription.save(update_fields=["status", "updated_at"])
            if subscription.provider == "paypal":
                # PayPal charges by itself: suspended there for the freeze (a task), reactivated by the daily job.
                enqueue_after_commit(subscription_paypal_freeze_sync, subscription_id=subscription.pk)
    return subscription


def subscriptions_freeze_status(*, as_of: date_type) -> int:
    """Daily: a subscription whose freeze has begun is FROZEN (nothing charged); once it is over, ACTIVE again (or
    UNPAID when a period is still refused)."""
    changed = 0
    candidates = (
        Subscription.objects.filter(status__in=(*LIVE_STATUSES, SubscriptionStatus.FROZEN))
        .filter(freezes__isnull=False)
        .distinct()
        .prefetch_related("freezes", "charges")
    )
    for subscription in candidates:
        frozen = any(f.starts_on <= as_of < f.starts_on + timedelta(weeks=f.weeks) for f in subscription.freezes.all())
        # A period due of a subscription paid at the desk keeps it unpaid as a refused one does (docs/decisions.md 43).
        unpaid_statuses = (
            (ChargeStatus.FAILED, ChargeStatus.DUE) if paid_at_desk(subscription) else (ChargeStatus.FAILED,)
        )
        unpaid = any(c.status in unpaid_statuses for c in subscription.charges.all())
        status = (
            SubscriptionStatus.FROZEN
            if frozen
            else (SubscriptionStatus.UNPAID if unpaid else SubscriptionStatus.ACTIVE)
        )
        if status != subscription.status:
            changed += Subscription.objects.filter(pk=subscription.pk, status=subscription.status).update(status=status)
    if changed:
        staff_cache.changed()  # an update() sends no post_save: the staff's cached figures and list
    return changed


def subscriptions_end_finished(*, as_of: date_type) -> int:
    """Subscriptions whose every period is paid and whose commitment is over become ENDED (no tacit renewal)."""
    ended = 0
    for subscription in Subscription.objects.filter(status=SubscriptionStatus.ACTIVE).prefetch_related("freezes"):
        if subscription.periods_paid >= subscription.periods_committed and commitment_ends_on(subscription) < as_of:
            ended += Subscription.objects.filter(pk=subscription.pk, status=SubscriptionStatus.ACTIVE).update(
                status=SubscriptionStatus.ENDED
            )
    if ended:
        staff_cache.changed()
    return ended


def subscriptions_invite_renewal(*, as_of: date_type) -> int:
    """15 days before the commitment ends, the member is invited once to renew (no tacit renewal, docs/decisions.md 24),
    unless they terminated it: their termination means no renewal (docs/decisions.md 46). Two schedulers: the
    conditional update lets one of them send it."""
    invited = 0
    candidates = (
        Subscription.objects.filter(
            status__in=(*LIVE_STATUSES, SubscriptionStatus.FROZEN), renewal_invited_on__isnull=True
        )
        .exclude(actions__kind=SubscriptionActionKind.MEMBER_TERMINATE)
        .prefetch_related("freezes")
    )
    for subscription in candidates:
        end = commitment_ends_on(subscription)
        if not end - timedelta(days=RENEWAL_DAYS_BEFORE) <= as_of <= end:
            continue
        with transaction.atomic():
            won = Subscription.objects.filter(pk=subscription.pk, renewal_invited_on__isnull=True).update(
                renewal_invited_on=as_of
            )
            if won:
                invited += 1
                transaction.on_commit(
                    lambda pk=subscription.pk, end=end: _send_renewal_email(subscription_id=pk, end=end)
                )
    return invited


def subscription_charges_run(*, as_of: date_type | None = None) -> dict:
    """The daily job (and `manage.py run_due_jobs --as-of`): charge every period due, once."""
    as_of = as_of or timezone.localdate()
    subscriptions_freeze_status(as_of=as_of)
    outcome = {"paid": 0, "failed": 0, "processing": 0, "skipped": 0}
    for charge_id in subscription_charges_due(as_of=as_of):
        charge = subscription_charge_attempt(charge_id=charge_id, as_of=as_of)
        attempted = getattr(charge, "attempted_now", False)
        # "processing": a SEPA debit sent, paid once the bank settles it.
        key = charge.status if attempted and charge.status in outcome else "skipped"
        outcome[key] += 1
    if payment_provider_name() == "paypal":
        # PayPal charges its subscriptions itself: retry refused periods, read what lost webhooks would have said.
        outcome["paypal"] = paypal_subscriptions_run(as_of=as_of)
    outcome["ended"] = subscriptions_end_finished(as_of=as_of)
    outcome["invited"] = subscriptions_invite_renewal(as_of=as_of)
    return outcome
