"""The member ends or pauses their own subscription (docs/decisions.md 46 and 55): POST
/api/subscriptions/{id}/terminate and /pause, only on their own live subscription, with French answers and an
e-mail each."""

from datetime import date
from decimal import Decimal

import pytest
from freezegun import freeze_time

from bookings.models import Pass
from courses.tests.factories import TariffFactory
from payments.subscriptions.models import (
    ChargeStatus,
    SubscriptionAction,
    SubscriptionActionKind,
    SubscriptionCharge,
    SubscriptionFreeze,
    SubscriptionPlan,
    SubscriptionStatus,
)
from payments.subscriptions.services import common as subs
from payments.subscriptions.services import member as member_actions
from payments.subscriptions.services.lifecycle import subscription_freeze
from payments.subscriptions.services.member import termination_summary
from studio.models import OutgoingEmail

from .test_subscription_paypal import subscribe
from .test_subscriptions import buy, run_due_jobs

pytestmark = pytest.mark.django_db


def terminate(api_client, subscription):
    return api_client.post(f"/api/subscriptions/{subscription.pk}/terminate", {}, format="json")


def pause(api_client, subscription, **body):
    return api_client.post(f"/api/subscriptions/{subscription.pk}/pause", body, format="json")


def emails(subject):
    return OutgoingEmail.objects.filter(subject__endswith=f" – {subject}")


def test_the_member_terminates_once_the_committed_periods_stay_due_and_an_email_says_so(
    api_client,
    member,
    annual,  # noqa: F811
):
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
    with freeze_time("2030-01-20 10:00:00"):
        summary = termination_summary(subscription)
        assert (summary.last_day, summary.periods_left, summary.left_amount_text) == (date(2031, 1, 9), 11, "605,00")
        assert summary.period_amount_text == "55,00" and not summary.terminated
        response = terminate(api_client, subscription)
        assert response.status_code == 200, response.json()
        body = response.json()
        assert body["message"] == (
            "Votre résiliation est enregistrée : vous pouvez réserver jusqu'au 09/01/2031. Les échéances encore dues "
            "au titre de votre engagement (11 × 55,00 €, soit 605,00 € au total) seront prélevées comme prévu ; "
            "l'abonnement ne sera pas renouvelé."
        )
        # The commitment runs on: still active, the pass through the paid period, extended as each one is paid.
        assert body["subscription"]["status_label"] == "Active"
        assert body["subscription"]["pass_expires_on"] == "2030-02-09"
        again = terminate(api_client, subscription)
        assert again.status_code == 200 and again.json()["message"] == body["message"]
    [mail] = emails(member_actions.TERMINATED_SUBJECT)
    assert mail.subject.endswith("Résiliation de votre abonnement")
    assert "demandée le 20/01/2030" in mail.body_text and "jusqu'au 09/01/2031 inclus" in mail.body_text
    assert (
        "Les échéances encore dues au titre de votre engagement (11 × 55,00 €, soit 605,00 € au total) seront "
        "prélevées comme prévu." in mail.body_text
    )
    assert "L'abonnement ne sera pas renouvelé." in mail.body_text
    assert SubscriptionAction.objects.filter(kind=SubscriptionActionKind.MEMBER_TERMINATE).count() == 1
    with freeze_time("2030-02-10 07:00:00"):
        run_due_jobs("2030-02-10")
    assert SubscriptionCharge.objects.get(subscription=subscription, period=2).status == ChargeStatus.PAID
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.ACTIVE and subscription.periods_paid == 2
    assert Pass.objects.get(pk=subscription.granted_pass_id).expires_on == date(2030, 3, 9)


