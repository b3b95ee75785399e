"""The member's own actions on their subscription (docs/decisions.md 46, Code de la consommation L215-1-1): end it
("Résilier mon abonnement") and pause it ("Suspendre") within the tariff's rules.

Ending records the member's termination and means "no renewal": the commitment still binds, so the subscription runs
to the commitment's end (its remaining periods charged as planned, retries and unpaid rules alike, the pass valid
through each paid period), then ends without a renewal invitation. With every committed period paid, nothing more is
charged and access ends with the last paid period. The member is e-mailed what remains due and the last day. A second
request answers the same and sends nothing. Pausing reuses the staff freeze
(lifecycle.subscription_freeze), so due dates, the commitment's end and the pass's end move exactly as they do then.
Both run under the subscription's row lock (payments/services/locking.py order)."""

from dataclasses import dataclass
from datetime import date as date_type
from datetime import timedelta
from decimal import Decimal

from dateutil.relativedelta import relativedelta
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from studio.emails import send_templated_email
from studio.errors import CONFLICT, ApplicationError

from ...services.locking import lock_subscription
from ..models import (
    PAUSE_WEEKS_PER_YEAR_DEFAULT,
    ChargeStatus,
    Subscription,
    SubscriptionAction,
    SubscriptionActionKind,
    SubscriptionPlan,
    SubscriptionStatus,
)
from ..periods import commitment_ends_on, period_due_on
from .common import LIVE_STATUSES, SubscriptionError
from .lifecycle import subscription_freeze

MSG_TERMINATED = (
    "Votre abonnement est résilié : vous pouvez réserver jusqu'au {last_day}. Plus rien ne sera prélevé et il ne "
    "sera pas renouvelé."
)
MSG_TERMINATED_DUE = (
    "Votre résiliation est enregistrée : vous pouvez réserver jusqu'au {last_day}. Les échéances encore dues au titre "
    "de votre engagement ({count} × {amount} €, soit {total} € au total) seront prélevées comme prévu ; l'abonnement "
    "ne sera pas renouvelé."
)
MSG_PAUSED = (
    "Votre abonnement est suspendu du {start} au {end} : vos prochaines échéances et la fin de votre abonnement "
    "sont décalées de {weeks} semaine(s)."
)
MSG_PAUSE_TOO_SOON = "La suspension commence au plus tôt demain, le {tomorrow}."
MSG_PAUSE_AFTER_END = "La suspension doit commencer au plus tard le {end}, dernier jour de votre engagement."
MSG_PAUSE_WEEKS = "La suspension dure au moins 1 semaine."
MSG_PAUSE_NOT_ALLOWED = "Votre formule ne permet pas de suspendre l'abonnement."
MSG_PAUSE_ALLOWANCE = (
    "Votre formule permet au plus {allowed} semaine(s) de suspension par an : il vous en reste {left} "
    "du {year_start} au {year_end}."
)
MSG_PAUSE_OVERLAP = "Votre abonnement est déjà suspendu ou gelé pendant une partie de ces semaines."
PAUSE_REASON = "Suspension demandée par le membre"
TERMINATE_REASON = "Résilié par le membre"
TERMINATED_SUBJECT = "Résiliation de votre abonnement"
PAUSED_SUBJECT = "Suspension de votre abonnement"


class MemberSubscriptionError(ApplicationError):
    default_code = "subscription_member_action_invalid"
    messages = {
        "pause_too_soon": MSG_PAUSE_TOO_SOON,
        "pause_after_end": MSG_PAUSE_AFTER_END,
        "pause_weeks": MSG_PAUSE_WEEKS,
        "pause_not_allowed": MSG_PAUSE_NOT_ALLOWED,
        "pause_allowance": MSG_PAUSE_ALLOWANCE,
        "pause_overlap": MSG_PAUSE_OVERLAP,
    }
    statuses = {"pause_not_allowed": CONFLICT, "pause_allowance": CONFLICT, "pause_overlap": CONFLICT}


