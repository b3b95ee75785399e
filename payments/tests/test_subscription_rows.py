"""The profile's subscription rows (member_subscription_rows) say what subscriptions_of_member
(the model reads the API uses) says, in every case: no charge yet, charges paid, failed, cancelled, a freeze."""

from datetime import date
from decimal import Decimal

import pytest
from freezegun import freeze_time

from accounts.tests.test_profile_sections import charge, subscription_of
from courses.tests.factories import TariffFactory
from payments.subscriptions.models import ChargeStatus, SubscriptionFreeze, SubscriptionStatus
from payments.subscriptions.selectors import member_subscription_rows, subscriptions_of_member

pytestmark = pytest.mark.django_db


def as_rows(member):
    return [
        {
            "pk": v.subscription.pk,
            "title": v.subscription.title,
            "status": v.subscription.status,
            "status_label": v.subscription.get_status_display(),
            "provider": v.subscription.provider,
            "periods_paid": v.subscription.periods_paid,
            "periods_committed": v.subscription.periods_committed,
            "periods_left": v.periods_left,
            "ends_on": v.ends_on,
            "pass_expires_on": v.subscription.granted_pass.expires_on,
            "next_due_on": v.next_due_on,
            "next_due_amount": v.next_due_amount,
            "charges": [
                (c.period, c.due_on, c.amount, c.status, c.get_status_display(), c.next_attempt_on, c.paid_at)
                for c in v.charges
            ],
        }
        for v in subscriptions_of_member(user=member)
    ]


def profile_rows(member):
    keys = ("pk", "title", "status", "status_label", "provider", "periods_paid", "periods_committed", "periods_left",
            "ends_on", "pass_expires_on", "next_due_on", "next_due_amount")  # fmt: skip
    return [
        {
            **{k: row[k] for k in keys},
            "charges": [
                (
                    c["period"],
                    c["due_on"],
                    c["amount"],
                    c["status"],
                    c["status_label"],
                    c["next_attempt_on"],
                    c["paid_at"],
                )  # fmt: skip
                for c in row["charges"]
            ],
        }
        for row in member_subscription_rows(member_id=member.pk)
    ]


@freeze_time("2030-03-15 10:00:00")
def test_the_rows_say_what_the_views_say(member, other_member):
    tariff = TariffFactory(title="Abonnement mensuel", pass_unlimited=True, pass_validity_months=12)
    assert profile_rows(member) == as_rows(member) == []
    fresh = subscription_of(member, tariff, "neuf", status=SubscriptionStatus.ACTIVE)  # no charge row yet
    frozen = subscription_of(member, tariff, "gelé", status=SubscriptionStatus.FROZEN, starts_on=date(2030, 2, 1))
    charge(frozen, 1, ChargeStatus.PAID, provider_reference="R1")
    SubscriptionFreeze.objects.create(subscription=frozen, starts_on=date(2030, 3, 1), weeks=3, reason="Voyage")
    unpaid = subscription_of(member, tariff, "impayé", status=SubscriptionStatus.UNPAID)
    charge(unpaid, 1, ChargeStatus.PAID)
    charge(unpaid, 2, ChargeStatus.FAILED, next_attempt_on=date(2030, 3, 20))
    ended = subscription_of(member, tariff, "fini", status=SubscriptionStatus.ENDED, periods_paid=12)
    charge(ended, 1, ChargeStatus.CANCELLED)
    subscription_of(other_member, tariff, "autre", status=SubscriptionStatus.ACTIVE)
    rows = profile_rows(member)
    assert rows == as_rows(member)
    assert [r["pk"] for r in rows] == [ended.pk, unpaid.pk, frozen.pk, fresh.pk]
    assert rows[3]["charges"] == [] and rows[3]["next_due_amount"] == Decimal("55.00")
