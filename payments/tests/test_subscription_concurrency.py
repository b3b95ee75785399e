"""Subscriptions on PostgreSQL (real row locks): a period charged once by concurrent schedulers; a weekly cap of 1 holds
when the member books two classes of the same week at once."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from bookings.models import ReservationStatus
from bookings.services.pass_rules import PassRuleError
from bookings.services.passes import add_months, reservation_book_with_pass
from courses.tests.factories import CourseSessionFactory, TariffFactory
from payments.models import PaymentOrder, SimulatedProviderOrder
from payments.services.capture import payment_order_capture
from payments.services.orders import payment_order_create
from payments.simulator import SimulatorProvider
from payments.subscriptions.models import ChargeStatus, SubscriptionCharge
from payments.subscriptions.services.lifecycle import subscription_charges_run

from .test_concurrency import _race

pytestmark = pytest.mark.postgres

ROUNDS = 3


def _subscribe(member, *, weekly_cap=0):
    tariff = TariffFactory(
        type="abonnement",
        price=Decimal("55.00"),
        frequency="par mois",
        pass_unlimited=True,
        pass_validity_months=12,
        pass_weekly_cap=weekly_cap,
    )
    order = payment_order_create(
        user=member,
        amount=Decimal("55.00"),
        email=member.email,
        first_name=member.first_name,
        last_name=member.last_name,
        title=tariff.title,
        type="abonnement",
        tariff_id=tariff.pk,
    )
    SimulatorProvider().approve_order(order_id=order.order_id, card_declined=False)
    assert payment_order_capture(order_id=order.order_id, user=member).completed
    return PaymentOrder.objects.get(pk=order.pk).subscription


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_three_schedulers_at_once_charge_the_period_once(member, round_):
    subscription = _subscribe(member)
    due = add_months(subscription.starts_on, 1)
    outcomes = _race(*(lambda: subscription_charges_run(as_of=due) for _ in range(3)))
    assert sum(o["paid"] for o in outcomes) == 1
    assert SubscriptionCharge.objects.filter(subscription=subscription, period=2).count() == 1
    charge = SubscriptionCharge.objects.get(subscription=subscription, period=2)
    assert (charge.status, charge.attempts) == (ChargeStatus.PAID, 1)
    assert SimulatedProviderOrder.objects.filter(order_id__startswith="SIMSUB-").count() == 1
    subscription.refresh_from_db()
    assert subscription.periods_paid == 2


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_weekly_cap_of_one_holds_when_two_classes_of_the_week_are_booked_at_once(member, round_):
    pass_obj = _subscribe(member, weekly_cap=1).granted_pass
    monday = timezone.localdate() + timedelta(days=7 - timezone.localdate().weekday())
    sessions = []
    for offset in (1, 3):
        start = timezone.make_aware(
            timezone.datetime.combine(monday + timedelta(days=offset), timezone.datetime.min.time())
        )
        start += timedelta(hours=19)
        sessions.append(CourseSessionFactory(start=start, end=start + timedelta(hours=1)))

    def booking(session):
        try:
            return reservation_book_with_pass(
                user=member,
                session_id=session.pk,
                pass_id=pass_obj.pk,
                participants=1,
                first_name=member.first_name,
                last_name=member.last_name,
                email=member.email,
            ).status
        except PassRuleError as exc:
            return exc.code

    outcomes = _race(*(lambda s=s: booking(s) for s in sessions))
    assert sorted(outcomes) == sorted([ReservationStatus.CONFIRMED, "pass_weekly_cap"])
    assert pass_obj.reservations.filter(status=ReservationStatus.CONFIRMED).count() == 1


@pytest.mark.django_db
def test_a_run_that_finds_the_period_already_paid_counts_it_as_skipped(member, monkeypatch):
    """Schedulers racing: one that listed the period before another paid it finds it paid under the lock; it charged
    nothing, so its run does not report a payment."""
    from payments.subscriptions.services import lifecycle as subscription_lifecycle

    subscription = _subscribe(member)
    due = add_months(subscription.starts_on, 1)
    assert subscription_charges_run(as_of=due)["paid"] == 1
    paid = SubscriptionCharge.objects.get(subscription=subscription, period=2)
    monkeypatch.setattr(subscription_lifecycle, "subscription_charges_due", lambda as_of: [paid.pk])
    again = subscription_charges_run(as_of=due)
    assert (again["paid"], again["skipped"]) == (0, 1)
    assert SimulatedProviderOrder.objects.filter(order_id__startswith="SIMSUB-").count() == 1
