"""Staff actions on a subscription (docs/decisions.md 25), from the dashboard: retry an unpaid period now, cancel with
or without the refund of the current period, end a reduced (student, job-seeker) plan. Each is logged with who and why
(SubscriptionAction). Provider calls that can wait (PayPal's capture and cancellation, every refund) run in tasks
after the commit; a refund is made once per period (idempotency key per charge, refund id kept)."""

import logging
from datetime import date as date_type
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.tasks import task
from django.utils import timezone

from bookings.services.pass_rules import pass_validity_set
from studio.errors import CONFLICT, ApplicationError
from studio.queue import enqueue_after_commit

from ...choices import PaymentProviderName
from ...provider_types import REFUND_ACCEPTED, ProviderError
from ...providers import get_provider
from ...services.locking import lock_charge_alone, lock_payment_order, lock_reduced_declaration, lock_subscription
from ...signals import subscription_charge_refunded
from ...simulator import SimulatorProvider
from ..models import (
    ChargeStatus,
    Subscription,
    SubscriptionAction,
    SubscriptionActionKind,
    SubscriptionCharge,
    SubscriptionStatus,
)
from ..paypal_client import PayPalSubscriptions
from ..periods import period_ends_on
from .charging import subscription_charge_attempt
from .common import LIVE_STATUSES, SubscriptionError
from .method_charging import method_refund
from .paypal import subscription_paypal_retry

logger = logging.getLogger(__name__)

MSG_REASON_REQUIRED = "Indiquez la raison : elle est gardée dans l'historique de l'abonnement."
MSG_NOTHING_TO_RETRY = "Aucune échéance impayée à relancer sur cet abonnement."
MSG_NOT_REDUCED = "Cet abonnement n'est pas (ou plus) à tarif réduit."
MSG_RETRY_PAID = "Échéance {period} relancée : elle est payée."
MSG_RETRY_FAILED = (
    "Échéance {period} relancée : le paiement a de nouveau été refusé (le membre est prévenu par e-mail)."
)
MSG_RETRY_SENT = "Échéance {period} relancée chez PayPal : le résultat s'affichera ici dans quelques instants."
MSG_RETRY_PENDING = "Échéance {period} : le prestataire de paiement ne répond pas, elle sera relancée automatiquement."
MSG_CANCELLED = "Abonnement annulé : plus aucune échéance ne sera prélevée."
MSG_CANCELLED_REFUND = (
    "Abonnement annulé : la période {period} ({amount} €) est remboursée via le prestataire de paiement."
)
MSG_CANCELLED_NOTHING_TO_REFUND = "Abonnement annulé : aucune période en cours n'était payée, rien à rembourser."
MSG_REDUCED_ENDED = "Tarif réduit terminé : plus aucune échéance ne sera prélevée sur cet abonnement."
REFUND_RETRY_STATUSES = (ChargeStatus.REFUNDED,)


class StaffSubscriptionError(ApplicationError):
    default_code = "subscription_action_invalid"
    messages = {
        "reason_required": MSG_REASON_REQUIRED,
        "nothing_to_retry": MSG_NOTHING_TO_RETRY,
        "not_reduced": MSG_NOT_REDUCED,
    }
    statuses = {"nothing_to_retry": CONFLICT, "not_reduced": CONFLICT}


def _euros(amount) -> str:
    return f"{amount:.2f}".replace(".", ",")


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise StaffSubscriptionError.of("reason_required", field="reason")
    return reason[:2000]


def _locked(subscription_id: int) -> Subscription:
    subscription = lock_subscription(subscription_id)
    if subscription is None:
        raise SubscriptionError.of("subscription_not_found")
    return subscription


def _locked_after_its_order(subscription_id: int) -> Subscription:
    """The purchase order, then the subscription (the project's lock order): a refund's credit note refers to the
    order, which a member's withdrawal locks first; taking the subscription alone here deadlocked against it."""
    if 0 < subscription_id < 2**31:
        order_id = (
            Subscription.objects.filter(pk=subscription_id).values_list("source_order__order_id", flat=True).first()
        )
        if order_id is not None:
            lock_payment_order(order_id, missing_ok=True)
    return _locked(subscription_id)


def _log(subscription: Subscription, kind: str, *, by, reason: str, outcome: str) -> None:
    SubscriptionAction.objects.create(subscription=subscription, kind=kind, by=by, reason=reason, outcome=outcome[:200])


# --- retry ------------------------------------------------------------------------------------------------------


