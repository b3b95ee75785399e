"""Invoice numbers on PostgreSQL (real row locks): payments completing at the same moment get consecutive
invoice numbers, none twice and none skipped, including the first ones of a year (the counter row created by
whichever transaction comes first) and when one of the racing payments rolls back."""

from decimal import Decimal

import pytest
from django.db import transaction
from django.utils import timezone

from courses.tests.factories import TariffFactory
from invoices.models import Invoice, InvoiceCounter, InvoiceKind
from invoices.services import invoice_issue_for_order
from payments.models import PaymentOrder, PaymentStatus
from payments.services.capture import payment_order_capture
from payments.services.orders import payment_order_create
from payments.simulator import SimulatorProvider
from studio.tests.races import race

pytestmark = pytest.mark.postgres

PAYERS = 8


def _approved_tariff_order(member, tariff) -> PaymentOrder:
    order = payment_order_create(
        user=member,
        amount=tariff.price,
        email=member.email,
        first_name=member.first_name,
        last_name=member.last_name,
        title=tariff.title,
        type=tariff.type,
        tariff_id=tariff.pk,
        quantity=1,
    )
    SimulatorProvider().approve_order(order_id=order.order_id, card_declined=False)
    return order


def _sequences() -> list[int]:
    return list(
        Invoice.objects.filter(kind=InvoiceKind.INVOICE).order_by("sequence").values_list("sequence", flat=True)
    )


@pytest.mark.parametrize("round_", range(3))
def test_payments_completing_at_the_same_moment_get_consecutive_numbers(member, other_member, round_):
    tariff = TariffFactory(title="Carte 5 cours", price=Decimal("100.00"), type="forfait")
    orders = [_approved_tariff_order(member if n % 2 else other_member, tariff) for n in range(PAYERS)]
    assert not InvoiceCounter.objects.exists()  # the year's counter is created during the race

    def capture(order):
        return lambda: payment_order_capture(
            order_id=order.order_id, user=member if order.user_id == member.pk else other_member
        )

    outcomes, refusals, crashes = race(*(capture(order) for order in orders))
    assert refusals == [] and crashes == [], (refusals, crashes)
    assert all(outcome.completed for outcome in outcomes)
    year = timezone.localdate().year
    assert _sequences() == list(range(1, PAYERS + 1))
    numbers = set(Invoice.objects.values_list("number", flat=True))
    assert numbers == {f"{year}-{n:06d}" for n in range(1, PAYERS + 1)}
    assert InvoiceCounter.objects.get(kind=InvoiceKind.INVOICE, year=year).last_number == PAYERS
    # One invoice per payment, for its amount: the invoices add up to what was paid.
    assert Invoice.objects.filter(payment_order__in=orders).count() == PAYERS
    paid = sum(PaymentOrder.objects.filter(status=PaymentStatus.COMPLETED).values_list("amount", flat=True))
    assert sum(Invoice.objects.values_list("total_amount", flat=True)) == paid == PAYERS * Decimal("100.00")


FAILURE = "the payment's transaction fails after its invoice was numbered"


def test_a_racing_payment_that_rolls_back_leaves_no_gap(member):
    orders = [
        PaymentOrder.objects.create(
            order_id=f"DESK-{n}",
            email=member.email,
            title="Cours particulier",
            amount=Decimal("60.00"),
            date="2030-01-01",
            status=PaymentStatus.COMPLETED,
            user=member,
        )
        for n in range(4)
    ]

    def issue(order, fail):
        def run():
            with transaction.atomic():
                PaymentOrder.objects.select_for_update().get(pk=order.pk)
                invoice = invoice_issue_for_order(order_id=order.pk)
                if fail:
                    raise RuntimeError(FAILURE)
                return invoice.number

        return run

    _, refusals, crashes = race(*(issue(order, fail=n == 1) for n, order in enumerate(orders)))
    assert refusals == [] and crashes == [repr(RuntimeError(FAILURE))]  # only the failing payment raised
    assert _sequences() == [1, 2, 3]
    assert not Invoice.objects.filter(payment_order=orders[1]).exists()
    # The failed payment, retried, takes the next number.
    assert invoice_issue_for_order(order_id=orders[1].pk).sequence == 4
