"""Two withdrawals of one class card at once, on PostgreSQL (real row locks): one is recorded, the other is told it
was done, and the unused part is refunded once. A subscription's withdrawal racing the staff's cancel with refund:
the subscription's row lock lets one of them give the money back, never both."""

from decimal import Decimal

import pytest

from bookings.models import Pass
from courses.tests.factories import TariffFactory
from invoices.models import Invoice, InvoiceKind
from payments.models import PaymentOrder, PaymentStatus
from payments.services.capture import payment_order_capture
from payments.services.orders import payment_order_create
from payments.services.withdrawal import MSG_WITHDRAWAL_DONE, WithdrawalError, payment_order_withdraw
from payments.simulator import SimulatedProviderOrder, SimulatorProvider
from payments.subscriptions.models import ChargeStatus, Subscription, SubscriptionStatus
from payments.subscriptions.services.common import SubscriptionError
from payments.subscriptions.services.staff import subscription_cancel

from .test_concurrency import _race_all

pytestmark = pytest.mark.postgres

ROUNDS = 3


def _paid_card(member) -> PaymentOrder:
    card = TariffFactory(title="Carte 10 cours", type="forfait", price=Decimal("190.00"), pass_credits=10,
                         pass_validity_months=6)  # fmt: skip
    order = payment_order_create(
        user=member, amount=Decimal("190.00"), email=member.email, first_name="Emma", last_name="Petit",
        title=card.title, type=card.type, tariff_id=card.pk, quantity=1, accept_terms=True, immediate_start=True,
    )  # fmt: skip
    SimulatorProvider().approve_order(order_id=order.order_id, card_declined=False)
    assert payment_order_capture(order_id=order.order_id, user=member).completed
    return PaymentOrder.objects.get(pk=order.pk)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_withdrawals_at_once_refund_once(member, round_):
    order = _paid_card(member)
    Pass.objects.filter(pk=order.granted_pass_id).update(credits_left=8)

    def withdraw():
        return payment_order_withdraw(user=member, order_id=order.order_id)

    outcomes = _race_all([withdraw, withdraw])
    done = [o for o in outcomes if not isinstance(o, Exception)]
    refused = [o for o in outcomes if isinstance(o, WithdrawalError)]
    assert len(done) == 1 and len(refused) == 1, outcomes
    assert refused[0].message == MSG_WITHDRAWAL_DONE
    order.refresh_from_db()
    assert order.status == PaymentStatus.REFUNDED and order.withdrawal_refund_amount == Decimal("152.00")
    assert SimulatedProviderOrder.objects.filter(order_id=order.order_id).exclude(refund_id="").count() == 1
    assert Invoice.objects.filter(kind=InvoiceKind.CREDIT_NOTE, payment_order=order).count() == 1
    assert Pass.objects.get(pk=order.granted_pass_id).credits_left == 0


def _paid_subscription(member) -> PaymentOrder:
    annual = TariffFactory(
        title="Abonnement annuel illimité", type="abonnement", price=Decimal("55.00"), frequency="par mois",
        validity="12 mois", pass_unlimited=True, pass_validity_months=12,
    )  # fmt: skip
    order = payment_order_create(
        user=member, amount=Decimal("55.00"), email=member.email, first_name="Emma", last_name="Petit",
        title=annual.title, type=annual.type, tariff_id=annual.pk, quantity=1, accept_terms=True, immediate_start=True,
    )  # fmt: skip
    SimulatorProvider().approve_order(order_id=order.order_id, card_declined=False)
    assert payment_order_capture(order_id=order.order_id, user=member).completed
    return PaymentOrder.objects.get(pk=order.pk)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_withdrawal_racing_the_staffs_cancel_with_refund_gives_the_money_back_once(member, admin_user, round_):
    order = _paid_subscription(member)
    subscription = Subscription.objects.get(source_order=order)

    def withdraw():
        return payment_order_withdraw(user=member, order_id=order.order_id)

    def staff_cancel():
        return subscription_cancel(subscription_id=subscription.pk, by=admin_user, reason="Départ", refund=True)

    outcomes = _race_all([withdraw, staff_cancel])
    assert len([o for o in outcomes if not isinstance(o, Exception)]) == 1, outcomes
    assert all(isinstance(o, (WithdrawalError, SubscriptionError)) for o in outcomes if isinstance(o, Exception)), (
        outcomes
    )
    order.refresh_from_db()
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.CANCELLED
    withdrawn = order.withdrawn_at is not None
    charge_refunded = subscription.charges.filter(status=ChargeStatus.REFUNDED).count()
    # Exactly one of the two gave the first period's money back, never both.
    assert withdrawn + charge_refunded == 1
    assert (order.status == PaymentStatus.REFUNDED) == withdrawn
