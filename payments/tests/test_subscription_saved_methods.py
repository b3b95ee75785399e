"""Subscriptions paid by a saved method with the simulator: a card, or a SEPA mandate whose debits stay "En cours"
until the simulated bank settles them (paid, or returned for Stripe's failing test IBAN), the pre-notification
before each debit, what the member and staff see, and the deletion with the account."""

from datetime import date, timedelta
from io import StringIO

import pytest
from django.core import mail
from django.core.management import call_command
from freezegun import freeze_time

from bookings.services.passes import add_months
from payments.subscriptions.models import (
    ChargeStatus,
    SavedMethodStatus,
    SavedPaymentMethod,
    SepaPreNotification,
    Subscription,
    SubscriptionStatus,
)
from payments.subscriptions.selectors import member_subscription_rows, staff_subscription_rows
from payments.subscriptions.services import saved_methods as methods
from payments.subscriptions.services.common import CHARGE_FAILED_SUBJECT, SEPA_NOTICE_SUBJECT
from payments.subscriptions.services.debits import sepa_pre_notifications_send, simulated_debits_settle
from payments.subscriptions.services.lifecycle import subscription_charges_run
from payments.subscriptions.simulated_debits import IBAN_RETURNED, IBAN_SUCCEEDS, NOTE_CARD_DECLINED

from .test_subscriptions import buy, run_due_jobs

pytestmark = pytest.mark.django_db


METHOD = "/api/subscriptions/method"
CARD = "/api/subscriptions/method/simulator/card"
SEPA = "/api/subscriptions/method/simulator/sepa"
SETUP = "/api/subscriptions/method/stripe/setup"
START = "2030-01-10 10:00:00"


def save_card(api_client, member, scenario="success"):
    api_client.force_authenticate(member)
    return api_client.post(CARD, {"scenario": scenario}, format="json")


def save_mandate(api_client, member, iban=IBAN_SUCCEEDS, holder="Emma Petit", accepted=True):
    api_client.force_authenticate(member)
    return api_client.post(SEPA, {"iban": iban, "holder": holder, "accepted": accepted}, format="json")


def error_of(response):
    return response.json()["error"]


def mails(subject, to=None):
    return [m for m in mail.outbox if m.subject.endswith(subject) and (to is None or m.to == [to])]


def second_due(subscription):
    return add_months(subscription.starts_on, 1)


# --- saving ------------------------------------------------------------------------------------------------------


@freeze_time(START)
def test_the_member_reads_how_to_save_a_method_and_the_sepa_mandate_naming_the_studio(api_client, member, settings):
    api_client.force_authenticate(member)
    body = api_client.get(METHOD).json()
    assert body["provider"] == "simulator" and body["publishableKey"] == "" and body["method"] is None
    assert body["mandateText"].startswith(
        f"En signant ce formulaire de mandat, vous autorisez {settings.STUDIO['name']} à envoyer des instructions"
    )
    assert "dans les 8 semaines suivant la date de débit" in body["mandateText"]


@freeze_time(START)
def test_a_simulated_card_is_saved_and_shown_by_its_last_digits_and_expiry(api_client, member):
    response = save_card(api_client, member)
    assert response.status_code == 201
    assert response.json()["label"] == "Carte •••• 4242, expire 12/32"
    assert api_client.get(METHOD).json()["method"]["label"] == "Carte •••• 4242, expire 12/32"


@freeze_time(START)
def test_a_simulated_sepa_mandate_keeps_only_the_iban_country_and_last_digits(api_client, member):
    response = save_mandate(api_client, member, iban="fr14 2004 1010 0505 0001 3M02 606")
    assert response.status_code == 201, response.json()
    method = SavedPaymentMethod.objects.get()
    assert (method.kind, method.country, method.last4, method.status) == ("sepa_debit", "FR14", "2606", "active")
    assert method.mandate_reference.startswith("STUDIO-")
    assert response.json()["label"] == "Prélèvement SEPA FR14 •••• 2606, mandat du 10/01/2030"
    stored = " ".join(str(getattr(method, f.attname)) for f in SavedPaymentMethod._meta.concrete_fields)
    assert "20041010050500013" not in stored and "Emma Petit" not in stored


