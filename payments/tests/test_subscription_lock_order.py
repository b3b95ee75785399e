"""Subscriptions on PostgreSQL: the scheduler's charge of a period and a staff action on the same subscription (cancel,
freeze) at once. Every writer locks in the documented order (payments/services/locking.py: Subscription before its
SubscriptionCharge), so neither deadlocks nor fails, and the end state is consistent.

The interleaving is forced, not hoped for: while the charge holds a lock on the period's charge row, the staff action
starts and runs until it waits on a lock (or ends); only then does the charge go on. In the other order (the
charge row first, then the subscription) the cancel would hold the subscription and wait for the charge, which
would wait for the subscription: PostgreSQL's deadlock detector would abort one of them."""

import re
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from bookings.services.passes import add_months
from payments.models import SimulatedProviderOrder
from payments.subscriptions import periods
from payments.subscriptions.models import (
    ChargeStatus,
    Subscription,
    SubscriptionAction,
    SubscriptionActionKind,
    SubscriptionCharge,
    SubscriptionStatus,
)
from payments.subscriptions.services import common as subs
from payments.subscriptions.services import staff as staff_actions
from payments.subscriptions.services.lifecycle import subscription_charges_run, subscription_freeze

from .test_concurrency import _race
from .test_subscription_concurrency import _subscribe

pytestmark = pytest.mark.postgres

ROUNDS = 3
# A charge row locked by itself (not joined with its subscription in the same statement).
CHARGE_ROW_LOCK = re.compile(r'^SELECT .* FROM "payments_subscriptioncharge" WHERE .* FOR UPDATE', re.S)


def _blocked_or_done(pid_box: list, done: threading.Event) -> bool:
    if done.is_set():
        return True
    if not pid_box:
        return False
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid_box[0]])
        row = cursor.fetchone()
    return bool(row) and row[0] == "Lock"


def _interleaved(charge, staff_action):
    """Run `charge` on a thread; once it has locked a charge row, run `staff_action` on another thread until that one
    waits on a lock or ends, then let the charge go on. Answers (charge's result, staff action's result); any
    exception (a deadlock, an error) fails the test."""
    errors, results, pid_box = [], {}, []
    staff_done, triggered = threading.Event(), threading.Event()

    def staff_thread():
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pid_box.append(cursor.fetchone()[0])
            results["staff"] = staff_action()
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            staff_done.set()
            connection.close()

    staff = threading.Thread(target=staff_thread)

    def pause_after_charge_lock(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if not triggered.is_set() and CHARGE_ROW_LOCK.match(sql):
            triggered.set()
            staff.start()
            deadline = time.monotonic() + 15
            while not _blocked_or_done(pid_box, staff_done) and time.monotonic() < deadline:
                time.sleep(0.01)  # polling a condition (the other thread waits on our lock), not a fixed wait
        return result

    def charge_thread():
        try:
            with connection.execute_wrapper(pause_after_charge_lock):
                results["charge"] = charge()
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    runner = threading.Thread(target=charge_thread)
    runner.start()
    runner.join(timeout=60)
    if triggered.is_set():
        staff.join(timeout=60)
    assert triggered.is_set(), "the charge never locked its charge row"
    assert not errors, errors
    return results["charge"], results["staff"]


def _second_period_due(member):
    subscription = _subscribe(member)
    return subscription, add_months(subscription.starts_on, 1)


def test_a_charge_and_a_staff_cancel_of_the_same_subscription_at_once_both_finish(member, staff):
    subscription, due = _second_period_due(member)
    outcome, message = _interleaved(
        lambda: subscription_charges_run(as_of=due),
        lambda: staff_actions.subscription_cancel(
            subscription_id=subscription.pk, by=staff, reason="Départ du membre", refund=False
        ),
    )
    assert outcome["paid"] == 1
    assert message == "Abonnement annulé : plus aucune échéance ne sera prélevée."
    subscription.refresh_from_db()
    charge = SubscriptionCharge.objects.get(subscription=subscription, period=2)
    # The card was charged before the cancel: the period is recorded paid, the pass runs through it, nothing more.
    assert subscription.status == SubscriptionStatus.CANCELLED
    assert (charge.status, charge.attempts) == (ChargeStatus.PAID, 1)
    assert subscription.periods_paid == 2
    assert SimulatedProviderOrder.objects.filter(order_id__startswith="SIMSUB-").count() == 1
    assert subscription.granted_pass.expires_on == periods.period_ends_on(subscription, 2)
    assert SubscriptionAction.objects.get(subscription=subscription).kind == SubscriptionActionKind.CANCEL
    assert not subscription.charges.filter(status__in=subs.UNPAID_CHARGES).exists()


def test_a_charge_and_a_staff_freeze_of_the_same_subscription_at_once_both_finish(member, staff):
    subscription, due = _second_period_due(member)
    today = timezone.localdate()
    _, frozen = _interleaved(
        lambda: subscription_charges_run(as_of=due),
        lambda: subscription_freeze(
            subscription_id=subscription.pk, starts_on=today, weeks=2, reason="Blessure au poignet", by=staff
        ),
    )
    assert frozen.pk == subscription.pk
    subscription = Subscription.objects.get(pk=subscription.pk)
    charge = SubscriptionCharge.objects.get(subscription=subscription, period=2)
    assert charge.status == ChargeStatus.PAID
    assert subscription.status == SubscriptionStatus.FROZEN
    assert subscription.periods_paid == 2
    # Whichever came first, the pass runs through the paid period moved by the two weeks of the freeze.
    assert subscription.granted_pass.expires_on == add_months(subscription.starts_on, 2) + timedelta(weeks=2, days=-1)
    assert subscription.granted_pass.expires_on == periods.period_ends_on(subscription, 2)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_scheduler_and_a_staff_cancel_racing_leave_money_and_records_in_step(member, staff, round_):
    subscription, due = _second_period_due(member)
    _race(
        lambda: subscription_charges_run(as_of=due),
        lambda: staff_actions.subscription_cancel(
            subscription_id=subscription.pk, by=staff, reason="Départ du membre", refund=False
        ),
    )
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.CANCELLED
    charged = SimulatedProviderOrder.objects.filter(order_id__startswith="SIMSUB-").count()
    paid = subscription.charges.filter(status=ChargeStatus.PAID).count()
    # Money taken at the provider <=> the period recorded paid; nothing left to charge.
    assert paid == 1 + charged
    assert subscription.periods_paid == paid
    assert not subscription.charges.filter(status__in=subs.UNPAID_CHARGES).exists()