def test_a_refused_period_stays_owed_and_retried_after_terminating(
    api_client,
    member,
    annual,  # noqa: F811
):
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
    subscription.simulated_card_declines = True
    subscription.save(update_fields=["simulated_card_declines"])
    with freeze_time("2030-02-10 07:00:00"):
        run_due_jobs("2030-02-10")
    charge = SubscriptionCharge.objects.get(subscription=subscription, period=2)
    assert charge.status == ChargeStatus.FAILED and charge.next_attempt_on is not None
    with freeze_time("2030-02-11 10:00:00"):
        api_client.force_authenticate(member)
        assert terminate(api_client, subscription).status_code == 200
    retry_on = charge.next_attempt_on
    charge.refresh_from_db()
    assert charge.status == ChargeStatus.FAILED and charge.next_attempt_on == retry_on
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.UNPAID


def test_a_paid_up_subscription_terminated_charges_nothing_and_is_not_offered_renewal(
    api_client, member, django_capture_on_commit_callbacks
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
        subscription = buy(api_client, member, quarterly)  # one period, paid: ends 09/04/2030
    with freeze_time("2030-02-01 10:00:00"):
        response = terminate(api_client, subscription)
        assert response.status_code == 200
        assert response.json()["message"] == (
            "Votre abonnement est résilié : vous pouvez réserver jusqu'au 09/04/2030. Plus rien ne sera prélevé et il "
            "ne sera pas renouvelé."
        )
    [mail] = emails(member_actions.TERMINATED_SUBJECT)
    assert "Plus aucune échéance ne sera prélevée. L'abonnement ne sera pas renouvelé." in mail.body_text
    with freeze_time("2030-03-25 07:00:00"), django_capture_on_commit_callbacks(execute=True):
        assert "invitations à renouveler : 0" in run_due_jobs("2030-03-25")
    with freeze_time("2030-04-10 07:00:00"):
        run_due_jobs("2030-04-10")
    subscription.refresh_from_db()
    assert subscription.renewal_invited_on is None and subscription.status == SubscriptionStatus.ENDED
    assert SubscriptionCharge.objects.filter(subscription=subscription).count() == 1
    assert not emails(subs.RENEWAL_SUBJECT).exists()


def test_another_members_subscription_is_a_404_and_unchanged(
    api_client,
    member,
    other_member,
    annual,  # noqa: F811
):
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
        api_client.force_authenticate(other_member)
        for response in (
            terminate(api_client, subscription),
            pause(api_client, subscription, starts_on="2030-01-20", weeks=1),
        ):
            assert response.status_code == 404
            assert response.json()["error"] == "Cet abonnement est introuvable."
        assert api_client.post("/api/subscriptions/999999/terminate", {}, format="json").status_code == 404
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.ACTIVE and not subscription.freezes.exists()
    assert not emails(member_actions.TERMINATED_SUBJECT).exists()


def test_an_anonymous_visitor_is_refused(api_client, member, annual):  # noqa: F811
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
    api_client.force_authenticate(None)
    assert terminate(api_client, subscription).status_code in (401, 403)
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.ACTIVE


def test_a_subscription_staff_cancelled_is_a_409_in_french(api_client, member, staff, annual):  # noqa: F811
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
        api_client.force_authenticate(staff)
        assert (
            api_client.post(
                f"/api/subscriptions/{subscription.pk}/cancel", {"reason": "Déménagement"}, format="json"
            ).status_code
            == 200
        )
        api_client.force_authenticate(member)
        for response in (
            terminate(api_client, subscription),
            pause(api_client, subscription, starts_on="2030-01-20", weeks=1),
        ):
            assert response.status_code == 409
            assert response.json()["error"] == subs.MSG_NOT_LIVE
            assert response.json()["error"] == "Cet abonnement est terminé ou annulé : il ne peut plus être modifié."
    assert not emails(member_actions.TERMINATED_SUBJECT).exists()


def test_the_member_pauses_two_weeks_with_the_staff_freeze_effects_and_an_email(
    api_client,
    member,
    annual,  # noqa: F811
):
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
    with freeze_time("2030-01-20 10:00:00"):
        api_client.force_authenticate(member)
        response = pause(api_client, subscription, starts_on="2030-01-21", weeks=2)
        assert response.status_code == 200, response.json()
        body = response.json()
        assert body["message"] == (
            "Votre abonnement est suspendu du 21/01/2030 au 03/02/2030 : vos prochaines échéances et la fin de "
            "votre abonnement sont décalées de 2 semaine(s)."
        )
        assert body["subscription"]["pass_expires_on"] == "2030-02-23"  # 09/02 + 2 weeks
        assert body["subscription"]["next_due_on"] == "2030-02-24"
        assert body["subscription"]["ends_on"] == "2031-01-23"
    [freeze] = SubscriptionFreeze.objects.all()
    assert (freeze.by, freeze.weeks, freeze.reason) == (member, 2, "Suspension demandée par le membre")
    assert Pass.objects.get(pk=subscription.granted_pass_id).expires_on == date(2030, 2, 23)
    [mail] = emails(member_actions.PAUSED_SUBJECT)
    assert mail.subject.endswith("Suspension de votre abonnement")
    assert "suspendu du 21/01/2030 au 03/02/2030 (2 semaines)" in mail.body_text
    assert "Prochaine échéance : le 24/02/2030." in mail.body_text
    assert "Réservations possibles jusqu'au 23/02/2030." in mail.body_text
    with freeze_time("2030-02-10 07:00:00"):  # the old due date: nothing charged
        run_due_jobs("2030-02-10")
    assert not SubscriptionCharge.objects.filter(subscription=subscription, period=2).exists()


@freeze_time("2030-01-20 10:00:00")
@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (
            {"starts_on": "2030-01-20", "weeks": 1},
            400,
            "La suspension commence au plus tôt demain, le 21/01/2030.",
        ),
        ({"starts_on": "2030-01-25", "weeks": 5}, 409, None),
        ({"starts_on": "2031-02-01", "weeks": 1}, 400, None),
        (
            {"starts_on": "demain", "weeks": 1},
            400,
            "Indiquez la date de début de la suspension (AAAA-MM-JJ).",
        ),
        (
            {"starts_on": "2030-01-25", "weeks": 0},
            400,
            "Indiquez le nombre de semaines de suspension (un nombre entier, 1 au moins).",
        ),
        (
            {"starts_on": "2030-01-25"},
            400,
            "Indiquez le nombre de semaines de suspension (un nombre entier, 1 au moins).",
        ),
    ],
)
def test_pause_refusals_are_french_and_change_nothing(api_client, member, annual, body, status, message):  # noqa: F811
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
    api_client.force_authenticate(member)
    response = pause(api_client, subscription, **body)
    assert response.status_code == status, response.json()
    expected = (
        message
        or {
            409: (
                "Votre formule permet au plus 4 semaine(s) de suspension par an : il vous en reste 4 du 10/01/2030 au "
                "09/01/2031."
            ),
            400: "La suspension doit commencer au plus tard le 09/01/2031, dernier jour de votre engagement.",
        }[status]
    )
    assert response.json()["error"] == expected
    assert not SubscriptionFreeze.objects.exists()
    assert not emails(member_actions.PAUSED_SUBJECT).exists()