@pytest.mark.parametrize(
    ("payload", "message", "field"),
    [
        ({"iban": "FR14 2004 1010 0505 0001 3M02 607", "holder": "Emma", "accepted": True}, methods.MSG_IBAN, "iban"),
        ({"iban": "pas un IBAN", "holder": "Emma", "accepted": True}, methods.MSG_IBAN, "iban"),
        ({"holder": "Emma", "accepted": True}, methods.MSG_IBAN, "iban"),
        ({"iban": IBAN_SUCCEEDS, "holder": "  ", "accepted": True}, methods.MSG_HOLDER, "holder"),
        ({"iban": IBAN_SUCCEEDS, "holder": "Emma", "accepted": False}, methods.MSG_MANDATE, "accepted"),
        ({"iban": IBAN_SUCCEEDS, "holder": "Emma"}, methods.MSG_MANDATE, "accepted"),
    ],
)
def test_a_bad_mandate_is_refused_in_french_and_nothing_is_saved(api_client, member, payload, message, field):
    api_client.force_authenticate(member)
    response = api_client.post(SEPA, payload, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][field] == [message]
    assert not SavedPaymentMethod.objects.exists()


def test_messages_of_saving_read_as_written():
    assert methods.MSG_IBAN == "Cet IBAN n'est pas valide : vérifiez-le (ex. FR76 3000 6000 0112 3456 7890 189)."
    assert methods.MSG_HOLDER == "Indiquez le titulaire du compte."
    assert methods.MSG_MANDATE == "Acceptez le mandat de prélèvement SEPA pour l'enregistrer."
    assert methods.MSG_METHOD_UNUSABLE == "Aucun moyen de paiement utilisable (mandat révoqué ou carte retirée)."
    assert methods.MSG_KIND == "Choisissez une carte ou un prélèvement SEPA."
    assert methods.MSG_SCENARIO == "Choisissez une carte simulée qui fonctionne ou qui sera refusée."
    assert methods.MSG_SIMULATOR_OFF == (
        "Le simulateur n'est pas utilisé : enregistrez votre moyen de paiement avec Stripe."
    )
    assert methods.MSG_STRIPE_OFF == "L'enregistrement d'un moyen de paiement par Stripe n'est pas proposé."
    assert methods.MSG_SETUP_NOT_FOUND == "Cet enregistrement de moyen de paiement est introuvable."
    assert methods.MSG_STRIPE_DOWN == "Stripe ne répond pas : réessayez dans quelques instants."
    assert NOTE_CARD_DECLINED == "Carte refusée par la banque (simulée)."
    assert SEPA_NOTICE_SUBJECT == "Prochain prélèvement SEPA de votre abonnement"


def test_an_unknown_simulated_card_is_refused(api_client, member):
    response = save_card(api_client, member, scenario="volée")
    assert response.status_code == 400 and error_of(response) == methods.MSG_SCENARIO
    assert not SavedPaymentMethod.objects.exists()


def test_with_stripe_configured_the_simulator_saves_nothing_and_without_it_stripe_is_not_offered(
    api_client, member, settings
):
    response = save_card(api_client, member)
    api_client.force_authenticate(member)
    setup = api_client.post(SETUP, {"kind": "card"}, format="json")
    assert setup.status_code == 409 and error_of(setup) == methods.MSG_STRIPE_OFF
    assert response.status_code == 201
    settings.STRIPE_SECRET_KEY, settings.STRIPE_PUBLISHABLE_KEY = "sk_test_x", "pk_test_x"
    refused = save_mandate(api_client, member)
    assert refused.status_code == 409 and error_of(refused) == methods.MSG_SIMULATOR_OFF
    assert SavedPaymentMethod.objects.count() == 1


def test_the_apis_need_a_logged_in_member(api_client):
    assert api_client.get(METHOD).status_code in (401, 403)
    assert api_client.post(CARD, {}, format="json").status_code in (401, 403)


@freeze_time(START)
def test_a_new_method_replaces_the_old_one_for_the_live_subscriptions(api_client, member, annual):
    save_card(api_client, member)
    subscription = buy(api_client, member, annual)
    first = SavedPaymentMethod.objects.get()
    assert subscription.saved_method == first
    assert save_mandate(api_client, member).status_code == 201
    first.refresh_from_db()
    assert first.status == SavedMethodStatus.REPLACED
    subscription.refresh_from_db()
    assert subscription.saved_method.kind == "sepa_debit"


# --- charging a card ------------------------------------------------------------------------------------------------


