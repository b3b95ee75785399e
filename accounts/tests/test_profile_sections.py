"""The profile's member sections (passes, subscriptions, invoices, reminders) show exactly what they showed before
their reads were reworked for speed: every state a pass, a subscription and a charge can be in, a freeze moving the
dates, a credit note, the member's own view (pay button, reminders) and a staff member's (neither). The expected
HTML is `profile_sections.html` beside this file, with ids and the CSRF token replaced by names."""

import re
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import timezone
from freezegun import freeze_time

from bookings.models import PassKind
from bookings.models_operations import BookingPreferences
from bookings.tests.factories import PassFactory
from courses.tests.factories import TariffFactory
from invoices.models import Invoice, InvoiceKind
from payments.models import PaymentOrder, PaymentStatus
from payments.subscriptions.models import (
    ChargeStatus,
    Subscription,
    SubscriptionAction,
    SubscriptionCharge,
    SubscriptionFreeze,
    SubscriptionStatus,
)

pytestmark = pytest.mark.django_db

EXPECTED = Path(__file__).with_name("profile_sections.html")
TODAY = "2030-03-15 10:00:00"


def aware(*args):
    return timezone.make_aware(datetime(*args))


def subscription_of(member, tariff, name, *, status, provider="simulator", periods_paid=1, starts_on=date(2030, 1, 10)):
    granted = PassFactory(
        member=member,
        tariff=tariff,
        subscription=True,
        title=f"Abonnement {name}",
        starts_on=starts_on,
        expires_on=starts_on + timedelta(days=59),
    )
    order = PaymentOrder.objects.create(
        order_id=f"ORDER-{name}",
        provider=provider,
        email=member.email,
        title=f"Abonnement {name}",
        amount=Decimal("55.00"),
        status=PaymentStatus.COMPLETED,
        user=member,
        tariff=tariff,
        granted_pass=granted,
    )
    return Subscription.objects.create(
        member=member,
        tariff=tariff,
        title=f"Abonnement {name}",
        provider=provider,
        source_order=order,
        granted_pass=granted,
        amount=Decimal("55.00"),
        period_months=1,
        periods_committed=12,
        periods_paid=periods_paid,
        starts_on=starts_on,
        status=status,
    )


def charge(subscription, period, status, **fields):
    return SubscriptionCharge.objects.create(
        subscription=subscription,
        period=period,
        due_on=date(2030, period, 10),
        amount=Decimal("55.00"),
        status=status,
        **fields,
    )


def invoice(member, number, *, kind=InvoiceKind.INVOICE, credited=None, total="190.00", day=5):
    return Invoice.objects.create(
        kind=kind,
        number=number,
        year=2030,
        sequence=int(number[-6:]),
        issued_at=aware(2030, 2, day, 15, 30),
        credited_invoice=credited,
        member=member,
        customer_name=member.get_full_name(),
        seller_name="Studio",
        seller_address="1 rue de la Danse",
        seller_siret="12345678900011",
        seller_vat_note="TVA non applicable",
        description=f"Carte 10 cours ({number})",
        quantity=1,
        unit_amount=Decimal(total),
        total_amount=Decimal(total),
    )


