"""The member's "Résilier mon abonnement" on PostgreSQL (real row locks, docs/decisions.md 46): two at once end it
once with one e-mail; racing the scheduler's charge of a period, either the period was charged first and is kept, or
nothing is charged after the end."""

from datetime import timedelta

import pytest

from bookings.models import Pass
from bookings.services.passes import add_months
from payments.subscriptions.models import (
    ChargeStatus,
    Subscription,
    SubscriptionAction,
    SubscriptionActionKind,
    SubscriptionCharge,
    SubscriptionStatus,
)
from payments.subscriptions.services import member as member_actions
from payments.subscriptions.services.lifecycle import subscription_charges_run
from studio.models import OutgoingEmail

from .test_concurrency import _race
from .test_subscription_concurrency import _subscribe
from .test_subscriptions import subscription_charges

pytestmark = pytest.mark.postgres

ROUNDS = 3


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_terminates_at_once_end_it_once_with_one_email(member, round_):
    subscription = _subscribe(member)
    messages = _race(
        *(lambda: member_actions.subscription_terminate(subscription_id=subscription.pk, user=member) for _ in range(2))
    )
    assert len(set(messages)) == 1 and messages[0].startswith("Votre abonnement est résilié")
    assert SubscriptionAction.objects.filter(kind=SubscriptionActionKind.MEMBER_TERMINATE).count() == 1
    assert OutgoingEmail.objects.filter(template="payments_subscription_terminated").count() == 1
    assert Subscription.objects.get(pk=subscription.pk).status == SubscriptionStatus.CANCELLED


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_terminate_racing_the_period_charge_is_consistent(member, round_):
    subscription = _subscribe(member)
    due = add_months(subscription.starts_on, 1)
    before = subscription_charges().count()
    _race(
        lambda: subscription_charges_run(as_of=due),
        lambda: member_actions.subscription_terminate(subscription_id=subscription.pk, user=member),
    )
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.CANCELLED
    charge = SubscriptionCharge.objects.filter(subscription=subscription, period=2).first()
    charged = subscription_charges().count() - before
    pass_obj = Pass.objects.get(pk=subscription.granted_pass_id)
    if charge is not None and charge.status == ChargeStatus.PAID:
        # charged before the end: kept, counted, and the pass runs through the paid period
        assert charged == 1 and subscription.periods_paid == 2
        assert pass_obj.expires_on == add_months(subscription.starts_on, 2) - timedelta(days=1)
    else:
        # ended first: no money taken, nothing left to charge
        assert charged == 0 and subscription.periods_paid == 1
        assert pass_obj.expires_on == add_months(subscription.starts_on, 1) - timedelta(days=1)
        assert charge is None or charge.status == ChargeStatus.CANCELLED
    assert (
        SubscriptionCharge.objects.filter(
            subscription=subscription, status__in=(ChargeStatus.DUE, ChargeStatus.FAILED, ChargeStatus.PROCESSING)
        ).count()
        == 0
    )
    # a later run charges nothing more
    subscription_charges_run(as_of=add_months(subscription.starts_on, 2))
    assert subscription_charges().count() - before == charged
