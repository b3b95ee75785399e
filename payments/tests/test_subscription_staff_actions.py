"""Staff actions on a subscription from the dashboard (docs/decisions.md 25): retry a charge now, cancel with or without
the refund of the current period (through the provider, once), each logged with who and why; and the simulated card
that pays the purchase but fails later (to try the unpaid path)."""

from datetime import date
from decimal import Decimal

import pytest
from freezegun import freeze_time

from bookings.models import Pass
from payments.models import SimulatedProviderOrder
from payments.subscriptions.models import (
    ChargeStatus,
    Subscription,
    SubscriptionAction,
    SubscriptionActionKind,
    SubscriptionStatus,
)
from payments.subscriptions.services import common as subs
from payments.subscriptions.services import staff as staff_actions
from payments.subscriptions.services.lifecycle import subscription_charges_run

from .conftest import tariff_payload
from .test_attacks_money import CREATE, approve, capture
from .test_subscription_paypal import subscribe
from .test_subscriptions import buy

pytestmark = pytest.mark.django_db


def url(subscription, action):
    return f"/api/subscriptions/{subscription.pk}/{action}"


def failed_second_period(api_client, member, tariff):
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, tariff)
    Subscription.objects.filter(pk=subscription.pk).update(simulated_card_declines=True)
    subscription_charges_run(as_of=date(2030, 2, 10))
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.UNPAID
    return subscription


def test_a_simulated_card_that_fails_later_pays_the_purchase_then_leaves_the_next_period_unpaid(
    api_client,
    member,
    annual,  # noqa: F811
):
    with freeze_time("2030-01-10 10:00:00"):
        api_client.force_authenticate(member)
        order_id = api_client.post(CREATE, tariff_payload(annual, member), format="json").json()["id"]
        approve(api_client, order_id, outcome="approve_declines_later")
        assert capture(api_client, order_id).status_code == 200
    subscription = Subscription.objects.get(source_order__order_id=order_id)
    assert subscription.simulated_card_declines and subscription.periods_paid == 1
    with freeze_time("2030-02-10 07:00:00"):
        outcome = subscription_charges_run(as_of=date(2030, 2, 10))
    assert outcome["failed"] == 1
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.UNPAID
    assert subscription.charges.get(period=2).status == ChargeStatus.FAILED


def test_an_unknown_simulated_outcome_is_refused_in_french(api_client, member, annual):  # noqa: F811
    api_client.force_authenticate(member)
    order_id = api_client.post(CREATE, tariff_payload(annual, member), format="json").json()["id"]
    response = api_client.post("/api/paypal/simulator/approve", {"orderId": order_id, "outcome": "x"}, format="json")
    assert response.status_code == 400
    assert "approve_declines_later" in response.json()["error"]