@freeze_time(START)
def test_the_next_period_is_charged_to_the_saved_card_once(api_client, member, annual):
    save_card(api_client, member)
    subscription = buy(api_client, member, annual)
    outcome = subscription_charges_run(as_of=second_due(subscription))
    again = subscription_charges_run(as_of=second_due(subscription))
    assert outcome["paid"] == 1 and again["paid"] == 0
    charge = subscription.charges.get(period=2)
    assert charge.status == ChargeStatus.PAID and charge.provider_reference.startswith("SIMCARD-")


@freeze_time(START)
def test_a_declining_saved_card_makes_the_period_unpaid_and_mails_the_member(
    api_client,
    member,
    annual,
    django_capture_on_commit_callbacks,
):
    save_card(api_client, member, scenario="declines")
    subscription = buy(api_client, member, annual)
    with django_capture_on_commit_callbacks(execute=True):
        subscription_charges_run(as_of=second_due(subscription))
    charge = subscription.charges.get(period=2)
    assert (charge.status, charge.failure_note) == (ChargeStatus.FAILED, NOTE_CARD_DECLINED)
    assert charge.next_attempt_on == second_due(subscription) + timedelta(days=3)
    assert Subscription.objects.get(pk=subscription.pk).status == SubscriptionStatus.UNPAID
    assert len(mails(CHARGE_FAILED_SUBJECT, to=member.email)) == 1


# --- SEPA debits --------------------------------------------------------------------------------------------------


@freeze_time(START)
def test_a_sepa_debit_is_in_progress_until_the_simulated_bank_settles_it_days_later(
    api_client,
    member,
    annual,
    settings,
):
    settings.SIMULATOR_SEPA_SETTLE_DAYS = 3
    save_mandate(api_client, member)
    subscription = buy(api_client, member, annual)
    due = second_due(subscription)
    with freeze_time(due):
        assert "prélèvements SEPA envoyés : 1, ignorées : 0" in run_due_jobs(due.isoformat())
        charge = subscription.charges.get(period=2)
        assert (charge.status, charge.get_status_display()) == (ChargeStatus.PROCESSING, "En cours")
        assert charge.provider_reference.startswith("SIMSEPA-") and charge.attempts == 1
        assert simulated_debits_settle() == {"paid": 0, "returned": 0}
    with freeze_time(due + timedelta(days=2)):
        assert subscription_charges_run(as_of=due + timedelta(days=2))["paid"] == 0  # not debited twice
        assert simulated_debits_settle() == {"paid": 0, "returned": 0}
    with freeze_time(due + timedelta(days=3, hours=1)):
        assert simulated_debits_settle() == {"paid": 1, "returned": 0}
        assert simulated_debits_settle() == {"paid": 0, "returned": 0}
    charge.refresh_from_db()
    assert (charge.status, charge.attempts) == (ChargeStatus.PAID, 1)
    subscription.refresh_from_db()
    assert subscription.periods_paid == 2
    assert subscription.granted_pass.expires_on == add_months(subscription.starts_on, 2) - timedelta(days=1)


@freeze_time(START)
def test_a_returned_debit_makes_the_period_unpaid_then_is_debited_again_at_the_retry(
    api_client,
    member,
    annual,
    django_capture_on_commit_callbacks,
):
    save_mandate(api_client, member, iban=IBAN_RETURNED)
    subscription = buy(api_client, member, annual)
    due = second_due(subscription)
    out = StringIO()
    with freeze_time(due), django_capture_on_commit_callbacks(execute=True):
        subscription_charges_run(as_of=due)
        call_command("simulator_settle_debits", stdout=out)
    assert out.getvalue().strip() == "Prélèvements payés : 0, rejetés : 1."
    charge = subscription.charges.get(period=2)
    assert (charge.status, charge.failure_note) == (ChargeStatus.FAILED, "Prélèvement rejeté par la banque (simulé).")
    assert Subscription.objects.get(pk=subscription.pk).status == SubscriptionStatus.UNPAID
    (failed,) = mails(CHARGE_FAILED_SUBJECT)
    reference = SavedPaymentMethod.objects.get().mandate_reference
    retry = (due + timedelta(days=3)).strftime("%d/%m/%Y")
    assert (
        f"Nous réessaierons le {retry} (Prélèvement SEPA FR84 •••• 2607, mandat du 10/01/2030). Le prélèvement de "
        f"55,00 € sera présenté ce jour-là (référence unique du mandat : {reference}, créancier : "
        "Studio Pole Danse Lyon)."
    ) in failed.body
    subscription_charges_run(as_of=due + timedelta(days=3))
    charge.refresh_from_db()
    assert (charge.status, charge.attempts) == (ChargeStatus.PROCESSING, 2)