def test_the_allowance_counts_the_members_pauses_of_the_year_not_staff_freezes(
    api_client,
    member,
    staff,
    annual,  # noqa: F811
):
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
    SubscriptionPlan.objects.create(tariff=annual, pause_weeks_per_year=3)
    with freeze_time("2030-01-20 10:00:00"):
        subscription_freeze(
            subscription_id=subscription.pk, starts_on=date(2030, 6, 1), weeks=4, reason="Blessure", by=staff
        )
        api_client.force_authenticate(member)
        assert pause(api_client, subscription, starts_on="2030-03-01", weeks=2).status_code == 200
        refused = pause(api_client, subscription, starts_on="2030-04-01", weeks=2)
        assert refused.status_code == 409
        assert refused.json()["error"] == (
            "Votre formule permet au plus 3 semaine(s) de suspension par an : il vous en reste 1 du 10/01/2030 au "
            "09/01/2031."
        )
        overlap = pause(api_client, subscription, starts_on="2030-06-10", weeks=1)
        assert overlap.status_code == 409
        assert (
            overlap.json()["error"] == "Votre abonnement est déjà suspendu ou gelé pendant une partie de ces semaines."
        )
        assert pause(api_client, subscription, starts_on="2030-04-01", weeks=1).status_code == 200
    SubscriptionPlan.objects.filter(tariff=annual).update(pause_weeks_per_year=0)
    with freeze_time("2030-01-20 10:00:00"):
        refused = pause(api_client, subscription, starts_on="2030-05-01", weeks=1)
        assert refused.status_code == 409
        assert refused.json()["error"] == "Votre formule ne permet pas de suspendre l'abonnement."
    assert emails(member_actions.PAUSED_SUBJECT).count() == 2