def _day(day: date_type) -> str:
    return day.strftime("%d/%m/%Y")


def _euros(amount) -> str:
    return f"{amount:.2f}".replace(".", ",")


@dataclass(frozen=True)
class TerminationSummary:
    """What ending the subscription means, as the page shows it before the member confirms."""

    last_day: date_type  # the last day the pass books: the commitment's end while periods remain due
    commitment_ends_on: date_type
    periods_left: int  # the commitment's periods not paid yet
    period_amount: Decimal
    left_amount: Decimal
    terminated: bool  # already ended by the member

    @property
    def period_amount_text(self) -> str:
        return _euros(self.period_amount)

    @property
    def left_amount_text(self) -> str:
        return _euros(self.left_amount)

    @property
    def message(self) -> str:
        """The confirmation the member reads once terminated (the API, the page, the log)."""
        if not self.periods_left:
            return MSG_TERMINATED.format(last_day=_day(self.last_day))
        return MSG_TERMINATED_DUE.format(
            last_day=_day(self.last_day),
            count=self.periods_left,
            amount=self.period_amount_text,
            total=self.left_amount_text,
        )


def termination_summary(subscription: Subscription) -> TerminationSummary:
    paid = subscription.charges.filter(status=ChargeStatus.PAID).count()
    left = max(subscription.periods_committed - paid, 0)
    end = commitment_ends_on(subscription)
    return TerminationSummary(
        # Periods still due are charged as planned, each extending the pass: access runs to the commitment's end.
        last_day=max(end, subscription.granted_pass.expires_on) if left else subscription.granted_pass.expires_on,
        commitment_ends_on=end,
        periods_left=left,
        period_amount=subscription.amount,
        left_amount=subscription.amount * left,
        terminated=subscription.actions.filter(kind=SubscriptionActionKind.MEMBER_TERMINATE).exists(),
    )


def _own_locked(subscription_id: int, user) -> Subscription:
    # Another member's subscription answers as one that does not exist (404), never 403.
    subscription = lock_subscription(subscription_id, member=user) if user and user.is_authenticated else None
    if subscription is None:
        raise SubscriptionError.of("subscription_not_found")
    return subscription


def subscription_terminate(*, subscription_id: int, user) -> str:
    """The member terminates their subscription (idempotent: once terminated by them, the same answer and no second
    e-mail). Nothing is cancelled: the periods the commitment still holds are charged as planned (Code de la
    consommation L215-1-1 lets the member terminate online; it does not undo the commitment); the recorded
    termination stops the renewal invitation (lifecycle.subscriptions_invite_renewal)."""
    with transaction.atomic():
        subscription = _own_locked(subscription_id, user)
        if subscription.actions.filter(kind=SubscriptionActionKind.MEMBER_TERMINATE).exists():
            return termination_summary(subscription).message
        if subscription.status not in (*LIVE_STATUSES, SubscriptionStatus.FROZEN):
            raise SubscriptionError.of("not_live")
        summary = termination_summary(subscription)
        message = summary.message
        SubscriptionAction.objects.create(
            subscription=subscription,
            kind=SubscriptionActionKind.MEMBER_TERMINATE,
            by=user,
            reason=TERMINATE_REASON,
            outcome=message[:200],
        )
        # A PayPal subscription bills the commitment's cycles and then stops by itself (its plan's total_cycles):
        # nothing to cancel there.
        send_templated_email(
            to=user.email,
            subject=TERMINATED_SUBJECT,
            template="payments_subscription_terminated",
            context={
                "member": user,
                "subscription": subscription,
                "terminated_on": timezone.localdate(),
                "last_day": summary.last_day,
                "summary": summary,
                "tariffs_url": f"{settings.SITE_URL}/tarifs",
            },
            topic="payments.subscription_terminated",
            topic_id=subscription.pk,
        )
    return message


