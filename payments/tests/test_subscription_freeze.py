"""Freezes (docs/decisions.md 25): staff freeze a subscription from a day for N weeks; nothing charged or booked
meanwhile, the commitment's end and the pass's end move by as much, logged with who and why."""

from datetime import date

import pytest
from freezegun import freeze_time

from bookings.models import Pass
from bookings.services.pass_rules import MSG_PASS_FROZEN
from payments.subscriptions.models import SubscriptionCharge, SubscriptionStatus
from payments.subscriptions.services import common as subs

from .test_subscriptions import book, buy, run_due_jobs, session_on

pytestmark = pytest.mark.django_db

LIST = "/api/subscriptions"


def freeze(api_client, subscription, **body):
    return api_client.post(f"/api/subscriptions/{subscription.pk}/freeze", body, format="json")


def test_staff_freeze_moves_the_end_and_nothing_is_charged_or_booked_meanwhile(
    api_client,
    member,
    staff,
    annual,  # noqa: F811
):
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
    with freeze_time("2030-01-20 10:00:00"):
        api_client.force_authenticate(staff)
        response = freeze(api_client, subscription, starts_on="2030-01-20", weeks=4, reason="Blessure à l'épaule")
        assert response.status_code == 200, response.json()
        body = response.json()
        assert body["status_label"] == "Gelé"
        assert body["ends_on"] == "2031-02-06"  # 09/01/2031 + 4 weeks
        assert body["pass_expires_on"] == "2030-03-09"  # 09/02/2030 + 4 weeks
        assert body["next_due_on"] == "2030-03-10"
        [logged] = body["freezes"]
        assert (logged["reason"], logged["ends_on"], logged["weeks"]) == ("Blessure à l'épaule", "2030-02-16", 4)
        assert logged["by"] == staff.get_full_name()
        api_client.force_authenticate(member)
        pass_obj = Pass.objects.get(pk=subscription.granted_pass_id)
        refused = book(api_client, member, session_on(date(2030, 2, 2)), pass_obj)
        assert refused.status_code == 409
        assert refused.json()["error"] == MSG_PASS_FROZEN.format(start="20/01/2030", end="16/02/2030")
        assert refused.json()["error"] == (
            "Votre abonnement est gelé du 20/01/2030 au 16/02/2030 : aucun cours de cette période ne peut être "
            "réservé avec lui."
        )
        assert book(api_client, member, session_on(date(2030, 2, 20)), pass_obj).status_code == 201
    with freeze_time("2030-02-10 07:00:00"):  # the old due date: nothing charged
        run_due_jobs("2030-02-10")
    assert not SubscriptionCharge.objects.filter(subscription=subscription, period=2).exists()
    with freeze_time("2030-03-10 07:00:00"):
        assert "Échéances payées : 1" in run_due_jobs("2030-03-10")
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.ACTIVE and subscription.periods_paid == 2
    # period 2 runs 10/03 → 06/04 (the month of February, moved by the 4 weeks)
    assert Pass.objects.get(pk=subscription.granted_pass_id).expires_on == date(2030, 4, 6)
    assert pass_obj.adjustments.filter(by=staff, reason__contains="Blessure à l'épaule").count() == 1


@freeze_time("2030-01-10 10:00:00")
@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"starts_on": "2030-01-20", "weeks": 0, "reason": "x"}, subs.MSG_FREEZE_WEEKS),
        ({"starts_on": "2030-01-20", "weeks": 53, "reason": "x"}, subs.MSG_FREEZE_WEEKS),
        ({"starts_on": "2030-01-20", "weeks": 2, "reason": "  "}, subs.MSG_FREEZE_REASON),
        ({"starts_on": "hier", "weeks": 2, "reason": "x"}, "Indiquez la date de début du gel (AAAA-MM-JJ)."),
        ({"starts_on": "2030-01-01", "weeks": 2, "reason": "x"}, subs.MSG_FREEZE_DATE.format(end="09/01/2031")),
    ],
)
def test_freeze_refusals_are_french(api_client, member, staff, annual, body, message):  # noqa: F811
    subscription = buy(api_client, member, annual)
    api_client.force_authenticate(staff)
    response = freeze(api_client, subscription, **body)
    assert response.status_code == 400
    assert message in str(response.json())


@freeze_time("2030-01-10 10:00:00")
def test_a_member_cannot_freeze(api_client, member, annual):  # noqa: F811
    subscription = buy(api_client, member, annual)
    assert freeze(api_client, subscription, starts_on="2030-01-20", weeks=2, reason="x").status_code == 403
