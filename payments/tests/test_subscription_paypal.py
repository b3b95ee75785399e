"""Subscriptions through PayPal Subscriptions v1, against the fake PayPal server: the tariff's product and
billing plan created once and reused, the member's approval in PayPal's popup (our server side: createSubscription
and onApprove), and the webhooks driving the periods, verified and applied once each."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from freezegun import freeze_time

from bookings.models import Pass
from bookings.pass_rules import PassRule
from payments.models import PaymentOrder, PaymentStatus, PaymentWebhookEvent
from payments.services.common import MSG_PROVIDER_DOWN
from payments.subscriptions import periods
from payments.subscriptions.models import ChargeStatus, Subscription, SubscriptionPlan, SubscriptionStatus
from payments.subscriptions.services import common as subs
from payments.subscriptions.services import paypal as pps
from payments.subscriptions.services.lifecycle import subscription_charges_run
from payments.subscriptions.services.paypal_jobs import paypal_subscription_orders_reconcile
from payments.subscriptions.services.paypal_purchase import paypal_plan_ensure

from .conftest import after_commit
from .test_apis import _post_webhook

pytestmark = pytest.mark.django_db

CREATE = "/api/subscriptions/paypal"
APPROVED = "/api/subscriptions/paypal/approved"


def create(api_client, member, tariff, **extra):
    api_client.force_authenticate(member)
    body = {
        "tariff_id": tariff.pk,
        "email": member.email,
        "first_name": member.first_name,
        "last_name": member.last_name,
        "accept_terms": True,
        **extra,
    }
    return api_client.post(CREATE, body, format="json")


def subscribe(api_client, member, tariff, fake_paypal):
    """createSubscription, the buyer's approval in the popup, onApprove, then PayPal's two webhooks."""
    response = create(api_client, member, tariff)
    assert response.status_code == 201, response.content
    sub_id = response.json()["id"]
    events = fake_paypal.approve_subscription(sub_id)
    with after_commit():  # the view queues PayPal's read after the commit
        assert api_client.post(APPROVED, {"subscriptionID": sub_id}, format="json").status_code == 202
    api_client.force_authenticate(None)
    for event in events:
        assert _post_webhook(api_client, event).status_code == 202
    return sub_id, Subscription.objects.get(source_order__order_id=sub_id)


def test_the_tariffs_product_and_plan_are_created_once_and_reused(
    api_client, member, other_member, annual, paypal_settings, fake_paypal
):  # noqa: E501
    first = create(api_client, member, annual)
    second = create(api_client, other_member, annual)
    assert first.status_code == second.status_code == 201
    assert first.json()["id"].startswith("I-") and first.json()["id"] != second.json()["id"]
    assert first.json()["amount"] == "55.00" and first.json()["status"] == PaymentStatus.CREATED
    assert len(fake_paypal.calls("/v1/catalogs/products")) == 1
    assert len([c for c in fake_paypal.calls("/v1/billing/plans") if c["method"] == "POST"]) == 1
    plan = SubscriptionPlan.objects.get(tariff=annual)
    assert plan.paypal_product_id in fake_paypal.products and plan.paypal_plan_id in fake_paypal.plans
    cycle = fake_paypal.plans[plan.paypal_plan_id]["billing_cycles"][0]
    assert cycle["frequency"] == {"interval_unit": "MONTH", "interval_count": 1}
    assert cycle["total_cycles"] == 12
    assert cycle["pricing_scheme"]["fixed_price"] == {"value": "55.00", "currency_code": "EUR"}
    sub = fake_paypal.subscriptions[first.json()["id"]]
    assert sub["plan_id"] == plan.paypal_plan_id and sub["status"] == "APPROVAL_PENDING"
    # A changed price gets a new plan (the old one stays for the members already on it).
    annual.price = Decimal("60.00")
    annual.save()
    assert create(api_client, member, annual).status_code == 201
    assert len(fake_paypal.calls("/v1/catalogs/products")) == 1
    plan.refresh_from_db()
    assert plan.paypal_plan_amount == Decimal("60.00") and len(fake_paypal.plans) == 2


@freeze_time("2030-01-10 10:00:00")
def test_approval_then_webhooks_pay_the_first_period_and_grant_one_month(
    api_client, member, annual, paypal_settings, fake_paypal
):  # noqa: E501
    sub_id, subscription = subscribe(api_client, member, annual, fake_paypal)
    order = PaymentOrder.objects.get(order_id=sub_id)
    assert order.status == PaymentStatus.COMPLETED and order.amount == Decimal("55.00")
    assert (subscription.provider, subscription.provider_subscription_id) == ("paypal", sub_id)
    assert (subscription.periods_committed, subscription.periods_paid) == (12, 1)
    [charge] = subscription.charges.all()
    assert (
        charge.status == ChargeStatus.PAID
        and charge.provider_reference == fake_paypal.subscriptions[sub_id]["_sales"][0]
    )
    pass_obj = Pass.objects.get(pk=subscription.granted_pass_id)
    assert (pass_obj.starts_on, pass_obj.expires_on) == (date(2030, 1, 10), date(2030, 2, 9))
    # Every event recorded once; the approval's read of PayPal (the task) and the webhook paid it once.
    assert PaymentWebhookEvent.objects.count() == 2


def test_onapprove_for_someone_elses_subscription_is_not_found(
    api_client, member, other_member, annual, paypal_settings, fake_paypal
):  # noqa: E501
    sub_id = create(api_client, member, annual).json()["id"]
    api_client.force_authenticate(other_member)
    response = api_client.post(APPROVED, {"subscriptionID": sub_id}, format="json")
    assert response.status_code == 404
    assert response.json()["error"] == "Cette commande de paiement est introuvable."
    assert PaymentOrder.objects.get(order_id=sub_id).status == PaymentStatus.CREATED


def test_each_later_sale_pays_the_next_period_once_even_redelivered(
    api_client, member, annual, paypal_settings, fake_paypal
):  # noqa: E501
    with freeze_time("2030-01-10 10:00:00"):
        sub_id, subscription = subscribe(api_client, member, annual, fake_paypal)
    with freeze_time("2030-02-10 06:00:00"):
        event = fake_paypal.bill_cycle(sub_id, time="2030-02-10T06:00:00Z")
        first = _post_webhook(api_client, event)
        assert first.task_result == "paid"
        assert _post_webhook(api_client, event).task_result == "duplicate"  # the same event again
        again = dict(event, id="WH-ANOTHER-DELIVERY")  # the same sale under another event id
        assert _post_webhook(api_client, again).task_result == "duplicate"
        # The daily job reads the transactions too: nothing more.
        subscription_charges_run(as_of=date(2030, 2, 10))
    subscription.refresh_from_db()
    assert subscription.periods_paid == 2
    charge = subscription.charges.get(period=2)
    assert (charge.status, charge.due_on, charge.provider_reference) == (
        ChargeStatus.PAID,
        date(2030, 2, 10),
        event["resource"]["id"],
    )
    assert subscription.charges.count() == 2
    assert Pass.objects.get(pk=subscription.granted_pass_id).expires_on == date(2030, 3, 9)


def test_a_lost_webhook_is_read_by_the_daily_job(api_client, member, annual, paypal_settings, fake_paypal):
    with freeze_time("2030-01-10 10:00:00"):
        sub_id, subscription = subscribe(api_client, member, annual, fake_paypal)
    fake_paypal.bill_cycle(sub_id, time="2030-02-10T06:00:00Z")  # its webhook never arrives
    with freeze_time("2030-02-10 07:00:00"):
        outcome = subscription_charges_run(as_of=date(2030, 2, 10))
    assert outcome["paypal"]["synced"] == 1
    subscription.refresh_from_db()
    assert subscription.periods_paid == 2 and subscription.charges.get(period=2).status == ChargeStatus.PAID


def test_a_failed_payment_is_unpaid_then_retried_after_three_days_through_paypal(
    api_client, member, annual, paypal_settings, fake_paypal, mailoutbox, django_capture_on_commit_callbacks
):
    with freeze_time("2030-01-10 10:00:00"):
        sub_id, subscription = subscribe(api_client, member, annual, fake_paypal)
    with freeze_time("2030-02-10 06:00:00"), django_capture_on_commit_callbacks(execute=True):
        result = _post_webhook(api_client, fake_paypal.fail_cycle(sub_id, reason="INSUFFICIENT_FUNDS"))
    assert result.task_result == "failed"
    subscription.refresh_from_db()
    charge = subscription.charges.get(period=2)
    assert subscription.status == SubscriptionStatus.UNPAID and subscription.get_status_display() == "Impayé"
    assert (charge.status, charge.next_attempt_on, charge.failure_note) == (
        ChargeStatus.FAILED,
        date(2030, 2, 13),
        "INSUFFICIENT_FUNDS",
    )
    assert PassRule.objects.get(pass_ref_id=subscription.granted_pass_id).blocked_from == date(2030, 2, 17)
    [mail] = [m for m in mailoutbox if "impayée" in m.subject]
    assert "Payer maintenant" in mail.body
    with freeze_time("2030-02-12 07:00:00"):
        subscription_charges_run(as_of=date(2030, 2, 12))  # not yet
    assert not fake_paypal.calls("/capture")
    with freeze_time("2030-02-13 07:00:00"):
        outcome = subscription_charges_run(as_of=date(2030, 2, 13))
    assert outcome["paypal"]["retried"] == 1
    [capture] = fake_paypal.calls(f"/v1/billing/subscriptions/{sub_id}/capture")
    assert b'"OUTSTANDING_BALANCE"' in capture["body"] and capture["headers"]["paypal-request-id"]
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.ACTIVE and subscription.periods_paid == 2
    assert subscription.charges.get(period=2).status == ChargeStatus.PAID
    assert PassRule.objects.get(pass_ref_id=subscription.granted_pass_id).blocked_from is None


def test_cancelled_and_suspended_at_paypal(api_client, member, other_member, annual, paypal_settings, fake_paypal):
    with freeze_time("2030-01-10 10:00:00"):
        sub_id, subscription = subscribe(api_client, member, annual, fake_paypal)
        other_id, other = subscribe(api_client, other_member, annual, fake_paypal)
        cancelled = fake_paypal.event(
            "BILLING.SUBSCRIPTION.CANCELLED", "subscription", dict(fake_paypal._sub_view(sub_id), status="CANCELLED")
        )
        assert _post_webhook(api_client, cancelled).task_result == "cancelled"
        suspended = fake_paypal.event(
            "BILLING.SUBSCRIPTION.SUSPENDED", "subscription", dict(fake_paypal._sub_view(other_id), status="SUSPENDED")
        )
        assert _post_webhook(api_client, suspended).task_result == "suspended"
    subscription.refresh_from_db()
    other.refresh_from_db()
    assert subscription.status == SubscriptionStatus.CANCELLED
    assert Pass.objects.get(pk=subscription.granted_pass_id).expires_on == date(2030, 2, 9)  # the paid month stays
    assert other.status == SubscriptionStatus.UNPAID
    assert PassRule.objects.get(pass_ref_id=other.granted_pass_id).blocked_from == date(2030, 1, 10)


def test_a_subscription_abandoned_in_the_popup_is_voided_when_paypal_cancels_it(
    api_client, member, annual, paypal_settings, fake_paypal
):  # noqa: E501
    sub_id = create(api_client, member, annual).json()["id"]
    api_client.force_authenticate(None)
    view = dict(fake_paypal._sub_view(sub_id), status="CANCELLED")
    _post_webhook(api_client, fake_paypal.event("BILLING.SUBSCRIPTION.CANCELLED", "subscription", view))
    assert PaymentOrder.objects.get(order_id=sub_id).status == PaymentStatus.VOIDED
    assert not Subscription.objects.exists()


def test_a_forged_subscription_webhook_moves_nothing(api_client, member, annual, paypal_settings, fake_paypal):
    sub_id = create(api_client, member, annual).json()["id"]
    api_client.force_authenticate(None)
    _activated, sale = fake_paypal.approve_subscription(sub_id)
    response = _post_webhook(api_client, sale, signature="forged")
    assert response.status_code == 403
    assert PaymentOrder.objects.get(order_id=sub_id).status == PaymentStatus.CREATED
    assert not Subscription.objects.exists() and not PaymentWebhookEvent.objects.exists()


def test_a_sale_of_another_amount_pays_nothing(api_client, member, annual, paypal_settings, fake_paypal):
    with freeze_time("2030-01-10 10:00:00"):
        sub_id, subscription = subscribe(api_client, member, annual, fake_paypal)
        event = fake_paypal.bill_cycle(sub_id)
        event["resource"]["amount"]["total"] = "5.00"
        assert _post_webhook(api_client, event).task_result == "mismatch"
    subscription.refresh_from_db()
    assert subscription.periods_paid == 1


def test_paypal_unreachable_answers_in_french_within_the_budget(api_client, member, annual, paypal_settings):
    paypal_settings.PAYPAL_API_BASE = "http://127.0.0.1:9"  # nothing listens there
    response = create(api_client, member, annual)
    assert response.status_code == 502
    assert response.json()["error"] == MSG_PROVIDER_DOWN
    assert not PaymentOrder.objects.exists()


def test_paypal_subscriptions_need_paypal(api_client, member, annual):
    response = create(api_client, member, annual)
    assert response.status_code == 409
    assert response.json()["error"] == pps.MSG_PAYPAL_NOT_CONFIGURED


def test_a_card_tariff_is_no_subscription(api_client, member, paypal_settings, card_tariff):
    response = create(api_client, member, card_tariff)
    assert response.status_code == 400 or response.status_code == 409
    assert response.json()["error"] == "Cette offre ne se commande pas en ligne."


def test_every_provider_call_has_a_timeout_and_a_budget(paypal_settings, fake_paypal, annual, monkeypatch):
    from payments.providers import PayPalProvider

    seen = []
    original = PayPalProvider._timeout

    def spy(self):
        value = original(self)
        seen.append(value)
        return value

    monkeypatch.setattr(PayPalProvider, "_timeout", spy)
    paypal_plan_ensure(tariff=annual)
    assert len(seen) == 3  # token, product, plan
    assert all(0 < connect <= 5 and 0 < read <= 20 for connect, read in seen)


def test_the_scheduler_leaves_paypal_subscriptions_to_paypal(
    api_client, member, annual, paypal_settings, fake_paypal, django_capture_on_commit_callbacks
):
    with freeze_time("2030-01-10 10:00:00"):
        sub_id, subscription = subscribe(api_client, member, annual, fake_paypal)
    with freeze_time("2030-02-10 07:00:00"), django_capture_on_commit_callbacks(execute=True):
        subscription_charges_run(as_of=date(2030, 2, 10))  # PayPal has not billed: nothing charged here
    assert not fake_paypal.calls("/capture")
    assert not subscription.charges.filter(period=2, status=ChargeStatus.PAID).exists()
    assert date(2030, 2, 10) - timedelta(days=0) == periods.period_due_on(subscription, 2)


def test_the_member_pays_a_refused_paypal_period_now_from_the_profile(
    api_client, client, member, annual, paypal_settings, fake_paypal
):
    with freeze_time("2030-01-10 10:00:00"):
        sub_id, subscription = subscribe(api_client, member, annual, fake_paypal)
    with freeze_time("2030-02-10 06:00:00"):
        _post_webhook(api_client, fake_paypal.fail_cycle(sub_id))
        client.force_login(member)
        page = client.get("/user/profile").content.decode()
        assert 'data-island="subscription-pay"' in page and '"simulated": false' in page
        fake_paypal.refuse_next_outstanding_capture(sub_id)
        api_client.force_authenticate(member)
        refused = api_client.post(f"/api/subscriptions/{subscription.pk}/pay", {}, format="json")
        assert refused.status_code == 409 and refused.json()["error"] == subs.MSG_PAY_NOW_DECLINED
        response = api_client.post(f"/api/subscriptions/{subscription.pk}/pay", {}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == SubscriptionStatus.ACTIVE and response.json()["periods_paid"] == 2
    assert len(fake_paypal.calls(f"/v1/billing/subscriptions/{sub_id}/capture")) == 2


def test_an_approval_whose_answers_were_all_lost_is_reconciled(
    api_client, member, annual, paypal_settings, fake_paypal
):
    from django.utils import timezone

    from payments.reconcile import payment_orders_reconcile

    sub_id = create(api_client, member, annual).json()["id"]
    fake_paypal.approve_subscription(sub_id)  # approved and billed at PayPal; no onApprove, no webhook reached us
    later = timezone.now() + timedelta(minutes=10)
    assert payment_orders_reconcile(now=later) == {}  # the Orders v2 reconciliation leaves it alone
    assert not fake_paypal.calls(f"/v2/checkout/orders/{sub_id}")
    assert paypal_subscription_orders_reconcile(now=later) == {"synced": 1, "unreachable": 0}
    subscription = Subscription.objects.get(source_order__order_id=sub_id)
    assert subscription.periods_paid == 1 and subscription.status == SubscriptionStatus.ACTIVE
    assert PaymentOrder.objects.get(order_id=sub_id).status == PaymentStatus.COMPLETED


def test_a_frozen_paypal_subscription_is_suspended_at_paypal_and_reactivated_after(
    api_client, member, staff, annual, paypal_settings, fake_paypal, django_capture_on_commit_callbacks
):
    with freeze_time("2030-01-10 10:00:00"):
        sub_id, subscription = subscribe(api_client, member, annual, fake_paypal)
    with freeze_time("2030-01-15 10:00:00"):
        api_client.force_authenticate(staff)
        body = {"starts_on": "2030-01-15", "weeks": 2, "reason": "Entorse"}
        with django_capture_on_commit_callbacks(execute=True):
            frozen = api_client.post(f"/api/subscriptions/{subscription.pk}/freeze", body, format="json")
        assert frozen.status_code == 200
        assert fake_paypal.subscriptions[sub_id]["status"] == "SUSPENDED"  # nothing charged during the freeze
        suspended = fake_paypal.event("BILLING.SUBSCRIPTION.SUSPENDED", "subscription", fake_paypal._sub_view(sub_id))
        assert _post_webhook(api_client, suspended).task_result == "suspended for the freeze"
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.FROZEN
    assert PassRule.objects.get(pass_ref_id=subscription.granted_pass_id).blocked_from is None
    with freeze_time("2030-01-28 07:00:00"), django_capture_on_commit_callbacks(execute=True):
        subscription_charges_run(as_of=date(2030, 1, 28))  # still frozen: stays suspended
    assert fake_paypal.subscriptions[sub_id]["status"] == "SUSPENDED"
    with freeze_time("2030-01-29 07:00:00"), django_capture_on_commit_callbacks(execute=True):
        outcome = subscription_charges_run(as_of=date(2030, 1, 29))
    assert outcome["paypal"]["freezes"] == 1
    assert fake_paypal.subscriptions[sub_id]["status"] == "ACTIVE"
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.ACTIVE
    assert periods.period_due_on(subscription, 2) == date(2030, 2, 24)  # moved by the two weeks


def test_paypals_subscription_button_requires_the_terms_and_records_them(
    api_client, member, annual, paypal_settings, fake_paypal
):
    refused = create(api_client, member, annual, accept_terms=False)
    missing = api_client.post(
        CREATE,
        {"tariff_id": annual.pk, "email": member.email, "first_name": "Emma", "last_name": "Petit"},
        format="json",
    )
    for response in (refused, missing):
        assert response.status_code == 400
        assert response.json()["errors"]["accept_terms"] == ["Veuillez accepter les conditions générales de vente."]
    assert not PaymentOrder.objects.exists() and not fake_paypal.calls("/v1/billing/subscriptions")
    created = create(api_client, member, annual, immediate_start=True)
    order = PaymentOrder.objects.get(order_id=created.json()["id"])
    assert order.terms_version and order.terms_accepted_at is not None and order.immediate_start is True
