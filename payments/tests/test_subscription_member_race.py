"""The member's "Résilier mon abonnement" on PostgreSQL (real row locks, docs/decisions.md 46): two at once record
one termination with one e-mail; racing the scheduler's charge of a period, the period (still due under the
commitment) is charged once and kept, and the termination is recorded."""

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
    assert len(set(messages)) == 1 and messages[0].startswith("Votre résiliation est enregistrée")
    assert "seront prélevées comme prévu" in messages[0]
    assert SubscriptionAction.objects.filter(kind=SubscriptionActionKind.MEMBER_TERMINATE).count() == 1
    assert OutgoingEmail.objects.filter(template="payments_subscription_terminated").count() == 1
    assert Subscription.objects.get(pk=subscription.pk).status == SubscriptionStatus.ACTIVE


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
    assert subscription.status == SubscriptionStatus.ACTIVE
    assert subscription.actions.filter(kind=SubscriptionActionKind.MEMBER_TERMINATE).count() == 1
    # whichever went first, the period is still due under the commitment: charged once, kept, counted
    charge = SubscriptionCharge.objects.get(subscription=subscription, period=2)
    assert charge.status == ChargeStatus.PAID
    assert subscription_charges().count() - before == 1 and subscription.periods_paid == 2
    pass_obj = Pass.objects.get(pk=subscription.granted_pass_id)
    assert pass_obj.expires_on == add_months(subscription.starts_on, 2) - timedelta(days=1)
    # a second run the same day charges nothing more
    subscription_charges_run(as_of=due)
    assert subscription_charges().count() - before == 1