@freeze_time(START)
def test_the_settling_command_pays_the_debits_in_flight_at_once(api_client, member, annual):
    save_mandate(api_client, member)
    subscription = buy(api_client, member, annual)
    subscription_charges_run(as_of=second_due(subscription))
    out = StringIO()
    call_command("simulator_settle_debits", stdout=out)
    assert out.getvalue().strip() == "Prélèvements payés : 1, rejetés : 0."
    assert subscription.charges.get(period=2).status == ChargeStatus.PAID


@freeze_time(START)
def test_the_member_is_told_of_each_sepa_debit_two_days_ahead_once(
    api_client,
    member,
    annual,
    settings,
    django_capture_on_commit_callbacks,
):
    settings.SUBSCRIPTION_SEPA_NOTICE_DAYS = 2
    save_mandate(api_client, member)
    subscription = buy(api_client, member, annual)
    due = second_due(subscription)
    with django_capture_on_commit_callbacks(execute=True):
        assert sepa_pre_notifications_send(as_of=due - timedelta(days=3)) == 0
        assert sepa_pre_notifications_send(as_of=due - timedelta(days=2)) == 1
        assert sepa_pre_notifications_send(as_of=due - timedelta(days=1)) == 0
    notices = mails(SEPA_NOTICE_SUBJECT)
    assert len(notices) == 1 and notices[0].to == [member.email]
    method = SavedPaymentMethod.objects.get()
    assert f"Le {due:%d/%m/%Y}, 55,00 € seront prélevés sur votre compte" in notices[0].body
    assert f"Référence unique du mandat : {method.mandate_reference}" in notices[0].body
    assert f"Créancier : {settings.STUDIO['name']}" in notices[0].body
    assert SepaPreNotification.objects.get().period == 2


@freeze_time(START)
def test_a_card_subscription_gets_no_pre_notification(api_client, member, annual):
    save_card(api_client, member)
    subscription = buy(api_client, member, annual)
    assert sepa_pre_notifications_send(as_of=second_due(subscription) - timedelta(days=2)) == 0


@freeze_time(START)
def test_an_unusable_method_refuses_the_period(api_client, member, annual):
    save_mandate(api_client, member)
    subscription = buy(api_client, member, annual)
    SavedPaymentMethod.objects.update(status=SavedMethodStatus.INACTIVE)
    subscription_charges_run(as_of=second_due(subscription))
    charge = subscription.charges.get(period=2)
    assert (charge.status, charge.failure_note) == (ChargeStatus.FAILED, methods.MSG_METHOD_UNUSABLE)


# --- what the member and staff see, the account's deletion --------------------------------------------------------


@freeze_time(START)
def test_the_member_and_staff_see_the_method_each_subscription_uses(api_client, member, annual, staff):
    save_mandate(api_client, member)
    buy(api_client, member, annual)
    label = "Prélèvement SEPA FR14 •••• 2606, mandat du 10/01/2030"
    assert member_subscription_rows(member_id=member.pk)[0]["method_label"] == label
    assert staff_subscription_rows()[0]["method_label"] == label
    api_client.force_authenticate(staff)
    assert api_client.get("/api/subscriptions").json()[0]["method_label"] == label


@freeze_time(START)
def test_the_profile_shows_the_method_and_offers_to_replace_it(client, member, annual, api_client):
    save_card(api_client, member)
    buy(api_client, member, annual)
    client.force_login(member)
    page = client.get("/user/profile").content.decode()
    assert "Payé par : Carte •••• 4242, expire 12/32" in page
    assert 'id="subscription-method-' in page


@freeze_time(START)
def test_deleting_the_account_deletes_the_saved_methods(api_client, member, annual):
    from accounts.tests.factories import DEFAULT_PASSWORD

    save_mandate(api_client, member)
    buy(api_client, member, annual)
    api_client.force_authenticate(member)
    assert api_client.delete("/api/users/me", {"password": DEFAULT_PASSWORD}, format="json").status_code == 200
    assert not SavedPaymentMethod.objects.exists()
    assert Subscription.objects.get().saved_method is None


