"""A subscription sold at the front desk is paid there period by period (docs/decisions.md 43): the scheduler never
charges its periods (each one due stays "À régler à l'accueil", point 25's unpaid rules running from its due date),
staff record a period's payment with the desk's means, and a card saved online later pays the periods as for any
subscription."""

import re
import uuid
from datetime import date
from decimal import Decimal

import pytest
from freezegun import freeze_time

from accounts.models import StaffAction
from bookings.pass_rules import PassRule
from courses.tests.factories import TariffFactory
from invoices.models import Invoice
from payments.apis.desk import MSG_CHARGE_ID_INVALID
from payments.models import DeskPaymentLine, PaymentOrder
from payments.services.desk import (
    MSG_DESK_CHARGE_NOT_DUE,
    MSG_DESK_CHARGE_NOT_FOUND,
    MSG_DESK_ITEM_REQUIRED,
    MSG_DESK_KEY_REUSED,
    MSG_DESK_SALE_RECORDED,
    MSG_DESK_TOTAL_MISMATCH,
)
from payments.subscriptions.models import ChargeStatus, Subscription, SubscriptionStatus
from payments.subscriptions.selectors import DESK_DUE_LABEL, member_subscription_rows, staff_subscription_rows
from payments.subscriptions.services.common import MSG_PAY_AT_DESK
from payments.subscriptions.services.lifecycle import (
    subscription_charges_run,
    subscription_freeze,
    subscriptions_freeze_status,
)
from payments.subscriptions.services.saved_methods import simulated_card_save

SALES = "/api/desk/sales"
TWO_MEANS = [{"means": "cash", "amount": "30.00"}, {"means": "pass_sport", "amount": "25.00"}]


@pytest.fixture
def desk_subscription(api_client, staff, member):
    """A monthly plan's first period sold at the desk on 10/01/2030: period 2 falls due on 10/02/2030."""
    plan = TariffFactory(
        title="Abonnement mensuel",
        price=Decimal("55.00"),
        frequency="par mois",
        pass_unlimited=True,
        pass_validity_months=12,
    )
    api_client.force_authenticate(staff)
    with freeze_time("2030-01-10 10:00:00"):
        response = api_client.post(
            SALES,
            {
                "user_id": member.pk,
                "tariff_id": plan.pk,
                "payments": [{"means": "cheque", "amount": "55.00"}],
                "idempotency_key": str(uuid.uuid4()),
            },
            format="json",
        )
    assert response.status_code == 201, response.json()
    return Subscription.objects.get(member=member)


def _pay_period(api_client, member, charge_id, payments=TWO_MEANS, key=None):
    return api_client.post(
        SALES,
        {
            "user_id": member.pk,
            "charge_id": charge_id,
            "payments": payments,
            "idempotency_key": str(key or uuid.uuid4()),
        },
        format="json",
    )


def _due(subscription, as_of=date(2030, 2, 10)):
    with freeze_time(f"{as_of.isoformat()} 07:00:00"):
        outcome = subscription_charges_run(as_of=as_of)
    return outcome, subscription.charges.get(period=2)


def test_the_scheduler_leaves_a_desk_period_due_for_the_desk_with_the_unpaid_rules_from_its_due_date(
    desk_subscription, mailoutbox
):
    outcome, charge = _due(desk_subscription)
    assert (outcome["paid"], outcome["failed"]) == (0, 0)
    assert (charge.status, charge.attempts, charge.next_attempt_on) == (ChargeStatus.DUE, 0, None)
    desk_subscription.refresh_from_db()
    assert desk_subscription.status == SubscriptionStatus.UNPAID  # "Impayé" for staff, point 25
    rule = PassRule.objects.get(pass_ref_id=desk_subscription.granted_pass_id)
    assert rule.blocked_from == date(2030, 2, 17)  # 7 days after the due date
    assert desk_subscription.granted_pass.expires_on >= date(2030, 3, 9)  # the pass runs through the period
    assert mailoutbox == []  # no refusal e-mail: nothing was refused
    # Three days later the scheduler still does not try: no retry of a period nobody charged.
    _outcome, charge = _due(desk_subscription, as_of=date(2030, 2, 13))
    assert (charge.status, charge.attempts) == (ChargeStatus.DUE, 0)
    row = member_subscription_rows(member_id=desk_subscription.member_id)[0]
    assert row["charges"][1]["status_label"] == DESK_DUE_LABEL == "À régler à l'accueil"
    staff_row = next(r for r in staff_subscription_rows() if r["id"] == desk_subscription.pk)
    assert staff_row["charges"][1]["status_label"] == "À régler à l'accueil"


