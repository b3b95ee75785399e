"""Invoice numbers on PostgreSQL (real row locks): payments completing at the same moment get consecutive
invoice numbers, none twice and none skipped, including the first ones of a year (the counter row created by
whichever transaction comes first) and when one of the racing payments rolls back."""

import threading
from decimal import Decimal

import pytest
from django.db import connection, transaction
from django.utils import timezone

from courses.tests.factories import TariffFactory
from invoices.models import Invoice, InvoiceCounter, InvoiceKind
from invoices.services import invoice_issue_for_order
from payments.models import PaymentOrder, PaymentStatus
from payments.services.capture import payment_order_capture
from payments.services.orders import payment_order_create
from payments.simulator import SimulatorProvider

pytestmark = pytest.mark.postgres

PAYERS = 8


def _race(*calls):
    """Run the calls at the same moment, each on its own thread and database connection."""
    barrier = threading.Barrier(len(calls))
    errors, results = [], []

    def run(call):
        try:
            barrier.wait(timeout=10)
            results.append(call())
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results, errors


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

    outcomes, errors = _race(*(capture(order) for order in orders))
    assert not errors, errors
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
                    raise RuntimeError("the payment's transaction fails after its invoice was numbered")
                return invoice.number

        return run

    _, errors = _race(*(issue(order, fail=n == 1) for n, order in enumerate(orders)))
    assert len(errors) == 1 and isinstance(errors[0], RuntimeError)
    assert _sequences() == [1, 2, 3]
    assert not Invoice.objects.filter(payment_order=orders[1]).exists()
    # The failed payment, retried, takes the next number.
    assert invoice_issue_for_order(order_id=orders[1].pk).sequence == 4