@pytest.fixture
def rich_member(member, other_member, staff):
    """A member with passes in every state, three subscriptions and two invoices; another member's data beside."""
    with freeze_time("2030-01-10 09:00:00"):
        tariff = TariffFactory(title="Abonnement mensuel", pass_unlimited=True, pass_validity_months=12)
        names = {}
        names["card-active"] = PassFactory(
            member=member, title="Carte 10 cours", credits_left=3, expires_on=date(2030, 6, 30)
        )
        names["card-used"] = PassFactory(
            member=member, title="Carte 5 cours", credits_total=5, credits_left=0, expires_on=date(2030, 7, 1)
        )
        names["card-expired"] = PassFactory(
            member=member, title="Carte d'essai", credits_total=1, credits_left=1, expires_on=date(2030, 1, 31)
        )
        names["card-upcoming"] = PassFactory(
            member=member, title="Carte été", starts_on=date(2030, 7, 1), expires_on=date(2030, 9, 30)
        )
        names["unlimited"] = PassFactory(
            member=member,
            kind=PassKind.SUBSCRIPTION,
            subscription=True,
            title="Illimité trimestre",
            expires_on=date(2030, 4, 30),
        )
        active = subscription_of(member, tariff, "actif", status=SubscriptionStatus.ACTIVE, periods_paid=2)
        charge(active, 1, ChargeStatus.PAID, provider_reference="SIM-1", paid_at=aware(2030, 1, 10, 9))
        charge(active, 2, ChargeStatus.PAID, provider_reference="SIM-2", paid_at=aware(2030, 2, 10, 9))
        SubscriptionFreeze.objects.create(subscription=active, starts_on=date(2030, 2, 20), weeks=2, reason="Voyage")
        SubscriptionFreeze.objects.create(subscription=active, starts_on=date(2030, 5, 1), weeks=1, reason="Blessure")
        SubscriptionAction.objects.create(subscription=active, kind="retry", reason="Relance", by=staff)
        unpaid = subscription_of(
            member, tariff, "impayé", status=SubscriptionStatus.UNPAID, starts_on=date(2029, 12, 1)
        )
        charge(unpaid, 1, ChargeStatus.PAID, provider_reference="SIM-3", paid_at=aware(2029, 12, 1, 9))
        charge(unpaid, 2, ChargeStatus.FAILED, attempts=1, next_attempt_on=date(2030, 3, 17), failure_note="Refusée")
        charge(unpaid, 3, ChargeStatus.DUE)
        ended = subscription_of(member, tariff, "terminé", status=SubscriptionStatus.CANCELLED, provider="paypal")
        charge(ended, 1, ChargeStatus.PAID, provider_reference="PP-1", paid_at=aware(2030, 1, 10, 9, 30))
        charge(ended, 2, ChargeStatus.CANCELLED)
        names.update(active=active, unpaid=unpaid, ended=ended)
        first = invoice(member, "2030-000001")
        names.update(first=first)
        names["second"] = invoice(member, "2030-000002", total="55.50", day=6)
        names["credit"] = invoice(
            member, "2030-000003", kind=InvoiceKind.CREDIT_NOTE, credited=first, total="190.00", day=7
        )
        BookingPreferences.objects.create(user=member, remind_day_before=False)
        PassFactory(member=other_member, title="Carte d'une autre")
        subscription_of(other_member, tariff, "autre", status=SubscriptionStatus.UNPAID)
        invoice(other_member, "2030-000009")
    # Subscription passes also show in the passes list: their ids are named after the subscription.
    for key in ("active", "unpaid", "ended"):
        names[f"{key}-pass"] = names[key].granted_pass
    return names


PATTERNS = {
    "Pass": (r'(data-pass-id=")({pk})(")',),
    "Subscription": (
        r'(data-subscription-id=")({pk})(")',
        r"(subscription-pay-)({pk})\b()",
        r"(subscriptionId&quot;: |subscriptionId\": )({pk})\b()",
        r"(/user/subscriptions/)({pk})(/)",
    ),
    "Invoice": (r"(/api/invoices/)({pk})(/pdf)",),
}


def sections(html: str, names: dict) -> str:
    """The member sections of the page, ids replaced by the objects' names."""
    start = html.index('<section class="member-passes')
    end = html.index('<div class="profile-edit"')
    part = html[start:end]
    part = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken" value="TOKEN"', part)
    part = re.sub(r'<section class="member-personal-data.*?</section>', "", part, flags=re.S)  # privacy's own
    part = re.sub(
        r'<div id="island-push-settings".*?push-settings[.\w]*\.js" defer></script>', "", part, flags=re.S
    )  # push's
    part = re.sub(
        r'<div id="island-health-summary".*?health-summary[.\w]*\.js" defer></script>', "", part, flags=re.S
    )  # the member's own health declaration (waivers/tests/test_profile_health_summary.py)
    part = re.sub(r"(/static/dist/[\w-]+)\.\w+\.js", r"\1.js", part)  # the bundles' content hashes
    for name, obj in names.items():
        for pattern in PATTERNS[type(obj).__name__]:
            part = re.sub(pattern.format(pk=obj.pk), rf"\g<1><{name}>\g<3>", part)
    return "\n".join(line.rstrip() for line in part.splitlines() if line.strip()) + "\n"


def expected(who: str) -> str:
    text = EXPECTED.read_text()
    return text.split(f"<!-- {who} -->\n", 1)[1].split("<!-- end -->\n", 1)[0]


@freeze_time(TODAY)
def test_the_members_own_profile_shows_every_section_as_before(client, member, rich_member):
    client.force_login(member)
    response = client.get("/user/profile")
    assert response.status_code == 200
    assert sections(response.content.decode(), rich_member) == expected("member")


@freeze_time(TODAY)
def test_a_staff_member_sees_the_members_sections_without_pay_button_or_reminders(
    client, supervisor, member, rich_member
):
    client.force_login(supervisor)
    response = client.get(f"/user/profile/{member.pk}")
    assert response.status_code == 200
    assert sections(response.content.decode(), rich_member) == expected("staff")


@freeze_time(TODAY)
def test_a_member_without_anything_sees_the_empty_sections(client, rich_member):
    from accounts.tests.factories import UserFactory

    newcomer = UserFactory(first_name="Nina", last_name="Roux", email="nina@example.fr")
    client.force_login(newcomer)
    html = client.get("/user/profile").content.decode()
    assert "Vous n'avez pas encore de carte ni d'abonnement." in html
    assert "Aucune facture pour l'instant." in html and "Mes factures" in html
    assert "Mes abonnements payés par mois" not in html
    assert 'name="remind_day_before" checked' in html and 'name="remind_cancellation_deadline" checked' in html
