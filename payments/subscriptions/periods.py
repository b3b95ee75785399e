"""When a subscription's periods fall (docs/decisions.md 24–26): each period's due date and end, and the commitment's
end, every freeze moving them by its weeks. Pure dates over the model, read by the services and the selectors alike."""

from datetime import date as date_type
from datetime import timedelta

from bookings.services.passes import add_months
from courses.models import Tariff

from .models import Subscription


def tariff_commitment_periods(tariff: Tariff, period_months: int) -> int:
    """The periods a new subscription to the tariff commits to (docs/decisions.md 51): the tariff's own number when
    staff set one, else the periods its validity holds, at least one."""
    if tariff.commitment_periods:
        return tariff.commitment_periods
    return max(tariff.pass_validity_months // period_months, 1)


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