def test_a_desk_period_left_unpaid_is_paid_at_the_desk_with_two_means_extending_the_pass(
    client, api_client, staff, member, desk_subscription, django_capture_on_commit_callbacks
):
    outcome, charge = _due(desk_subscription)
    assert (outcome["paid"], outcome["failed"], charge.status, charge.attempts) == (0, 0, ChargeStatus.DUE, 0)
    with freeze_time("2030-02-12 10:00:00"):
        client.force_login(member)  # a session opened that day: one opened today would have expired by 2030
        before = client.get("/user/profile").content.decode()
    assert "À régler à l'accueil" in before
    assert re.search(r"<td>2</td><td>10/02/2030</td><td>55,00 €</td><td>À régler à l&#x27;accueil</td>", before)
    assert "Payer maintenant" not in before
    with freeze_time("2030-02-12 10:00:00"), django_capture_on_commit_callbacks(execute=True):
        response = _pay_period(api_client, member, charge.pk)
    assert response.status_code == 201, response.json()
    assert response.json()["message"] == MSG_DESK_SALE_RECORDED.format(
        title="Abonnement mensuel – période 2/12", amount="55,00 €", means="Espèces 30,00 €, Pass'Sport 25,00 €"
    )
    charge.refresh_from_db()
    desk_subscription.refresh_from_db()
    assert charge.status == ChargeStatus.PAID
    assert charge.provider_reference == response.json()["order_id"]
    assert (desk_subscription.status, desk_subscription.periods_paid) == (SubscriptionStatus.ACTIVE, 2)
    assert desk_subscription.granted_pass.expires_on == date(2030, 3, 9)
    assert PassRule.objects.get(pass_ref_id=desk_subscription.granted_pass_id).blocked_from is None
    invoice = Invoice.objects.get(subscription_charge=charge)
    assert invoice.payment_lines == [["Espèces", "30.00"], ["Pass'Sport", "25.00"]]
    assert invoice.payment_method == "paiement à l'accueil du studio"
    assert StaffAction.objects.filter(member=member, action="desk_sale").count() == 2
    assert StaffAction.objects.filter(member=member, action="desk_sale").latest("id").summary == (
        "Vente à l'accueil : Abonnement mensuel – période 2/12, 55,00 € (Espèces 30,00 €, Pass'Sport 25,00 €)"
    )
    with freeze_time("2030-02-12 10:00:00"):
        after = client.get("/user/profile").content.decode()
    assert "À régler à l'accueil" not in after
    assert re.search(r"<td>2</td><td>10/02/2030</td><td>55,00 €</td><td>Payée</td>", after)


def test_a_desk_period_paid_twice_with_one_key_is_one_payment_and_with_another_key_a_conflict(
    api_client, member, desk_subscription
):
    _outcome, charge = _due(desk_subscription)
    key = uuid.uuid4()
    first = _pay_period(api_client, member, charge.pk, key=key)
    again = _pay_period(api_client, member, charge.pk, key=key)
    assert (first.status_code, again.status_code) == (201, 201)
    assert first.json()["order_id"] == again.json()["order_id"]
    other = _pay_period(api_client, member, charge.pk)
    assert other.status_code == 409
    assert other.json()["error"] == MSG_DESK_CHARGE_NOT_DUE
    assert Invoice.objects.filter(subscription_charge=charge).count() == 1
    assert DeskPaymentLine.objects.filter(order__order_id=first.json()["order_id"]).count() == 2
    assert PaymentOrder.objects.filter(type="ECHEANCE").count() == 1


