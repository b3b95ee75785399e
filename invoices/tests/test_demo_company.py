"""The demo holds a business customer (docs/decisions.md 54): a member with a company on the profile whose paid card
is invoiced to the company as a Factur-X file; seeding again adds nothing."""

from decimal import Decimal

import pytest

from accounts import seed as accounts_seed
from accounts.company import siren_is_valid
from accounts.models import User
from courses.tests.factories import TariffFactory
from invoices import seed
from invoices.documents import invoice_document
from invoices.models import Invoice, InvoiceKind
from payments.models import PaymentOrder, PaymentStatus

from .test_facturx import check, xml_totals

pytestmark = pytest.mark.django_db


def test_the_demo_company_members_card_is_invoiced_to_the_company_as_factur_x(tmp_path):
    TariffFactory(title="Carte 10 cours", price=Decimal("190.00"), type="forfait")
    for _ in range(2):
        accounts_seed.run()
        seed.run()

    member = User.objects.get(email=accounts_seed.COMPANY_MEMBER[0])
    assert member.company_name == accounts_seed.COMPANY["company_name"] and siren_is_valid(member.company_siren)
    (order,) = PaymentOrder.objects.filter(user=member)
    assert order.status == PaymentStatus.COMPLETED and order.amount == Decimal("190.00")
    (invoice,) = Invoice.objects.filter(payment_order=order, kind=InvoiceKind.INVOICE)
    assert (invoice.customer_company_name, invoice.customer_siren) == (member.company_name, member.company_siren)
    xml, text = check(invoice_document(invoice=invoice), tmp_path)
    assert member.company_name in text and f"SIREN : {member.company_siren}" in text
    assert xml_totals(xml)["GrandTotalAmount"] == Decimal("190.00")


def test_seeding_keeps_a_company_the_member_changed():
    accounts_seed.run()
    member = User.objects.get(email=accounts_seed.COMPANY_MEMBER[0])
    member.company_name = "Autre Société"
    member.save(update_fields=["company_name"])
    accounts_seed.run()
    member.refresh_from_db()
    assert member.company_name == "Autre Société"
