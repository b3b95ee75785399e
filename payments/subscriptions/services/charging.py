"""Charging a subscription's periods, split from `common.py`: the
charge rows come due, one period charged once (the scheduler, "Payer maintenant", staff's retry), its outcome
recorded (paid: the pass extended, the unpaid block lifted; refused: retried in 3 days, the member e-mailed, the pass
blocked 7 days after the due date).

Charged once: the charge row is locked and marked PROCESSING before the provider is called (outside any transaction),
with an idempotency key per attempt; a second scheduler finds it PROCESSING or PAID and does nothing. Locks in the
documented order (payments/services/locking.py): the Subscription, then its SubscriptionCharge, then bookings' Pass.
"""

import logging
from datetime import date as date_type
from datetime import timedelta

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from bookings.services.pass_rules import pass_rule_set, pass_validity_set

from ...provider_types import CAPTURE_COMPLETED, ProviderError
from ...providers import get_provider
from ...services.locking import lock_charge, lock_subscription
from ...signals import subscription_charge_paid as subscription_charge_paid_signal
from ...simulator import SimulatorProvider
from ..models import ChargeStatus, Subscription, SubscriptionCharge, SubscriptionStatus
from ..periods import period_due_on, period_ends_on
from ..simulated_debits import FAILED, PAID, PROCESSING, DebitOutcome
from .common import (
    BLOCKED_AFTER_DAYS,
    LIVE_STATUSES,
    RETRY_AFTER_DAYS,
    STALE_PROCESSING,
    UNPAID_CHARGES,
    SubscriptionError,
)
from .emails import subscription_charge_email
from .method_charging import method_charge
from .saved_methods import CHARGED_BY_STUDIO, PAID_AT_DESK_UNLESS_SAVED

logger = logging.getLogger(__name__)


def _charges_create_due(*, as_of: date_type) -> None:
    """Create the charge row of every period come due by `as_of` (simulator subscriptions; PayPal's own are created
    by its webhooks), under the subscription's lock and only while it is live: a staff cancel or freeze committed
    meanwhile is seen (no period left to pay on a cancelled subscription, due dates moved by a new freeze). Two
    schedulers queue on the same lock, and the unique constraint keeps one row per period."""
    live = (
        Subscription.objects.filter(
            status__in=LIVE_STATUSES, provider__in=(*CHARGED_BY_STUDIO, *PAID_AT_DESK_UNLESS_SAVED)
        )
        .annotate(last_period=Max("charges__period"))
        .prefetch_related("freezes")
        .order_by("pk")
    )
    for candidate in live:
        period = (candidate.last_period or 0) + 1
        if period > candidate.periods_committed or period_due_on(candidate, period) > as_of:
            continue
        with transaction.atomic():
            subscription = lock_subscription(candidate.pk)
            if subscription is None or subscription.status not in LIVE_STATUSES:
                continue
            while period <= subscription.periods_committed and (due := period_due_on(subscription, period)) <= as_of:
                charge, _ = SubscriptionCharge.objects.get_or_create(
                    subscription=subscription, period=period, defaults={"due_on": due, "amount": subscription.amount}
                )
                if paid_at_desk(subscription):
                    _desk_period_due(subscription=subscription, charge=charge)
                period += 1


def paid_at_desk(subscription: Subscription) -> bool:
    """Sold at the desk and no card or mandate saved since: its periods are paid at the desk (docs/decisions.md 43),
    the scheduler never charges them. A method saved online later moves the subscription to it (saved_methods.py)."""
    return subscription.provider in PAID_AT_DESK_UNLESS_SAVED and subscription.saved_method_id is None