def test_iban_check_digits():
    assert methods.iban_normalize("FR76 3000 6000 0112 3456 7890 189") == "FR7630006000011234567890189"
    assert methods.iban_normalize(IBAN_RETURNED) == IBAN_RETURNED
    assert methods.iban_normalize("FR76 3000 6000 0112 3456 7890 188") == ""
    assert date(2030, 1, 1)  # the module's dates are local dates


@freeze_time(START)
def test_staff_cancel_with_refund_gives_back_a_period_charged_to_the_saved_card(
    api_client, member, annual, staff, django_capture_on_commit_callbacks
):
    from payments.subscriptions.services.staff import subscription_cancel

    save_card(api_client, member)
    subscription = buy(api_client, member, annual)
    due = second_due(subscription)
    subscription_charges_run(as_of=due)
    with django_capture_on_commit_callbacks(execute=True):
        subscription_cancel(subscription_id=subscription.pk, by=staff, reason="Déménagement", refund=True, today=due)
    charge = subscription.charges.get(period=2)
    assert charge.status == ChargeStatus.REFUNDED and charge.refund_id.startswith("SIMREF-")


@freeze_time(START)
def test_the_members_data_export_holds_the_saved_method_as_they_know_it(api_client, member):
    save_mandate(api_client, member)
    api_client.force_authenticate(member)
    response = api_client.get("/api/users/me/export")
    exported = response.json()["saved_payment_methods"]
    method = SavedPaymentMethod.objects.get()
    assert exported == [
        {
            "label": "Prélèvement SEPA FR14 •••• 2606, mandat du 10/01/2030",
            "kind": "Prélèvement SEPA",
            "status": "Utilisable",
            "mandate_reference": method.mandate_reference,
            "saved_at": exported[0]["saved_at"],
        }
    ]


@freeze_time(START)
def test_pay_now_on_the_profile_offers_no_simulated_card_choice_when_a_method_is_saved(
    client, api_client, member, annual
):
    save_card(api_client, member, scenario="declines")
    subscription = buy(api_client, member, annual)
    subscription_charges_run(as_of=second_due(subscription))
    client.force_login(member)
    page = client.get("/user/profile").content.decode()
    props = f'"subscriptionId": {subscription.pk}, "title": "Abonnement annuel illimit\\u00e9", "simulated": false}}'
    assert props in page


def test_saving_methods_over_and_over_is_refused_for_an_hour(api_client, member, settings):
    settings.SAVED_METHODS_PER_HOUR = 2
    with freeze_time("2030-01-10 10:00:00"):
        assert save_card(api_client, member).status_code == 201
    with freeze_time("2030-01-10 10:20:00"):
        assert save_mandate(api_client, member).status_code == 201
        refused = save_card(api_client, member)
    assert refused.status_code == 429 and refused["Retry-After"] == str(40 * 60)
    assert error_of(refused) == (
        "Vous avez déjà enregistré 2 moyens de paiement en moins d'une heure : réessayez dans 40 min."
    )
    assert SavedPaymentMethod.objects.count() == 2
    with freeze_time("2030-01-10 11:00:01"):
        assert save_card(api_client, member).status_code == 201


@freeze_time(START)
def test_pay_now_with_a_sepa_mandate_sends_the_debit_and_answers_it_in_progress(
    api_client, member, annual, django_capture_on_commit_callbacks
):
    save_mandate(api_client, member, iban=IBAN_RETURNED)
    subscription = buy(api_client, member, annual)
    subscription_charges_run(as_of=second_due(subscription))
    call_command("simulator_settle_debits", stdout=StringIO())
    save_mandate(api_client, member)  # a new account replaces the one whose debit came back
    api_client.force_authenticate(member)
    response = api_client.post(f"/api/subscriptions/{subscription.pk}/pay", {}, format="json")
    assert response.status_code == 200
    period = next(c for c in response.json()["charges"] if c["period"] == 2)
    assert (period["status"], period["status_label"]) == ("processing", "En cours")
    call_command("simulator_settle_debits", stdout=StringIO())
    assert subscription.charges.get(period=2).status == ChargeStatus.PAID
    assert Subscription.objects.get(pk=subscription.pk).status == SubscriptionStatus.ACTIVE
