"""Demo data (`make seed`): the seeded completed payments get their invoices, as real ones would at capture; the demo
company's member (accounts.seed) has paid a card, so the demo holds a company's Factur-X invoice (docs/decisions.md
54)."""

from django.utils import timezone

from accounts.models import User
from accounts.seed import COMPANY_MEMBER
from courses.models import Tariff
from payments.choices import PaymentProviderName
from payments.models import PaymentOrder, PaymentStatus

from .services import invoices_issue_missing


def _company_order() -> None:
    member = User.objects.filter(email=COMPANY_MEMBER[0]).first()
    card = Tariff.objects.filter(title__icontains="10 cours").first()
    if member is None or card is None:
        return
    now = timezone.now()
    PaymentOrder.objects.get_or_create(
        order_id="DEMO-SOCIETE-1",
        defaults={
            "provider": PaymentProviderName.SIMULATOR,
            "user": member,
            "email": member.email,
            "first_name": member.first_name,
            "last_name": member.last_name,
            "status": PaymentStatus.COMPLETED,
            "completed_at": now,
            "receipt_sent_at": now,
            "tariff": card,
            "title": card.title,
            "amount": card.price,
            "date": timezone.localdate().isoformat(),
            "type": card.type.upper(),
        },
    )


def run(*, stdout=None) -> None:
    _company_order()
    done = invoices_issue_missing()
    if stdout is not None:
        stdout.write(f"Factures de démonstration : {done['invoices']} émises, {done['credit_notes']} avoirs.")