def _desk_period_due(*, subscription: Subscription, charge: SubscriptionCharge) -> None:
    """A period paid at the desk come due stays DUE ("À régler à l'accueil"); point 25's unpaid rules run from its due
    date as for a refused one: the pass runs through the period, books nothing new from 7 days after the first
    unpaid due date, and staff see the subscription "Impayé". No attempt, no retry, no refusal e-mail."""
    if charge.status != ChargeStatus.DUE:
        return
    if subscription.status == SubscriptionStatus.ACTIVE:
        subscription.status = SubscriptionStatus.UNPAID
        subscription.save(update_fields=["status", "updated_at"])
    pass_obj = subscription.granted_pass
    through = period_ends_on(subscription, charge.period)
    if through > pass_obj.expires_on:
        pass_validity_set(
            pass_id=pass_obj.pk, expires_on=through, reason=f"Abonnement : période {charge.period} à régler à l'accueil"
        )
    first_unpaid = (
        subscription.charges.filter(status__in=(ChargeStatus.DUE, ChargeStatus.FAILED))
        .order_by("due_on")
        .values_list("due_on", flat=True)
        .first()
    )
    pass_rule_set(pass_id=pass_obj.pk, blocked_from=first_unpaid + timedelta(days=BLOCKED_AFTER_DAYS))


def _unpaid_left(subscription: Subscription):
    """The periods that keep a subscription unpaid: refused ones, and for one paid at the desk, those come due."""
    statuses = (ChargeStatus.FAILED, ChargeStatus.DUE) if paid_at_desk(subscription) else (ChargeStatus.FAILED,)
    return subscription.charges.filter(status__in=statuses)


def subscription_charges_due(*, as_of: date_type) -> list[int]:
    """The charges to attempt as of a day: due, failed and due for a retry, or left PROCESSING by a dead runner."""
    _charges_create_due(as_of=as_of)
    stale = timezone.now() - STALE_PROCESSING
    charges = SubscriptionCharge.objects.filter(subscription__status__in=LIVE_STATUSES, due_on__lte=as_of).filter(
        Q(subscription__provider__in=CHARGED_BY_STUDIO)
        # Sold at the desk: charged only once the member saved a card or mandate online.
        | Q(subscription__provider__in=PAID_AT_DESK_UNLESS_SAVED, subscription__saved_method__isnull=False)
    )
    ids = []
    for charge in charges.filter(status__in=UNPAID_CHARGES).order_by("due_on", "pk"):
        if charge.status == ChargeStatus.FAILED and charge.next_attempt_on and charge.next_attempt_on > as_of:
            continue
        if charge.status == ChargeStatus.PROCESSING and (charge.debit_started_at or charge.updated_at > stale):
            continue  # being charged right now, or a SEPA debit the bank has not settled yet
        ids.append(charge.pk)
    return ids


def _request_id(charge: SubscriptionCharge) -> str:
    return f"subscription-{charge.subscription_id}-period-{charge.period}-attempt-{charge.attempts}"


def subscription_charge_attempt(*, charge_id: int, as_of: date_type, force: bool = False) -> SubscriptionCharge:
    """Charge one period once. `force` (the member's "Payer maintenant") ignores the retry date."""
    stale = timezone.now() - STALE_PROCESSING
    with transaction.atomic():
        subscription, charge = lock_charge(charge_id)
        if charge.status in (ChargeStatus.PAID, ChargeStatus.CANCELLED) or subscription.status not in LIVE_STATUSES:
            return charge
        if paid_at_desk(subscription):
            return charge  # no card or mandate to charge: the desk takes its payment
        if charge.status == ChargeStatus.PROCESSING and (charge.debit_started_at or charge.updated_at > stale):
            return charge  # another runner is charging it right now, or its SEPA debit awaits the bank
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
        charge.debit_started_at = None
        charge.save(update_fields=["status", "attempts", "debit_started_at", "updated_at"])
        method = subscription.saved_method
    if method is not None or subscription.provider != SimulatorProvider.name:
        outcome = method_charge(subscription=subscription, charge=charge, method=method, request_id=_request_id(charge))
        if outcome is None:
            return charge  # the provider did not answer: the next run resumes with the same key
        charged = _record_outcome(charge_id=charge.pk, outcome=outcome, as_of=as_of)
        charged.attempted_now = True
        return charged
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
        charged = subscription_charge_paid(charge_id=charge.pk, reference=result.capture_id)
    else:
        charged = subscription_charge_failed(charge_id=charge.pk, as_of=as_of, note=result.capture_status or "DECLINED")
    # This call asked the provider: a runner that found the period already paid (or being paid) did not, and the
    # daily job counts only what it did itself.
    charged.attempted_now = True
    return charged


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
        subscription, charge = lock_charge(charge_id)
        if charge.status == ChargeStatus.PAID:
            return charge
        charge.status = ChargeStatus.PAID
        charge.paid_at = timezone.now()
        charge.provider_reference = (reference or "")[:64]
        charge.next_attempt_on = None
        charge.failure_note = ""
        charge.save(
            update_fields=["status", "paid_at", "provider_reference", "next_attempt_on", "failure_note", "updated_at"]
        )
        subscription.periods_paid = subscription.charges.filter(status=ChargeStatus.PAID).count()
        still_unpaid = _unpaid_left(subscription).exists()
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
        # The period's invoice is numbered in this transaction (invoices' receiver, docs/decisions.md 40); the same
        # receiver queues its receipt, with the invoice's PDF, in a task after the commit.
        subscription_charge_paid_signal.send(sender=SubscriptionCharge, charge_id=charge.pk)
    return charge