def test_a_frozen_subscription_may_still_be_terminated(api_client, member, staff, annual):  # noqa: F811
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
        subscription_freeze(
            subscription_id=subscription.pk, starts_on=date(2030, 1, 10), weeks=2, reason="Blessure", by=staff
        )
        api_client.force_authenticate(member)
        response = terminate(api_client, subscription)
        assert response.status_code == 200
        # the freeze moves the commitment's end, hence the last day, by its two weeks
        assert "jusqu'au 23/01/2031" in response.json()["message"]


def test_the_service_refuses_less_than_a_week_in_french(api_client, member, annual):  # noqa: F811
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
        with pytest.raises(member_actions.MemberSubscriptionError) as refused:
            member_actions.subscription_pause(
                subscription_id=subscription.pk, user=member, starts_on=date(2030, 1, 20), weeks=0
            )
    assert refused.value.message == member_actions.MSG_PAUSE_WEEKS == "La suspension dure au moins 1 semaine."
    assert (refused.value.status, refused.value.field) == (400, "weeks")
    assert not SubscriptionFreeze.objects.exists()


def test_staff_still_cancel_a_subscription_the_member_paused(api_client, member, staff, annual):  # noqa: F811
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
        api_client.force_authenticate(member)
        assert pause(api_client, subscription, starts_on="2030-01-11", weeks=1).status_code == 200
        api_client.force_authenticate(staff)
        response = api_client.post(
            f"/api/subscriptions/{subscription.pk}/cancel", {"reason": "À la demande du membre"}, format="json"
        )
        assert response.status_code == 200
        kinds = [a["kind"] for a in response.json()["subscription"]["actions"]]
        assert kinds == ["member_pause", "cancel"]
        assert response.json()["subscription"]["actions"][0]["label"] == "Suspendu par le membre"


def test_terminating_a_paypal_subscription_leaves_its_committed_cycles_billed_there(
    api_client,
    member,
    annual,  # noqa: F811
    paypal_settings,
    fake_paypal,
    django_capture_on_commit_callbacks,
):
    with freeze_time("2030-01-10 10:00:00"):
        sub_id, subscription = subscribe(api_client, member, annual, fake_paypal)
        api_client.force_authenticate(member)
        with django_capture_on_commit_callbacks(execute=True):
            assert terminate(api_client, subscription).status_code == 200
        with django_capture_on_commit_callbacks(execute=True):
            assert terminate(api_client, subscription).status_code == 200
    # PayPal bills the plan's committed cycles and stops by itself: nothing to cancel there.
    assert fake_paypal.subscriptions[sub_id]["status"] == "ACTIVE"
    assert not fake_paypal.calls(f"/v1/billing/subscriptions/{sub_id}/cancel")
    assert SubscriptionAction.objects.filter(kind=SubscriptionActionKind.MEMBER_TERMINATE).count() == 1