def test_staff_retry_a_failed_period_now(api_client, member, staff, annual):  # noqa: F811
    subscription = failed_second_period(api_client, member, annual)
    api_client.force_authenticate(staff)
    with freeze_time("2030-02-11 09:00:00"):
        again = api_client.post(url(subscription, "retry"), {"reason": "Appel du membre"}, format="json")
    assert again.status_code == 200
    assert again.json()["message"] == staff_actions.MSG_RETRY_FAILED.format(period=2)
    Subscription.objects.filter(pk=subscription.pk).update(simulated_card_declines=False)  # a new card
    with freeze_time("2030-02-11 09:05:00"):
        response = api_client.post(url(subscription, "retry"), {"reason": "Nouvelle carte"}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["message"] == "Échéance 2 relancée : elle est payée."
    assert body["subscription"]["status"] == SubscriptionStatus.ACTIVE
    [_, second] = body["subscription"]["charges"]
    assert (second["status"], second["attempts"]) == (ChargeStatus.PAID, 3)
    actions = body["subscription"]["actions"]
    assert [(a["kind"], a["reason"]) for a in actions] == [("retry", "Appel du membre"), ("retry", "Nouvelle carte")]
    assert actions[1]["by"] == "Camille Laurent" and actions[1]["label"] == "Échéance relancée"
    with freeze_time("2030-02-11 09:10:00"):
        nothing = api_client.post(url(subscription, "retry"), {}, format="json")
    assert nothing.status_code == 409
    assert nothing.json()["error"] == "Aucune échéance impayée à relancer sur cet abonnement."


def test_members_cannot_act_on_subscriptions(api_client, member, annual):  # noqa: F811
    subscription = failed_second_period(api_client, member, annual)
    api_client.force_authenticate(member)
    for action, body in (("retry", {}), ("cancel", {"reason": "x"}), ("end-reduced", {"reason": "x"})):
        assert api_client.post(url(subscription, action), body, format="json").status_code == 403
    assert not SubscriptionAction.objects.exists()


def test_cancel_without_refund_keeps_the_paid_period_and_charges_nothing_more(
    api_client,
    member,
    staff,
    annual,  # noqa: F811
):
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
    api_client.force_authenticate(staff)
    with freeze_time("2030-01-20 10:00:00"):
        missing = api_client.post(url(subscription, "cancel"), {"refund": False, "reason": "  "}, format="json")
        assert missing.status_code == 400
        assert missing.json()["error"] == "Indiquez la raison : elle est gardée dans l'historique de l'abonnement."
        response = api_client.post(
            url(subscription, "cancel"), {"refund": False, "reason": "Déménagement"}, format="json"
        )
    assert response.status_code == 200
    assert response.json()["message"] == "Abonnement annulé : plus aucune échéance ne sera prélevée."
    assert response.json()["subscription"]["status_label"] == "Annulé"
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.CANCELLED
    assert Pass.objects.get(pk=subscription.granted_pass_id).expires_on == date(2030, 2, 9)
    action = SubscriptionAction.objects.get()
    assert (action.kind, action.by, action.reason) == (SubscriptionActionKind.CANCEL, staff, "Déménagement")
    with freeze_time("2030-02-10 07:00:00"):
        assert subscription_charges_run(as_of=date(2030, 2, 10))["paid"] == 0
    assert subscription.charges.count() == 1
    again = api_client.post(url(subscription, "cancel"), {"refund": True, "reason": "Encore"}, format="json")
    assert again.status_code == 409
    assert again.json()["error"] == subs.MSG_NOT_LIVE


def test_cancel_with_refund_gives_the_current_period_back_once(
    api_client,
    member,
    staff,
    annual,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
    with freeze_time("2030-02-10 07:00:00"):
        subscription_charges_run(as_of=date(2030, 2, 10))  # period 2 paid
    api_client.force_authenticate(staff)
    with freeze_time("2030-02-15 10:00:00"):
        with django_capture_on_commit_callbacks(execute=True):
            response = api_client.post(
                url(subscription, "cancel"), {"refund": True, "reason": "Blessure longue"}, format="json"
            )
    assert response.status_code == 200
    assert response.json()["message"] == (
        "Abonnement annulé : la période 2 (55,00 €) est remboursée via le prestataire de paiement."
    )
    charge = subscription.charges.get(period=2)
    assert charge.status == ChargeStatus.REFUNDED and charge.refund_id.startswith("SIMREF-")
    assert charge.refunded_at is not None
    provider_side = SimulatedProviderOrder.objects.get(capture_id=charge.provider_reference)
    assert provider_side.refund_id == charge.refund_id and provider_side.amount == Decimal("55.00")
    # Idempotent: running the refund again (the retry job, a redelivered task) refunds nothing more.
    assert staff_actions.subscription_charge_refund_run(charge_id=charge.pk) == "nothing to refund"
    assert staff_actions.subscription_refunds_retry() == 0
    assert SimulatedProviderOrder.objects.filter(refund_id__startswith="SIMREF-").count() == 1
    assert subscription.charges.get(period=1).status == ChargeStatus.PAID  # only the current period
    subscription.refresh_from_db()
    assert subscription.periods_paid == 1
    assert Pass.objects.get(pk=subscription.granted_pass_id).expires_on == date(2030, 2, 14)
    assert SubscriptionAction.objects.get().kind == SubscriptionActionKind.CANCEL_REFUND


def test_a_refund_the_provider_could_not_take_is_retried(
    api_client,
    member,
    staff,
    annual,  # noqa: F811
    monkeypatch,
    django_capture_on_commit_callbacks,
):
    from payments.provider_types import ProviderError
    from payments.simulator import SimulatorProvider

    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)

    def down(self, **kwargs):
        raise ProviderError("injoignable")

    monkeypatch.setattr(SimulatorProvider, "refund_capture", down)
    with freeze_time("2030-01-12 10:00:00"):
        with django_capture_on_commit_callbacks(execute=True):
            staff_actions.subscription_cancel(subscription_id=subscription.pk, by=staff, reason="Test", refund=True)
    charge = subscription.charges.get(period=1)
    assert charge.status == ChargeStatus.REFUNDED and charge.refund_id == ""
    monkeypatch.undo()
    assert staff_actions.subscription_refunds_retry() == 1
    charge.refresh_from_db()
    assert charge.refund_id.startswith("SIMREF-")


def test_staff_cancel_a_paypal_subscription_with_refund(
    api_client,
    member,
    staff,
    annual,  # noqa: F811
    paypal_settings,
    fake_paypal,
    django_capture_on_commit_callbacks,
):
    with freeze_time("2030-01-10 10:00:00"):
        sub_id, subscription = subscribe(api_client, member, annual, fake_paypal)
        api_client.force_authenticate(staff)
        with django_capture_on_commit_callbacks(execute=True):
            response = api_client.post(
                url(subscription, "cancel"), {"refund": True, "reason": "Erreur de tarif"}, format="json"
            )
    assert response.status_code == 200
    sale_id = fake_paypal.subscriptions[sub_id]["_sales"][0]
    assert sale_id in fake_paypal.sale_refunds
    assert len(fake_paypal.calls(f"/v1/payments/sale/{sale_id}/refund")) == 1
    assert fake_paypal.subscriptions[sub_id]["status"] == "CANCELLED"
    assert fake_paypal.subscriptions[sub_id]["status_change_note"] == "Erreur de tarif"
    charge = subscription.charges.get(period=1)
    assert charge.status == ChargeStatus.REFUNDED and charge.refund_id == fake_paypal.sale_refunds[sale_id]["id"]
    # Already refunded at PayPal: asking again is answered as done.
    from payments.subscriptions.models import SubscriptionCharge

    SubscriptionCharge.objects.filter(pk=charge.pk).update(refund_id="")
    assert staff_actions.subscription_charge_refund_run(charge_id=charge.pk) == "refunded"
    assert len(fake_paypal.sale_refunds) == 1


def test_staff_retry_of_a_paypal_period_goes_through_a_task(
    api_client,
    member,
    staff,
    annual,  # noqa: F811
    paypal_settings,
    fake_paypal,
    django_capture_on_commit_callbacks,
):
    with freeze_time("2030-01-10 10:00:00"):
        sub_id, subscription = subscribe(api_client, member, annual, fake_paypal)
    from .test_apis import _post_webhook

    with freeze_time("2030-02-10 06:00:00"):
        _post_webhook(api_client, fake_paypal.fail_cycle(sub_id))
        api_client.force_authenticate(staff)
        with django_capture_on_commit_callbacks(execute=True):
            response = api_client.post(url(subscription, "retry"), {"reason": "Carte mise à jour"}, format="json")
    assert response.status_code == 200
    assert response.json()["message"] == staff_actions.MSG_RETRY_SENT.format(period=2)
    subscription.refresh_from_db()
    # The immediate task backend of the tests ran the capture after the commit.
    assert subscription.charges.get(period=2).status == ChargeStatus.PAID
    assert subscription.status == SubscriptionStatus.ACTIVE
    assert len(fake_paypal.calls("/capture")) == 1
