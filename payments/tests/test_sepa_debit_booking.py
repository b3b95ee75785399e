"""A period debited from a SEPA mandate takes days to settle: meanwhile the member books the classes of that period,
as a member whose card was refused does for 7 days (docs/decisions.md 25), and a returned debit then blocks new
bookings 7 days after the due date like any unpaid period."""

from datetime import date, timedelta

import pytest
from freezegun import freeze_time

from bookings.models import Pass
from payments.subscriptions.models import ChargeStatus
from payments.subscriptions.services.debits import simulated_debits_settle
from payments.subscriptions.services.lifecycle import subscription_charges_run
from payments.subscriptions.simulated_debits import IBAN_RETURNED, IBAN_SUCCEEDS

from .test_subscription_saved_methods import START, save_mandate
from .test_subscriptions import MSG_PASS_UNPAID, book, buy, session_on

pytestmark = pytest.mark.django_db

DUE = date(2030, 2, 10)  # the second period of a plan bought on START


@freeze_time(START)
def test_the_classes_of_a_period_whose_debit_is_in_progress_can_be_booked(api_client, member, annual, settings):  # noqa: F811
    settings.SIMULATOR_SEPA_SETTLE_DAYS = 3
    save_mandate(api_client, member, iban=IBAN_SUCCEEDS)
    subscription = buy(api_client, member, annual)
    with freeze_time("2030-02-10 07:00:00"):
        subscription_charges_run(as_of=DUE)
    assert subscription.charges.get(period=2).status == ChargeStatus.PROCESSING
    pass_obj = Pass.objects.get(pk=subscription.granted_pass_id)
    assert pass_obj.expires_on == date(2030, 3, 9)
    with freeze_time("2030-02-11 09:00:00"):
        assert book(api_client, member, session_on(date(2030, 2, 12)), pass_obj).status_code == 201
    with freeze_time("2030-02-13 08:00:00"):
        assert simulated_debits_settle() == {"paid": 1, "returned": 0}
    assert Pass.objects.get(pk=pass_obj.pk).expires_on == date(2030, 3, 9)


@freeze_time(START)
def test_a_returned_debit_blocks_new_bookings_seven_days_after_its_due_date(api_client, member, annual, settings):  # noqa: F811
    settings.SIMULATOR_SEPA_SETTLE_DAYS = 3
    save_mandate(api_client, member, iban=IBAN_RETURNED)
    subscription = buy(api_client, member, annual)
    with freeze_time("2030-02-10 07:00:00"):
        subscription_charges_run(as_of=DUE)
    pass_obj = Pass.objects.get(pk=subscription.granted_pass_id)
    with freeze_time("2030-02-11 09:00:00"):
        assert book(api_client, member, session_on(date(2030, 2, 12)), pass_obj).status_code == 201
    with freeze_time("2030-02-13 08:00:00"):
        assert simulated_debits_settle() == {"paid": 0, "returned": 1}
    with freeze_time("2030-02-16 09:00:00"):  # 6 days unpaid: still books
        assert book(api_client, member, session_on(date(2030, 2, 18)), pass_obj).status_code == 201
    with freeze_time(DUE + timedelta(days=7, hours=9)):
        response = book(api_client, member, session_on(date(2030, 2, 19)), pass_obj)
    assert response.status_code == 409 and response.json()["error"] == MSG_PASS_UNPAID
