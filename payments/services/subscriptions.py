"""Subscriptions billed per period (issue 19, DECISIONS.md 24–26).

A tariff priced per period ("55 € par mois") bought online starts a Subscription: the purchase order pays the first
period(s), each later period is a SubscriptionCharge row (unique per subscription and period) charged on its due date.
With the simulator, the studio's scheduler charges it (`subscription_charges_run`, daily task and `run_due_jobs`).

Charged once: the charge row is locked and marked PROCESSING before the provider is called (outside any transaction),
with an idempotency key per attempt; a second scheduler finds it PROCESSING or PAID and does nothing. Lock order:
SubscriptionCharge → Subscription → then bookings' own (the Pass, through bookings services), as a PaymentOrder's.

A failed period is retried 3 days later and the member is e-mailed each time with "Payer maintenant" (the profile);
7 days after its due date the pass books nothing new until it is paid (bookings' PassRule.blocked_from).
"""

import logging
from datetime import date as date_type
from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from bookings.services import add_months, pass_rule_set, pass_validity_set, tariff_billing_period_months
from studio.emails import send_templated_email
from studio.errors import CONFLICT, NOT_FOUND, ApplicationError
from studio.registry import provided

from ..models import (
    ChargeStatus,
    PaymentOrder,
    SimulatedProviderOrder,
    Subscription,
    SubscriptionCharge,
    SubscriptionPlan,
    SubscriptionStatus,
)
from ..providers import CAPTURE_COMPLETED, ProviderError, SimulatorProvider, get_provider
from ..signals import subscription_charge_paid as subscription_charge_paid_signal

logger = logging.getLogger(__name__)

RETRY_AFTER_DAYS = 3
BLOCKED_AFTER_DAYS = 7
STALE_PROCESSING = timedelta(minutes=15)  # a runner that died mid-charge: the next run resumes with the same key
LIVE_STATUSES = (SubscriptionStatus.ACTIVE, SubscriptionStatus.UNPAID)
UNPAID_CHARGES = (ChargeStatus.DUE, ChargeStatus.FAILED, ChargeStatus.PROCESSING)

MSG_SUBSCRIPTION_NOT_FOUND = "Cet abonnement est introuvable."
MSG_NOTHING_DUE = "Aucune échéance n'est à payer sur cet abonnement."
MSG_PAY_NOW_DECLINED = "Le paiement de l'échéance a été refusé : réessayez avec un autre moyen de paiement."
MSG_PAY_NOW_PROVIDER = "Le paiement d'une échéance se fait chez PayPal pour cet abonnement."
MSG_FREEZE_WEEKS = "Le gel dure de 1 à 52 semaines."
MSG_FREEZE_REASON = "Indiquez la raison du gel (ex. blessure) : elle est gardée dans l'historique."
MSG_FREEZE_DATE = "Le gel commence entre aujourd'hui et la fin de l'engagement ({end})."
MSG_NOT_LIVE = "Cet abonnement est terminé ou annulé : il ne peut plus être modifié."
MAX_FREEZE_WEEKS = 52
CHARGE_FAILED_SUBJECT = "Échéance de votre abonnement impayée"
CHARGE_PAID_SUBJECT = "Votre reçu d'échéance d'abonnement"
RENEWAL_SUBJECT = "Votre abonnement se termine bientôt : renouvelez-le"
RENEWAL_DAYS_BEFORE = 15
# What a higher app attaches to a period's receipt (invoices: the invoice's PDF), through `studio.registry`:
# a function (charge_id=...) -> [(file name, bytes, mimetype)].
CHARGE_RECEIPT_ATTACHMENTS = "subscription_charge_receipt_attachments"


class SubscriptionError(ApplicationError):
    default_code = "subscription_invalid"
    messages = {
        "subscription_not_found": MSG_SUBSCRIPTION_NOT_FOUND,
        "nothing_due": MSG_NOTHING_DUE,
        "pay_now_declined": MSG_PAY_NOW_DECLINED,
        "pay_now_provider": MSG_PAY_NOW_PROVIDER,
        "freeze_weeks": MSG_FREEZE_WEEKS,
        "freeze_reason": MSG_FREEZE_REASON,
        "freeze_date": MSG_FREEZE_DATE,
        "not_live": MSG_NOT_LIVE,
    }
    statuses = {
        "subscription_not_found": NOT_FOUND,
        "nothing_due": CONFLICT,
        "pay_now_declined": CONFLICT,
        "pay_now_provider": CONFLICT,
        "not_live": CONFLICT,
    }


# --- dates ------------------------------------------------------------------------------------------------------