def pause_allowance(subscription: Subscription) -> int:
    plan = SubscriptionPlan.objects.filter(tariff_id=subscription.tariff_id).only("pause_weeks_per_year").first()
    return plan.pause_weeks_per_year if plan else PAUSE_WEEKS_PER_YEAR_DEFAULT


def _subscription_year(subscription: Subscription, day: date_type) -> tuple[date_type, date_type]:
    """The year of the subscription (from its start, year after year) that holds `day`."""
    years = max(relativedelta(day, subscription.starts_on).years, 0)
    start = subscription.starts_on + relativedelta(years=years)
    return start, start + relativedelta(years=1) - timedelta(days=1)


def subscription_pause(
    *, subscription_id: int, user, starts_on: date_type, weeks: int, today: date_type | None = None
) -> str:
    """The member pauses their subscription from `starts_on` (tomorrow at the earliest) for `weeks` weeks (1 at
    least, within the weeks a year their formule allows); the freeze's effects follow."""
    today = today or timezone.localdate()
    with transaction.atomic():
        subscription = _own_locked(subscription_id, user)
        if subscription.status not in (*LIVE_STATUSES, SubscriptionStatus.FROZEN):
            raise SubscriptionError.of("not_live")
        if weeks < 1:
            raise MemberSubscriptionError.of("pause_weeks", field="weeks")
        tomorrow = today + timedelta(days=1)
        if starts_on < tomorrow:
            raise MemberSubscriptionError.of("pause_too_soon", field="starts_on", tomorrow=_day(tomorrow))
        end = commitment_ends_on(subscription)
        if starts_on > end:
            raise MemberSubscriptionError.of("pause_after_end", field="starts_on", end=_day(end))
        allowed = pause_allowance(subscription)
        if allowed == 0:
            raise MemberSubscriptionError.of("pause_not_allowed")
        year_start, year_end = _subscription_year(subscription, starts_on)
        freezes = list(subscription.freezes.all())
        used = sum(f.weeks for f in freezes if f.by_id == user.pk and year_start <= f.starts_on <= year_end)
        if used + weeks > allowed:
            raise MemberSubscriptionError.of(
                "pause_allowance",
                field="weeks",
                allowed=allowed,
                left=max(allowed - used, 0),
                year_start=_day(year_start),
                year_end=_day(year_end),
            )
        pause_end = starts_on + timedelta(weeks=weeks)
        if any(f.starts_on < pause_end and starts_on < f.starts_on + timedelta(weeks=f.weeks) for f in freezes):
            raise MemberSubscriptionError.of("pause_overlap", field="starts_on")
        subscription = subscription_freeze(
            subscription_id=subscription.pk, starts_on=starts_on, weeks=weeks, reason=PAUSE_REASON, by=user, today=today
        )
        subscription = Subscription.objects.select_related("granted_pass").get(pk=subscription.pk)
        last = pause_end - timedelta(days=1)
        message = MSG_PAUSED.format(start=_day(starts_on), end=_day(last), weeks=weeks)
        SubscriptionAction.objects.create(
            subscription=subscription,
            kind=SubscriptionActionKind.MEMBER_PAUSE,
            by=user,
            reason=PAUSE_REASON,
            outcome=message[:200],
        )
        next_due = next(
            (
                period_due_on(subscription, n)
                for n in range(subscription.periods_paid + 1, subscription.periods_committed + 1)
            ),
            None,
        )
        send_templated_email(
            to=user.email,
            subject=PAUSED_SUBJECT,
            template="payments_subscription_paused",
            context={
                "member": user,
                "subscription": subscription,
                "starts_on": starts_on,
                "ends_on": last,
                "weeks": weeks,
                "pass_expires_on": subscription.granted_pass.expires_on,
                "commitment_ends_on": commitment_ends_on(subscription),
                "next_due_on": next_due,
            },
            topic="payments.subscription_paused",
            topic_id=subscription.pk,
        )
    return message
