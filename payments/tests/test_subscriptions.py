"""Subscriptions billed per period: the first period at purchase, the next ones by the scheduler, once."""

from datetime import date, datetime, timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone
from freezegun import freeze_time

from bookings.models import Pass, ReservationStatus
from bookings.services.pass_rules import MSG_PASS_UNPAID
from bookings.services.passes import add_months
from courses.tests.factories import CourseSessionFactory, TariffFactory
from payments.models import PaymentOrder, SimulatedProviderOrder
from payments.subscriptions.models import ChargeStatus, Subscription, SubscriptionCharge, SubscriptionStatus
from payments.subscriptions.services import common as subs
from payments.subscriptions.services.lifecycle import subscription_charges_run
from payments.subscriptions.services.pay_now import subscription_pay_now

from .conftest import tariff_payload
from .test_attacks_money import CREATE, approve, capture, hold

pytestmark = pytest.mark.django_db


def buy(api_client, member, tariff):
    api_client.force_authenticate(member)
    order_id = api_client.post(CREATE, tariff_payload(tariff, member), format="json").json()["id"]
    approve(api_client, order_id)
    assert capture(api_client, order_id).status_code == 200
    return Subscription.objects.get(source_order__order_id=order_id)


def run_due_jobs(day: str) -> str:
    out = StringIO()
    call_command("run_due_jobs", "--as-of", day, stdout=out)
    return out.getvalue()


def session_on(day: date, hour=19):
    start = timezone.make_aware(datetime(day.year, day.month, day.day, hour, 0))
    return CourseSessionFactory(start=start, end=start + timedelta(hours=1))


def book(api_client, member, session, pass_obj):
    return hold(api_client, member, session, 1, pass_id=pass_obj.pk)


def subscription_charges():
    return SimulatedProviderOrder.objects.filter(order_id__startswith="SIMSUB-")


@freeze_time("2030-01-10 10:00:00")
def test_buying_the_annual_plan_charges_one_month_and_commits_twelve(api_client, member, annual):
    subscription = buy(api_client, member, annual)
    order = PaymentOrder.objects.get()
    assert order.amount == Decimal("55.00")
    assert (subscription.periods_committed, subscription.periods_paid) == (12, 1)
    assert subscription.periods_committed - subscription.periods_paid == 11
    assert subscription.status == SubscriptionStatus.ACTIVE and subscription.amount == Decimal("55.00")
    assert list(subscription.charges.values_list("period", "status")) == [(1, ChargeStatus.PAID)]
    pass_obj = subscription.granted_pass
    assert (pass_obj.starts_on, pass_obj.expires_on) == (date(2030, 1, 10), date(2030, 2, 9))
    # books classes for one month
    assert book(api_client, member, session_on(date(2030, 2, 9)), pass_obj).status_code == 201
    response = book(api_client, member, session_on(date(2030, 2, 12)), pass_obj)
    assert response.status_code == 409 and response.json()["code"] == "pass_not_valid_on_session"
    assert "valable du 10/01/2030 au 09/02/2030" in response.json()["error"]


def test_the_next_period_is_charged_once_on_its_due_date_and_extends_the_pass(api_client, member, annual):
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
    with freeze_time("2030-02-09 07:00:00"):
        assert "payées : 0" in run_due_jobs("2030-02-09")  # not due yet
    with freeze_time("2030-02-10 07:00:00"):
        assert "Échéances payées : 1" in run_due_jobs("2030-02-10")
        assert "Échéances payées : 0" in run_due_jobs("2030-02-10")  # a second run charges nothing
        subscription_charges_run(as_of=date(2030, 2, 10))
    assert subscription_charges().count() == 1
    assert subscription_charges().get().amount == Decimal("55.00")
    subscription.refresh_from_db()
    assert subscription.periods_paid == 2
    charge = subscription.charges.get(period=2)
    assert (charge.status, charge.due_on, charge.attempts) == (ChargeStatus.PAID, date(2030, 2, 10), 1)
    assert Pass.objects.get(pk=subscription.granted_pass_id).expires_on == date(2030, 3, 9)


