"""Deposits of quoted requests on PostgreSQL (real row locks): two captures of one deposit record it once;
a member cancelling while the capture lands never leaves money kept for a cancelled request; two tabs opening the
deposit order at once get one live order."""

from datetime import time, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from payments.models import PaymentOrder, PaymentStatus
from payments.services import deposits
from payments.services.capture import payment_order_capture
from payments.simulator import SimulatorProvider
from quotes.models import PartyRequestEvent, PartyReservation
from quotes.services import parties
from quotes.workflow import QuoteError

from .test_concurrency import _race

pytestmark = pytest.mark.postgres

ROUNDS = 3


@pytest.fixture
def quoted(member, staff):
    party = PartyReservation.objects.create(
        user=member,
        date=timezone.localdate() + timedelta(days=20),
        time=time(16, 0),
        participants=8,
        email=member.email,
    )
    return parties.party_quote(party_id=party.pk, staff=staff, participants=8, spectators=0, deposit=Decimal("40.00"))


def _approved_order(member, party):
    order = deposits.deposit_order_create(user=member, kind="party", request_id=party.pk, amount=Decimal("40.00"))
    SimulatorProvider().approve_order(order_id=order.order_id, card_declined=False)
    return order


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_captures_of_one_deposit_record_it_once(member, quoted, round_):
    order = _approved_order(member, quoted)
    outcomes = _race(
        lambda: payment_order_capture(order_id=order.order_id, user=member),
        lambda: payment_order_capture(order_id=order.order_id, user=member),
    )
    assert all(o.completed for o in outcomes)
    assert PaymentOrder.objects.get(pk=order.pk).status == PaymentStatus.COMPLETED
    assert PartyRequestEvent.objects.filter(party=quoted, kind="deposit_paid").count() == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_cancellation_racing_the_capture_keeps_no_money(member, quoted, round_):
    order = _approved_order(member, quoted)

    def cancel():
        try:
            return parties.party_cancel(party_id=quoted.pk, member=member)
        except QuoteError as exc:  # cannot happen: a quoted request is cancellable whatever the deposit
            return exc

    _race(lambda: payment_order_capture(order_id=order.order_id, user=member), cancel)
    quoted.refresh_from_db()
    order.refresh_from_db()
    assert quoted.status == "cancelled"
    # Either the capture came first (deposit recorded, then refunded on cancellation) or the cancellation did (the
    # capture refused to record it and refunded): in both cases the money went back.
    assert order.status == PaymentStatus.REFUNDED, (order.status, order.provider_note)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_tabs_open_one_deposit_order(member, quoted, round_):
    def open_order():
        return deposits.deposit_order_create(user=member, kind="party", request_id=quoted.pk, amount=Decimal("40.00"))

    orders = _race(open_order, open_order)
    live = PaymentOrder.objects.filter(party=quoted, status__in=[PaymentStatus.CREATED])
    assert live.count() == 1 and {o.pk for o in orders} == {live.get().pk}