def subscription_charge_failed(*, charge_id: int, as_of: date_type, note: str = "") -> SubscriptionCharge:
    """A period's charge was refused: retried in 3 days, the member e-mailed with "Payer maintenant", the pass
    blocked for new bookings from 7 days after the due date. The member stays committed: the pass runs through the
    unpaid period, but books nothing new once blocked."""
    with transaction.atomic():
        subscription, charge = lock_charge(charge_id)
        if charge.status == ChargeStatus.PAID:
            return charge
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
        first_unpaid = _unpaid_left(subscription).order_by("due_on").values_list("due_on", flat=True).first()
        pass_rule_set(pass_id=pass_obj.pk, blocked_from=first_unpaid + timedelta(days=BLOCKED_AFTER_DAYS))
        transaction.on_commit(lambda: subscription_charge_email(charge_id=charge.pk, paid=False))
    return charge


def _record_outcome(*, charge_id: int, outcome: DebitOutcome, as_of: date_type) -> SubscriptionCharge:
    if outcome.status == PAID:
        return subscription_charge_paid(charge_id=charge_id, reference=outcome.reference)
    if outcome.status == PROCESSING:
        return subscription_debit_started(charge_id=charge_id, reference=outcome.reference)
    return subscription_charge_failed(charge_id=charge_id, as_of=as_of, note=outcome.note or FAILED)


def subscription_debit_started(*, charge_id: int, reference: str) -> SubscriptionCharge:
    """A SEPA debit was sent to the bank: the period stays PROCESSING ("En cours") until it is settled, and no
    scheduler charges it again meanwhile. The pass runs through the period meanwhile: the bank takes days to answer,
    and a member whose debit is on its way books the period's classes as one whose card was refused does (a
    returned debit then blocks new bookings, subscription_charge_failed)."""
    with transaction.atomic():
        subscription, charge = lock_charge(charge_id)
        if charge.status != ChargeStatus.PROCESSING:
            return charge  # settled already (a webhook outran this answer)
        charge.debit_started_at = timezone.now()
        charge.provider_reference = (reference or "")[:64]
        charge.save(update_fields=["debit_started_at", "provider_reference", "updated_at"])
        pass_obj = subscription.granted_pass
        through = period_ends_on(subscription, charge.period)
        if through > pass_obj.expires_on:
            pass_validity_set(
                pass_id=pass_obj.pk,
                expires_on=through,
                reason=f"Abonnement : période {charge.period} en cours de prélèvement",
            )
    return charge


def subscription_debit_settle(
    *, charge_id: int, reference: str, paid: bool, as_of: date_type, note: str = ""
) -> SubscriptionCharge:
    """The bank settled a period's debit (Stripe's payment_intent.succeeded or payment_failed, the simulator's
    settling job): paid, or refused, which starts the unpaid path (retry, e-mail, block). Applied once, and only to
    the attempt in flight: an event of an earlier attempt, or a second delivery, changes nothing."""
    with transaction.atomic():
        _subscription, charge = lock_charge(charge_id)
        if charge.status != ChargeStatus.PROCESSING:
            return charge
        if reference and charge.provider_reference and charge.provider_reference != reference:
            return charge
        if paid:
            settled = subscription_charge_paid(charge_id=charge_id, reference=reference or charge.provider_reference)
        else:
            settled = subscription_charge_failed(charge_id=charge_id, as_of=as_of, note=note or FAILED)
    # This call settled it: a second settling job or a redelivered event found it settled and did nothing.
    settled.settled_now = True
    return settled