def test_a_failing_card_is_retried_after_three_days_and_blocks_booking_after_seven(
    api_client, member, annual, mailoutbox, django_capture_on_commit_callbacks
):
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
    Subscription.objects.filter(pk=subscription.pk).update(simulated_card_declines=True)
    mailoutbox.clear()
    with freeze_time("2030-02-10 07:00:00"), django_capture_on_commit_callbacks(execute=True):
        assert "refusées : 1" in run_due_jobs("2030-02-10")
    charge = SubscriptionCharge.objects.get(subscription=subscription, period=2)
    assert (charge.status, charge.next_attempt_on, charge.attempts) == (ChargeStatus.FAILED, date(2030, 2, 13), 1)
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.UNPAID
    assert subscription.get_status_display() == "Impayé"
    failed_mails = [m for m in mailoutbox if subs.CHARGE_FAILED_SUBJECT in m.subject]
    assert len(failed_mails) == 1 and "Payer maintenant : " in failed_mails[0].body
    assert "/user/profile#abonnements" in failed_mails[0].body
    with freeze_time("2030-02-12 07:00:00"):
        run_due_jobs("2030-02-12")  # not before 3 days
    assert SubscriptionCharge.objects.get(pk=charge.pk).attempts == 1
    with freeze_time("2030-02-13 07:00:00"), django_capture_on_commit_callbacks(execute=True):
        run_due_jobs("2030-02-13")
    charge.refresh_from_db()
    assert (charge.attempts, charge.next_attempt_on) == (2, date(2030, 2, 16))
    assert len([m for m in mailoutbox if subs.CHARGE_FAILED_SUBJECT in m.subject]) == 2
    pass_obj = Pass.objects.get(pk=subscription.granted_pass_id)
    with freeze_time("2030-02-16 09:00:00"):  # 6 days unpaid: still books
        assert book(api_client, member, session_on(date(2030, 2, 18)), pass_obj).status_code == 201
    with freeze_time("2030-02-17 09:00:00"):  # 7 days unpaid: books nothing new, bookings made stay
        response = book(api_client, member, session_on(date(2030, 2, 19)), pass_obj)
        assert response.status_code == 409 and response.json()["error"] == MSG_PASS_UNPAID
        assert pass_obj.reservations.filter(status=ReservationStatus.CONFIRMED).count() == 1
        # paid from the profile with a working card: booking allowed again
        subscription_pay_now(subscription_id=subscription.pk, user=member)
        assert book(api_client, member, session_on(date(2030, 2, 19)), pass_obj).status_code == 201
    subscription.refresh_from_db()
    assert (subscription.status, subscription.periods_paid) == (SubscriptionStatus.ACTIVE, 2)
    assert Pass.objects.get(pk=pass_obj.pk).expires_on == date(2030, 3, 9)


def test_pay_now_with_a_declined_card_is_refused_in_french(api_client, member, annual):
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
    Subscription.objects.filter(pk=subscription.pk).update(simulated_card_declines=True)
    with freeze_time("2030-02-10 07:00:00"):
        run_due_jobs("2030-02-10")
        with pytest.raises(subs.SubscriptionError) as refused:
            subscription_pay_now(subscription_id=subscription.pk, user=member, card_declined=True)
    assert refused.value.message == subs.MSG_PAY_NOW_DECLINED
    assert SubscriptionCharge.objects.get(subscription=subscription, period=2).status == ChargeStatus.FAILED


def test_the_commitment_ends_after_twelve_paid_periods_without_renewal(api_client, member, annual):
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
    day = date(2030, 1, 10)
    for month in range(1, 13):
        with freeze_time(f"{add_months(day, month).isoformat()} 07:00:00"):
            run_due_jobs(add_months(day, month).isoformat())
    subscription.refresh_from_db()
    assert subscription.periods_paid == 12 and subscription.status == SubscriptionStatus.ENDED
    assert subscription_charges().count() == 11
    assert Pass.objects.get(pk=subscription.granted_pass_id).expires_on == date(2031, 1, 9)


def test_run_due_jobs_refuses_a_bad_date():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="Date invalide : utilisez le format AAAA-MM-JJ."):
        run_due_jobs("10/02/2030")


def test_the_member_is_invited_to_renew_15_days_before_the_end_once(
    api_client, member, mailoutbox, django_capture_on_commit_callbacks
):
    quarterly = TariffFactory(
        title="Abonnement trimestriel",
        type="abonnement",
        price=Decimal("120.00"),
        frequency="par trimestre",
        pass_unlimited=True,
        pass_validity_months=3,
    )
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, quarterly)  # ends 09/04/2030
    mailoutbox.clear()
    with freeze_time("2030-03-24 07:00:00"), django_capture_on_commit_callbacks(execute=True):
        assert "invitations à renouveler : 0" in run_due_jobs("2030-03-24")
    with freeze_time("2030-03-25 07:00:00"), django_capture_on_commit_callbacks(execute=True):
        assert "invitations à renouveler : 1" in run_due_jobs("2030-03-25")
        assert "invitations à renouveler : 0" in run_due_jobs("2030-03-26")
    [mail] = [m for m in mailoutbox if subs.RENEWAL_SUBJECT in m.subject]
    assert "se termine le 09/04/2030" in mail.body and "Il ne se renouvelle pas tout seul" in mail.body
    assert "/tarifs" in mail.body
    subscription.refresh_from_db()
    assert subscription.renewal_invited_on == date(2030, 3, 25)
