"""Nothing missed, nothing in the way (docs/decisions.md 40): an invoice that cannot be issued at the capture never
undoes the payment, and the periodic job (also `manage.py invoices_issue_missing`, and the demo seed) issues what is
missing: payments older than invoicing, seeded ones, credit notes of refunds, once."""

from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from courses.tests.factories import TariffFactory
from invoices import services
from invoices.models import Invoice, InvoiceCounter, InvoiceKind
from invoices.services import invoicing
from invoices.tasks import invoices_issue_missing
from payments.models import PaymentOrder, PaymentStatus

from .helpers import pay_tariff

pytestmark = pytest.mark.django_db

YEAR = timezone.localdate().year


def _old_order(member, order_id, status=PaymentStatus.COMPLETED, **extra):
    return PaymentOrder.objects.create(
        order_id=order_id,
        email=member.email,
        first_name="Emma",
        last_name="Petit",
        title="Carte 10 cours",
        amount=Decimal("190.00"),
        date="2025-01-10",
        status=status,
        user=member,
        **{"completed_at": timezone.now(), **extra},
    )


def test_an_invoice_that_fails_at_the_capture_leaves_the_payment_and_no_gap_then_is_issued_later(
    api_client, member, monkeypatch
):
    tariff = TariffFactory(title="Carte 10 cours", price=Decimal("190.00"), type="forfait")
    pay_tariff(api_client, member, tariff)
    real_create = invoicing._create

    def broken(**kwargs):
        real_create(**kwargs)  # numbered, then something fails
        raise RuntimeError("disk full")

    monkeypatch.setattr(invoicing, "_create", broken)  # where an order's invoice looks it up
    second = pay_tariff(api_client, member, tariff)
    assert second.status == PaymentStatus.COMPLETED  # the payment stands
    assert not Invoice.objects.filter(payment_order=second).exists()
    assert InvoiceCounter.objects.get().last_number == 1  # the failed number was given back
    monkeypatch.setattr(invoicing, "_create", real_create)

    assert invoices_issue_missing.call() == {"invoices": 1, "credit_notes": 0}
    assert Invoice.objects.get(payment_order=second).number == f"{YEAR}-000002"
    assert invoices_issue_missing.call() == {"invoices": 0, "credit_notes": 0}


def test_payments_older_than_invoicing_get_their_invoices_and_credit_notes_once(member):
    _old_order(member, "OLD-1")
    refunded = _old_order(member, "OLD-2", status=PaymentStatus.COMPLETED)
    _old_order(member, "OLD-3", status=PaymentStatus.CREATED, completed_at=None)
    out = StringIO()
    call_command("invoices_issue_missing", stdout=out)
    assert out.getvalue().strip() == "Factures émises : 2 · avoirs émis : 0"
    PaymentOrder.objects.filter(pk=refunded.pk).update(status=PaymentStatus.REFUNDED, provider_note="Remboursé.")
    assert services.invoices_issue_missing() == {"invoices": 0, "credit_notes": 1}
    note = Invoice.objects.get(kind=InvoiceKind.CREDIT_NOTE)
    assert note.credited_invoice.payment_order == refunded and note.reason == "Remboursé."
    assert services.invoices_issue_missing() == {"invoices": 0, "credit_notes": 0}
    assert sorted(Invoice.objects.filter(kind=InvoiceKind.INVOICE).values_list("number", flat=True)) == [
        f"{YEAR}-000001",
        f"{YEAR}-000002",
    ]


def test_a_subscriptions_first_period_is_invoiced_with_its_order_not_twice(api_client, member):
    annual = TariffFactory(
        title="Abonnement annuel illimité",
        type="abonnement",
        price=Decimal("55.00"),
        frequency="par mois",
        validity="12 mois",
        pass_unlimited=True,
        pass_validity_months=12,
    )
    pay_tariff(api_client, member, annual)
    assert services.invoices_issue_missing() == {"invoices": 0, "credit_notes": 0}
    assert Invoice.objects.count() == 1


def test_the_demo_seed_invoices_the_demo_members_payments(db):
    call_command("seed_demo", stdout=StringIO())
    paid = PaymentOrder.objects.filter(status=PaymentStatus.COMPLETED)
    assert paid.exists()
    assert Invoice.objects.filter(kind=InvoiceKind.INVOICE).count() == paid.count()
