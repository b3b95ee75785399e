"""A subscription period paid at the front desk under concurrency (PostgreSQL, real row locks, threads): two staff
paying the same period at once record one payment and one invoice, the other gets a French refusal; the same sale
sent twice at once is one payment (docs/decisions.md 43)."""

import uuid
from decimal import Decimal

import pytest

from accounts.tests.factories import StaffFactory, UserFactory
from courses.tests.factories import TariffFactory
from invoices.models import Invoice
from payments.models import DeskPaymentLine, PaymentOrder
from payments.services.desk import MSG_DESK_CHARGE_NOT_DUE, DeskLine, desk_sale_record
from payments.services.desk_periods import desk_period_sale_record
from payments.subscriptions.models import ChargeStatus, Subscription
from payments.subscriptions.periods import period_due_on
from payments.subscriptions.services.lifecycle import subscription_charges_run

from .test_desk_concurrency import _race


def _period_due(member):
    staff = StaffFactory()
    plan = TariffFactory(
        title="Abonnement mensuel",
        price=Decimal("55.00"),
        frequency="par mois",
        pass_unlimited=True,
        pass_validity_months=12,
    )
    desk_sale_record(
        staff=staff,
        member_id=member.pk,
        tariff_id=plan.pk,
        lines=[DeskLine(means="cheque", amount=Decimal("55.00"))],
        idempotency_key=uuid.uuid4(),
    )
    subscription = Subscription.objects.get(member=member)
    subscription_charges_run(as_of=period_due_on(subscription, 2))
    return subscription.charges.get(period=2)


def _pay(staff, member, charge, key):
    lines = [DeskLine(means="cash", amount=Decimal("30.00")), DeskLine(means="card_terminal", amount=Decimal("25.00"))]
    return lambda: desk_period_sale_record(
        staff=staff, member_id=member.pk, charge_id=charge.pk, lines=lines, idempotency_key=key
    )


@pytest.mark.postgres
def test_two_staff_paying_the_same_period_at_once_record_it_once():
    member = UserFactory()
    charge = _period_due(member)
    assert charge.status == ChargeStatus.DUE
    first, second = StaffFactory(), StaffFactory()
    results, refusals, crashes = _race(
        _pay(first, member, charge, uuid.uuid4()), _pay(second, member, charge, uuid.uuid4())
    )
    assert crashes == []
    assert len(results) == 1 and refusals == [MSG_DESK_CHARGE_NOT_DUE]
    charge.refresh_from_db()
    assert charge.status == ChargeStatus.PAID and charge.provider_reference == results[0].order_id
    assert Invoice.objects.filter(subscription_charge=charge).count() == 1
    assert PaymentOrder.objects.filter(type="ECHEANCE").count() == 1  # the refused sale left nothing behind
    assert DeskPaymentLine.objects.filter(order__type="ECHEANCE").count() == 2


@pytest.mark.postgres
def test_the_same_period_sale_sent_twice_at_once_is_one_payment():
    member = UserFactory()
    charge = _period_due(member)
    staff, key = StaffFactory(), uuid.uuid4()
    results, refusals, crashes = _race(_pay(staff, member, charge, key), _pay(staff, member, charge, key))
    assert crashes == [] and refusals == []
    assert {order.order_id for order in results} == {f"DESK-{key.hex}"}
    assert Invoice.objects.filter(subscription_charge=charge).count() == 1
    assert PaymentOrder.objects.filter(type="ECHEANCE").count() == 1