def _shifted(subscription: Subscription, day: date_type) -> date_type:
    """A day of the plan moved by every freeze that started on or before it (the freezes prefetched or read)."""
    for freeze in sorted(subscription.freezes.all(), key=lambda f: (f.starts_on, f.pk)):
        if freeze.starts_on <= day:
            day += timedelta(weeks=freeze.weeks)
    return day


def period_due_on(subscription: Subscription, period: int) -> date_type:
    return _shifted(subscription, add_months(subscription.starts_on, (period - 1) * subscription.period_months))


def period_ends_on(subscription: Subscription, period: int) -> date_type:
    return period_due_on(subscription, period + 1) - timedelta(days=1)


def commitment_ends_on(subscription: Subscription) -> date_type:
    return period_ends_on(subscription, subscription.periods_committed)


# --- start ------------------------------------------------------------------------------------------------------


def subscription_start_for_order(*, order: PaymentOrder) -> Subscription | None:
    """Called by the capture, under the order's row lock, once the order granted its pass: a tariff priced per
    period starts a subscription whose first period(s) the order paid. Idempotent (one subscription per order)."""
    if not order.granted_pass_id or not order.tariff_id:
        return None
    existing = Subscription.objects.filter(source_order=order).first()
    if existing is not None:
        return existing
    tariff = order.tariff
    period = tariff_billing_period_months(tariff)
    if period is None or not tariff.pass_unlimited:
        return None
    committed = max(tariff.pass_validity_months // period, 1)
    paid = min(max(order.quantity, 1), committed)
    pass_obj = order.granted_pass
    declines_later = order.provider == SimulatorProvider.name and (
        SimulatedProviderOrder.objects.filter(order_id=order.order_id, card_declines_later=True).exists()
    )
    subscription = Subscription.objects.create(
        member_id=order.user_id,
        tariff=tariff,
        title=tariff.title[:150],
        provider=order.provider,
        source_order=order,
        granted_pass=pass_obj,
        amount=tariff.price,
        currency=order.currency,
        period_months=period,
        periods_committed=committed,
        periods_paid=paid,
        starts_on=pass_obj.starts_on,
        simulated_card_declines=declines_later,  # the member chose a card that pays now and fails later
        provider_subscription_id=order.order_id if order.type == "ABONNEMENT_PAYPAL" else "",
    )
    now = timezone.now()
    SubscriptionCharge.objects.bulk_create(
        SubscriptionCharge(
            subscription=subscription,
            period=n,
            due_on=period_due_on(subscription, n),
            amount=tariff.price,
            status=ChargeStatus.PAID,
            attempts=1,
            provider_reference=(order.capture_id or order.order_id)[:64],
            paid_at=now,
        )
        for n in range(1, paid + 1)
    )
    plan = SubscriptionPlan.objects.filter(tariff=tariff).first()
    if plan is not None and plan.weekly_cap:
        # The cap travels with the pass (bookings checks it under the pass lock, DECISIONS.md 26).
        pass_rule_set(pass_id=pass_obj.pk, weekly_cap=plan.weekly_cap)
    return subscription


# --- charging ---------------------------------------------------------------------------------------------------


def _charges_create_due(*, as_of: date_type) -> None:
    """Create the charge row of every period come due by `as_of` (simulator subscriptions; PayPal's own are created
    by its webhooks). Two schedulers may do this at once: the unique constraint keeps one row per period."""
    live = (
        Subscription.objects.filter(status__in=LIVE_STATUSES, provider=SimulatorProvider.name)
        .annotate(last_period=Max("charges__period"))
        .prefetch_related("freezes")
        .order_by("pk")
    )
    for subscription in live:
        period = (subscription.last_period or 0) + 1
        while period <= subscription.periods_committed and period_due_on(subscription, period) <= as_of:
            try:
                with transaction.atomic():
                    SubscriptionCharge.objects.get_or_create(
                        subscription=subscription,
                        period=period,
                        defaults={"due_on": period_due_on(subscription, period), "amount": subscription.amount},
                    )
            except IntegrityError:
                pass  # another scheduler created it
            period += 1


def subscription_charges_due(*, as_of: date_type) -> list[int]:
    """The charges to attempt as of a day: due, failed and due for a retry, or left PROCESSING by a dead runner."""
    _charges_create_due(as_of=as_of)
    stale = timezone.now() - STALE_PROCESSING
    charges = SubscriptionCharge.objects.filter(
        subscription__status__in=LIVE_STATUSES, subscription__provider=SimulatorProvider.name, due_on__lte=as_of
    )
    ids = []
    for charge in charges.filter(status__in=UNPAID_CHARGES).order_by("due_on", "pk"):
        if charge.status == ChargeStatus.FAILED and charge.next_attempt_on and charge.next_attempt_on > as_of:
            continue
        if charge.status == ChargeStatus.PROCESSING and charge.updated_at > stale:
            continue
        ids.append(charge.pk)
    return ids


def _request_id(charge: SubscriptionCharge) -> str:
    return f"subscription-{charge.subscription_id}-period-{charge.period}-attempt-{charge.attempts}"


def subscription_charge_attempt(*, charge_id: int, as_of: date_type, force: bool = False) -> SubscriptionCharge:
    """Charge one period once. `force` (the member's "Payer maintenant") ignores the retry date."""
    stale = timezone.now() - STALE_PROCESSING
    with transaction.atomic():
        charge = SubscriptionCharge.objects.select_for_update().select_related("subscription").get(pk=charge_id)
        subscription = charge.subscription
        if charge.status in (ChargeStatus.PAID, ChargeStatus.CANCELLED) or subscription.status not in LIVE_STATUSES:
            return charge
        if charge.status == ChargeStatus.PROCESSING and charge.updated_at > stale:
            return charge  # another runner is charging it right now
        if (
            charge.status == ChargeStatus.FAILED
            and not force
            and charge.next_attempt_on
            and charge.next_attempt_on > as_of
        ):
            return charge
        if charge.status != ChargeStatus.PROCESSING:
            charge.attempts += 1  # a resumed PROCESSING keeps its attempt, hence its idempotency key
        charge.status = ChargeStatus.PROCESSING
        charge.save(update_fields=["status", "attempts", "updated_at"])
    provider = get_provider()
    if not isinstance(provider, SimulatorProvider) or subscription.provider != provider.name:
        raise SubscriptionError.of("pay_now_provider")
    try:
        result = provider.charge_saved_card(
            amount=charge.amount,
            currency=subscription.currency,
            description=f"{subscription.title} – période {charge.period}/{subscription.periods_committed}",
            request_id=_request_id(charge),
            card_declined=subscription.simulated_card_declines,
        )
    except ProviderError:
        logger.exception("Charge %s: provider unreachable, left for the next run", charge_id)
        return charge
    if result.capture_status == CAPTURE_COMPLETED and result.amount == charge.amount:
        return subscription_charge_paid(charge_id=charge.pk, reference=result.capture_id)
    return subscription_charge_failed(charge_id=charge.pk, as_of=as_of, note=result.capture_status or "DECLINED")


def _contiguous_paid(subscription: Subscription) -> int:
    """The number of periods paid from the first one without a gap: the pass is valid through the last of them."""
    paid = set(subscription.charges.filter(status=ChargeStatus.PAID).values_list("period", flat=True))
    n = 0
    while n + 1 in paid:
        n += 1
    return n


def subscription_charge_paid(*, charge_id: int, reference: str) -> SubscriptionCharge:
    """A period's money arrived (the scheduler's charge, "Payer maintenant", or a PayPal webhook): record it once,
    extend the pass through the last paid period, lift the unpaid block when nothing is left unpaid."""
    with transaction.atomic():
        charge = SubscriptionCharge.objects.select_for_update().get(pk=charge_id)
        if charge.status == ChargeStatus.PAID:
            return charge
        subscription = Subscription.objects.select_for_update().get(pk=charge.subscription_id)
        charge.status = ChargeStatus.PAID
        charge.paid_at = timezone.now()
        charge.provider_reference = (reference or "")[:64]
        charge.next_attempt_on = None
        charge.failure_note = ""
        charge.save(
            update_fields=["status", "paid_at", "provider_reference", "next_attempt_on", "failure_note", "updated_at"]
        )
        subscription.periods_paid = subscription.charges.filter(status=ChargeStatus.PAID).count()
        still_unpaid = subscription.charges.filter(status__in=(ChargeStatus.FAILED,)).exists()
        if subscription.status == SubscriptionStatus.UNPAID and not still_unpaid:
            subscription.status = SubscriptionStatus.ACTIVE
        subscription.save(update_fields=["periods_paid", "status", "updated_at"])
        contiguous = _contiguous_paid(subscription)
        pass_obj = subscription.granted_pass
        through = period_ends_on(subscription, contiguous)
        if through > pass_obj.expires_on:
            pass_validity_set(
                pass_id=pass_obj.pk, expires_on=through, reason=f"Abonnement : période {charge.period} payée"
            )
        if not still_unpaid:
            pass_rule_set(pass_id=pass_obj.pk, blocked_from=None)
        # Issue 23: the period's invoice is numbered in this transaction (invoices' receiver); its receipt, with the
        # invoice's PDF, is built by a task.
        subscription_charge_paid_signal.send(sender=SubscriptionCharge, charge_id=charge.pk)
        transaction.on_commit(lambda: _charge_paid_email_queue(charge_id=charge.pk))
    return charge


def subscription_charge_failed(*, charge_id: int, as_of: date_type, note: str = "") -> SubscriptionCharge:
    """A period's charge was refused: retried in 3 days, the member e-mailed with "Payer maintenant", the pass
    blocked for new bookings from 7 days after the due date. The member stays committed: the pass runs through the
    unpaid period, but books nothing new once blocked."""
    with transaction.atomic():
        charge = SubscriptionCharge.objects.select_for_update().get(pk=charge_id)
        if charge.status == ChargeStatus.PAID:
            return charge
        subscription = Subscription.objects.select_for_update().get(pk=charge.subscription_id)
        charge.status = ChargeStatus.FAILED
        charge.next_attempt_on = as_of + timedelta(days=RETRY_AFTER_DAYS)
        charge.failure_note = note[:200]
        charge.save(update_fields=["status", "next_attempt_on", "failure_note", "updated_at"])
        if subscription.status == SubscriptionStatus.ACTIVE:
            subscription.status = SubscriptionStatus.UNPAID
            subscription.save(update_fields=["status", "updated_at"])
        pass_obj = subscription.granted_pass
        through = period_ends_on(subscription, charge.period)
        if through > pass_obj.expires_on:
            pass_validity_set(
                pass_id=pass_obj.pk, expires_on=through, reason=f"Abonnement : période {charge.period} due (impayée)"
            )
        first_unpaid = (
            subscription.charges.filter(status=ChargeStatus.FAILED).order_by("due_on").values_list("due_on", flat=True)
        ).first()
        pass_rule_set(pass_id=pass_obj.pk, blocked_from=first_unpaid + timedelta(days=BLOCKED_AFTER_DAYS))
        transaction.on_commit(lambda: _send_charge_email(charge_id=charge.pk, paid=False))
    return charge


def subscription_pay_now(*, subscription_id: int, user, card_declined: bool = False) -> Subscription:
    """The member's "Payer maintenant": charge every unpaid period of their subscription now. With the simulator
    the member picks the card (a working one unless `card_declined`), which becomes the card charged next."""
    subscription = None
    if 0 < subscription_id < 2**31:
        subscription = Subscription.objects.filter(pk=subscription_id, member=user).first()
    if subscription is None:
        raise SubscriptionError.of("subscription_not_found")
    if subscription.provider == "paypal":
        # PayPal: its capture of the outstanding balance, bounded by the provider's time budget.
        from .paypal_subscriptions import paypal_pay_now

        return paypal_pay_now(subscription=subscription)
    if subscription.provider != SimulatorProvider.name:
        raise SubscriptionError.of("pay_now_provider")
    Subscription.objects.filter(pk=subscription.pk).update(simulated_card_declines=card_declined)
    unpaid = list(
        subscription.charges.filter(status__in=(ChargeStatus.FAILED, ChargeStatus.DUE)).values_list("pk", flat=True)
    )
    if not unpaid:
        raise SubscriptionError.of("nothing_due")
    today = timezone.localdate()
    declined = False
    for charge_id in unpaid:
        charge = subscription_charge_attempt(charge_id=charge_id, as_of=today, force=True)
        declined = declined or charge.status == ChargeStatus.FAILED
    if declined:
        raise SubscriptionError.of("pay_now_declined")
    return Subscription.objects.get(pk=subscription.pk)


# --- e-mails ----------------------------------------------------------------------------------------------------


def _charge_paid_email_queue(*, charge_id: int) -> None:
    from ..tasks import payment_subscription_charge_receipt_send

    try:
        payment_subscription_charge_receipt_send.enqueue(charge_id=charge_id)
    except Exception:  # noqa: BLE001 - the queue is down: the receipt is still sent, built here
        logger.exception("Could not queue the receipt of charge %s; sending it now", charge_id)
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


# Freezes and the daily run live in subscription_lifecycle.py (imported last: it uses the names above).
from .subscription_lifecycle import (  # noqa: E402
    subscription_charges_run,
    subscription_freeze,
    subscriptions_end_finished,
    subscriptions_freeze_status,
    subscriptions_invite_renewal,
)

__all__ = [
    "subscription_charges_run",
    "subscription_freeze",
    "subscriptions_end_finished",
    "subscriptions_freeze_status",
    "subscriptions_invite_renewal",
]