def subscription_charge_retry(*, subscription_id: int, by, reason: str = "", today: date_type | None = None) -> str:
    """Staff's "Relancer l'échéance": charge the first unpaid period now. The simulator charges it at once (no
    network); PayPal's capture of the outstanding balance runs in a task. Answers the French outcome."""
    today = today or timezone.localdate()
    reason = (reason or "").strip()[:2000]
    subscription = Subscription.objects.filter(pk=subscription_id).first() if 0 < subscription_id < 2**31 else None
    if subscription is None:
        raise SubscriptionError.of("subscription_not_found")
    if subscription.status not in LIVE_STATUSES:
        raise SubscriptionError.of("not_live")
    # A refused period was due already; a period not attempted yet is retried only once its due date has come.
    charge = (
        subscription.charges.filter(Q(status=ChargeStatus.FAILED) | Q(status=ChargeStatus.DUE, due_on__lte=today))
        .order_by("period")
        .first()
    )
    if charge is None:
        raise StaffSubscriptionError.of("nothing_to_retry")
    if subscription.provider == PaymentProviderName.PAYPAL:
        outcome = MSG_RETRY_SENT.format(period=charge.period)
        with transaction.atomic():
            _log(subscription, SubscriptionActionKind.RETRY, by=by, reason=reason, outcome=outcome)
            enqueue_after_commit(subscription_paypal_retry, charge_id=charge.pk)
        return outcome
    charge = subscription_charge_attempt(charge_id=charge.pk, as_of=today, force=True)
    if charge.status == ChargeStatus.PAID:
        outcome = MSG_RETRY_PAID.format(period=charge.period)
    elif charge.status == ChargeStatus.FAILED:
        outcome = MSG_RETRY_FAILED.format(period=charge.period)
    else:
        outcome = MSG_RETRY_PENDING.format(period=charge.period)
    _log(subscription, SubscriptionActionKind.RETRY, by=by, reason=reason, outcome=outcome)
    return outcome


# --- cancel, end the reduced plan -------------------------------------------------------------------------------


def _current_paid_charge(subscription: Subscription, today: date_type) -> SubscriptionCharge | None:
    paid = [c for c in subscription.charges.filter(status=ChargeStatus.PAID).order_by("period") if c.due_on <= today]
    for charge in paid:
        if charge.due_on <= today <= period_ends_on(subscription, charge.period):
            return charge
    return paid[-1] if paid else None


def subscription_close(subscription: Subscription, *, status: str) -> None:
    """Under the subscription's lock: nothing more is charged (unpaid periods cancelled), PayPal told in a task."""
    subscription.status = status
    subscription.save(update_fields=["status", "updated_at"])
    subscription.charges.filter(status__in=(ChargeStatus.DUE, ChargeStatus.FAILED, ChargeStatus.PROCESSING)).update(
        status=ChargeStatus.CANCELLED, next_attempt_on=None
    )
    if subscription.provider == PaymentProviderName.PAYPAL:
        enqueue_after_commit(subscription_paypal_cancel, subscription_id=subscription.pk)


def subscription_cancel(*, subscription_id: int, by, reason: str, refund: bool, today: date_type | None = None) -> str:
    """Staff cancel a subscription: nothing more is charged. Without refund the pass stays valid through the last
    paid period; with it, the current period's money goes back through the provider (a task, once) and the pass
    books nothing from today."""
    today = today or timezone.localdate()
    reason = _reason(reason)
    with transaction.atomic():
        subscription = _locked_after_its_order(subscription_id) if refund else _locked(subscription_id)
        if subscription.status not in (*LIVE_STATUSES, SubscriptionStatus.FROZEN):
            raise SubscriptionError.of("not_live")
        subscription_close(subscription, status=SubscriptionStatus.CANCELLED)
        outcome = MSG_CANCELLED
        kind = SubscriptionActionKind.CANCEL
        if refund:
            kind = SubscriptionActionKind.CANCEL_REFUND
            charge = _current_paid_charge(subscription, today)
            if charge is None:
                outcome = MSG_CANCELLED_NOTHING_TO_REFUND
            else:
                # REFUNDED without a refund id: the provider's refund is on its way (task now, retried every 10 min).
                SubscriptionCharge.objects.filter(pk=charge.pk).update(status=ChargeStatus.REFUNDED)
                # The period's invoice gets its credit note in this transaction (invoices' receiver,
                # docs/decisions.md 40).
                subscription_charge_refunded.send(sender=SubscriptionCharge, charge_id=charge.pk, reason=reason)
                subscription.periods_paid = subscription.charges.filter(status=ChargeStatus.PAID).count()
                subscription.save(update_fields=["periods_paid", "updated_at"])
                pass_validity_set(
                    pass_id=subscription.granted_pass_id,
                    expires_on=today - timedelta(days=1),
                    reason=f"Abonnement annulé, période {charge.period} remboursée : {reason}",
                    by=by,
                )
                outcome = MSG_CANCELLED_REFUND.format(period=charge.period, amount=_euros(charge.amount))
                enqueue_after_commit(subscription_charge_refund, charge_id=charge.pk)
        _log(subscription, kind, by=by, reason=reason, outcome=outcome)
    return outcome