def test_a_desk_period_sale_is_refused_in_french_when_wrong(api_client, staff, member, desk_subscription):
    _outcome, charge = _due(desk_subscription)
    short = _pay_period(api_client, member, charge.pk, payments=[{"means": "cash", "amount": "50.00"}])
    assert short.status_code == 400
    assert short.json()["error"] == MSG_DESK_TOTAL_MISMATCH.format(total="50,00 €", price="55,00 €", remainder="5,00 €")
    stranger = _pay_period(api_client, staff, charge.pk)
    assert stranger.status_code == 404
    assert stranger.json()["error"] == MSG_DESK_CHARGE_NOT_FOUND == "Cette échéance d'abonnement est introuvable."
    paid = _pay_period(api_client, member, desk_subscription.charges.get(period=1).pk)
    assert paid.status_code == 409
    assert paid.json()["error"] == MSG_DESK_CHARGE_NOT_DUE
    both = api_client.post(
        SALES,
        {
            "user_id": member.pk,
            "charge_id": charge.pk,
            "tariff_id": desk_subscription.tariff_id,
            "payments": TWO_MEANS,
            "idempotency_key": str(uuid.uuid4()),
        },
        format="json",
    )
    assert both.status_code == 400
    assert both.json()["error"] == MSG_DESK_ITEM_REQUIRED
    bad = _pay_period(api_client, member, "abc")
    assert bad.status_code == 400
    assert MSG_CHARGE_ID_INVALID == "Échéance invalide."
    assert MSG_CHARGE_ID_INVALID in str(bad.json())
    key = uuid.uuid4()
    assert _pay_period(api_client, member, charge.pk, key=key).status_code == 201
    reused = api_client.post(
        SALES,
        {
            "user_id": member.pk,
            "tariff_id": desk_subscription.tariff_id,
            "payments": [{"means": "cash", "amount": "55.00"}],
            "idempotency_key": str(key),
        },
        format="json",
    )
    assert reused.status_code == 409
    assert reused.json()["error"] == MSG_DESK_KEY_REUSED


def test_a_card_saved_online_later_pays_the_desk_subscriptions_periods_through_the_scheduler(member, desk_subscription):
    simulated_card_save(user=member, today=date(2030, 1, 20))
    outcome, charge = _due(desk_subscription)
    assert outcome["paid"] == 1
    assert charge.status == ChargeStatus.PAID
    row = member_subscription_rows(member_id=member.pk)[0]
    assert row["desk_due"] is False
    assert row["method_label"]


def test_the_desk_lists_a_clients_periods_due_with_their_amount(api_client, staff, member, desk_subscription):
    _due(desk_subscription)
    response = api_client.get("/api/desk/periods", {"user_id": member.pk})
    assert response.status_code == 200
    [row] = response.json()
    assert row["charge_id"] == desk_subscription.charges.get(period=2).pk
    assert (row["title"], row["period"], row["periods_committed"], row["amount"], row["due_on"]) == (
        "Abonnement mensuel",
        2,
        12,
        "55.00",
        "2030-02-10",
    )
    assert api_client.get("/api/desk/periods", {"user_id": staff.pk}).json() == []
    api_client.force_authenticate(member)
    assert api_client.get("/api/desk/periods", {"user_id": member.pk}).status_code == 403


def test_payer_maintenant_on_a_desk_subscription_says_it_is_paid_at_the_desk(api_client, member, desk_subscription):
    _outcome, charge = _due(desk_subscription)
    api_client.force_authenticate(member)
    response = api_client.post(f"/api/subscriptions/{desk_subscription.pk}/pay", {}, format="json")
    assert response.status_code == 409
    assert (
        response.json()["error"]
        == MSG_PAY_AT_DESK
        == ("Cette échéance se règle à l'accueil du studio, ou enregistrez une carte pour la payer en ligne.")
    )
    charge.refresh_from_db()
    assert (charge.status, charge.attempts) == (ChargeStatus.DUE, 0)


def test_a_desk_subscription_frozen_then_thawed_with_a_period_due_is_unpaid_again(staff, desk_subscription):
    _due(desk_subscription)
    with freeze_time("2030-02-12 10:00:00"):
        subscription_freeze(
            subscription_id=desk_subscription.pk, starts_on=date(2030, 2, 12), weeks=1, reason="Blessure", by=staff
        )
    desk_subscription.refresh_from_db()
    assert desk_subscription.status == SubscriptionStatus.FROZEN
    subscriptions_freeze_status(as_of=date(2030, 2, 20))
    desk_subscription.refresh_from_db()
    assert desk_subscription.status == SubscriptionStatus.UNPAID