def subscription_end_reduced(*, subscription_id: int, by, reason: str) -> str:
    """Staff end a student or job-seeker plan (the member no longer qualifies): nothing more is charged, the pass
    stays valid through the last paid period; the declaration keeps when it ended."""
    reason = _reason(reason)
    with transaction.atomic():
        subscription = _locked(subscription_id)
        declaration = lock_reduced_declaration(order_id=subscription.source_order_id)
        if declaration is None:
            raise StaffSubscriptionError.of("not_reduced")
        if subscription.status not in (*LIVE_STATUSES, SubscriptionStatus.FROZEN):
            raise SubscriptionError.of("not_live")
        declaration.ended_at = timezone.now()
        declaration.save(update_fields=["ended_at"])
        subscription_close(subscription, status=SubscriptionStatus.ENDED)
        _log(subscription, SubscriptionActionKind.END_REDUCED, by=by, reason=reason, outcome=MSG_REDUCED_ENDED)
    return MSG_REDUCED_ENDED


# --- provider work (tasks) --------------------------------------------------------------------------------------


def subscription_charge_refund_run(*, charge_id: int) -> str:
    """Refund one period's money through its provider, once: one idempotency key per charge, the refund id kept.
    Left for the next retry when the provider cannot be reached."""
    charge = SubscriptionCharge.objects.select_related("subscription").get(pk=charge_id)
    if charge.status != ChargeStatus.REFUNDED or charge.refund_id:
        return "nothing to refund"
    request_id = f"refund-subscription-charge-{charge.pk}"
    try:
        # Charged to a saved card or mandate: refunded where it was charged; else by the subscription's provider.
        result = method_refund(
            subscription=charge.subscription, reference=charge.provider_reference, request_id=request_id
        )
        if result is None and charge.subscription.provider == PaymentProviderName.SIMULATOR:
            result = SimulatorProvider().refund_capture(capture_id=charge.provider_reference, request_id=request_id)
        elif result is None:
            result = PayPalSubscriptions(get_provider()).refund_sale(
                sale_id=charge.provider_reference, request_id=request_id
            )
    except ProviderError as exc:
        logger.warning("Refund of subscription charge %s failed: %s", charge_id, exc.message)
        return "retry"
    if result.status not in REFUND_ACCEPTED:
        return "retry"
    with transaction.atomic():
        locked = lock_charge_alone(charge_id)
        if not locked.refund_id:
            locked.refund_id = (result.id or request_id)[:64]
            locked.refunded_at = timezone.now()
            locked.save(update_fields=["refund_id", "refunded_at", "updated_at"])
    return "refunded"


def subscription_refunds_retry() -> int:
    done = 0
    for charge_id in SubscriptionCharge.objects.filter(status=ChargeStatus.REFUNDED, refund_id="").values_list(
        "pk", flat=True
    ):
        done += subscription_charge_refund_run(charge_id=charge_id) == "refunded"
    return done


def subscription_paypal_cancel_run(*, subscription_id: int) -> str:
    subscription = Subscription.objects.select_related("source_order").get(pk=subscription_id)
    if subscription.provider != PaymentProviderName.PAYPAL:
        return "not paypal"
    last = subscription.actions.order_by("-created_at", "-id").first()
    reason = (last.reason if last else "") or "Annulé par le studio"
    PayPalSubscriptions(get_provider()).cancel(subscription_id=subscription.source_order.order_id, reason=reason)
    return "cancelled"


RETRY_DELAY = timedelta(minutes=10)


@task
def subscription_paypal_cancel(subscription_id: int) -> str:
    """A subscription staff cancelled (or whose reduced rate ended): cancel it at PayPal so it charges no more; PayPal
    unreachable, tried again 10 minutes later."""
    try:
        return subscription_paypal_cancel_run(subscription_id=subscription_id)
    except ProviderError as exc:
        logger.warning("PayPal cancellation of subscription %s failed: %s; retried", subscription_id, exc.message)
        if subscription_paypal_cancel.get_backend().supports_defer:
            subscription_paypal_cancel.using(run_after=timezone.now() + RETRY_DELAY).enqueue(
                subscription_id=subscription_id
            )
        return "retry"


@task
def subscription_charge_refund(charge_id: int) -> str:
    """The refund of a cancelled subscription's current period, once (retried by subscriptions' job when it failed)."""
    return subscription_charge_refund_run(charge_id=charge_id)
