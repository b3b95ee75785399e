"""The withdrawal right of a class card or a subscription (docs/decisions.md 47; L221-18, L221-25): for 14 days after
the purchase, once, what was not used goes back through the provider that took it — everything, when the member had
not asked to start at once."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from freezegun import freeze_time

from bookings.models import Pass
from courses.tests.factories import TariffFactory
from invoices.models import Invoice, InvoiceKind
from invoices.tests.helpers import pay_tariff
from payments.models import PaymentOrder, PaymentStatus
from payments.services import withdrawal as w
from payments.services.refunds import REFUND_SUBJECT
from payments.simulator import SimulatedProviderOrder
from payments.subscriptions.models import ChargeStatus, Subscription, SubscriptionActionKind, SubscriptionStatus
from payments.subscriptions.services.lifecycle import subscription_charges_run

pytestmark = pytest.mark.django_db

WITHDRAW = "/api/paypal/withdrawal"


@pytest.fixture
def card(db):
    return TariffFactory(title="Carte 10 cours", type="forfait", price=Decimal("190.00"), pass_credits=10,
                         pass_validity_months=6)  # fmt: skip


def test_the_messages_are_french():
    assert w.MSG_WITHDRAWAL_NOT_FOUND == "Cet achat est introuvable."
    assert w.MSG_WITHDRAWAL_CLOSED == "Le délai de rétractation de 14 jours est dépassé pour cet achat."
    assert w.MSG_WITHDRAWAL_DONE == "Vous avez déjà exercé votre droit de rétractation pour cet achat."
    assert w.MSG_WITHDRAWAL_NOT_OFFERED == "Cet achat ne se rétracte pas en ligne : écrivez-nous, nous vous répondrons."
    assert w.MSG_WITHDRAWAL_REFUND.format(amount="152,00", unused=8, total=10) == (
        "Rétractation enregistrée : 152,00 € vous sont remboursés (8 séance(s) non utilisée(s) sur 10)."
    )
    assert w.MSG_WITHDRAWAL_NOTHING == (
        "Rétractation enregistrée : toutes les séances de la carte ont été suivies, rien n'est à rembourser."
    )
    assert w.MSG_WITHDRAWAL_SUBSCRIPTION.format(amount="44,35", unused=25, total=31) == (
        "Rétractation enregistrée : votre abonnement prend fin aujourd'hui et 44,35 € vous sont remboursés "
        "(25 jour(s) non utilisé(s) sur 31)."
    )
    assert w.MSG_WITHDRAWAL_FULL.format(amount="190,00") == (
        "Rétractation enregistrée : 190,00 € vous sont remboursés, la totalité de votre achat."
    )


def test_unused_part_is_pro_rata_to_the_cent_below():
    assert w.unused_part(amount=Decimal("190.00"), credits_left=8, credits_total=10) == Decimal("152.00")
    assert w.unused_part(amount=Decimal("100.00"), credits_left=2, credits_total=3) == Decimal("66.66")
    assert w.unused_part(amount=Decimal("190.00"), credits_left=10, credits_total=10) == Decimal("190.00")


def test_day_5_with_2_classes_used_refunds_the_unused_part_once(
    api_client, member, card, mailoutbox, django_capture_on_commit_callbacks
):
    bought = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        order = pay_tariff(api_client, member, card, immediate_start=True)
    Pass.objects.filter(pk=order.granted_pass_id).update(credits_left=8)  # two classes taken
    with freeze_time(bought + timedelta(days=5)), django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(WITHDRAW, {"orderId": order.order_id}, format="json")
        again = api_client.post(WITHDRAW, {"orderId": order.order_id}, format="json")
    assert response.status_code == 200, response.json()
    message = "Rétractation enregistrée : 152,00 € vous sont remboursés (8 séance(s) non utilisée(s) sur 10)."
    assert response.json() == {"message": message, "refund_amount": "152.00"}
    assert again.status_code == 409 and again.json()["error"] == w.MSG_WITHDRAWAL_DONE

    order.refresh_from_db()
    assert order.status == PaymentStatus.REFUNDED and order.withdrawal_refund_amount == Decimal("152.00")
    assert order.withdrawn_at is not None and order.refund_id
    assert Pass.objects.get(pk=order.granted_pass_id).credits_left == 0
    assert SimulatedProviderOrder.objects.filter(refund_id=order.refund_id).count() == 1
    (credit,) = Invoice.objects.filter(kind=InvoiceKind.CREDIT_NOTE)
    assert credit.total_amount == Decimal("152.00")
    (notice,) = [m for m in mailoutbox if REFUND_SUBJECT in m.subject]
    assert message in notice.body and "Montant remboursé : 152,00 EUR" in notice.body


def test_an_unused_card_is_refunded_in_full(api_client, member, card, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        order = pay_tariff(api_client, member, card)
        response = api_client.post(WITHDRAW, {"orderId": order.order_id}, format="json")
    assert response.json()["refund_amount"] == "190.00"
    order.refresh_from_db()
    assert order.status == PaymentStatus.REFUNDED and order.withdrawal_refund_amount == Decimal("190.00")


def test_a_card_fully_used_is_withdrawn_with_nothing_to_refund(
    api_client, member, card, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        order = pay_tariff(api_client, member, card, immediate_start=True)
    Pass.objects.filter(pk=order.granted_pass_id).update(credits_left=0)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(WITHDRAW, {"orderId": order.order_id}, format="json")
    (ack,) = [m for m in mailoutbox if m.subject.endswith(w.WITHDRAWAL_SUBJECT)]
    assert w.MSG_WITHDRAWAL_NOTHING in ack.body and order.order_id in ack.body
    assert w.WITHDRAWAL_SUBJECT == "Votre rétractation"
    assert response.status_code == 200
    assert response.json() == {"message": w.MSG_WITHDRAWAL_NOTHING, "refund_amount": "0.00"}
    assert PaymentOrder.objects.get().status == PaymentStatus.COMPLETED


def test_after_14_days_the_withdrawal_is_closed(api_client, member, card, django_capture_on_commit_callbacks):
    bought = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        order = pay_tariff(api_client, member, card)
    with freeze_time(bought + timedelta(days=14, minutes=1)):
        response = api_client.post(WITHDRAW, {"orderId": order.order_id}, format="json")
    assert response.status_code == 409 and response.json()["error"] == w.MSG_WITHDRAWAL_CLOSED
    order.refresh_from_db()
    assert order.withdrawn_at is None and order.status == PaymentStatus.COMPLETED


def test_another_members_order_is_not_found(api_client, member, other_member, card, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        order = pay_tariff(api_client, member, card)
    api_client.force_authenticate(other_member)
    response = api_client.post(WITHDRAW, {"orderId": order.order_id}, format="json")
    assert response.status_code == 404 and response.json()["error"] == w.MSG_WITHDRAWAL_NOT_FOUND
    assert api_client.post(WITHDRAW, {"orderId": "inconnu"}, format="json").json()["error"] == (
        w.MSG_WITHDRAWAL_NOT_FOUND
    )


def test_the_member_lists_the_purchases_open_to_withdrawal(
    api_client, member, card, django_capture_on_commit_callbacks
):
    bought = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        order = pay_tariff(api_client, member, card)
    (row,) = api_client.get(WITHDRAW).json()
    assert row["orderId"] == order.order_id and row["title"] == "Carte 10 cours"
    with freeze_time(bought + timedelta(days=15)):
        assert api_client.get(WITHDRAW).json() == []


# --- the profile's "Exercer mon droit de rétractation" ---------------------------------------------------------------


def test_the_profile_offers_the_withdrawal_for_14_days(
    client, api_client, member, card, django_capture_on_commit_callbacks
):
    bought = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        order = pay_tariff(api_client, member, card)
    client.force_login(member)
    html = client.get("/user/profile").text
    assert "Droit de rétractation" in html
    assert f'href="/user/retractation/{order.order_id}"' in html
    assert ">Exercer mon droit de rétractation<" in html
    with freeze_time(bought + timedelta(days=15)):
        assert "Exercer mon droit de rétractation" not in client.get("/user/profile").text


def test_the_withdrawal_page_says_what_happens_then_confirms(
    client, api_client, member, card, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        order = pay_tariff(api_client, member, card, immediate_start=True)
    Pass.objects.filter(pk=order.granted_pass_id).update(credits_left=8)
    client.force_login(member)
    page = client.get(f"/user/retractation/{order.order_id}").text
    assert "<h1>Exercer mon droit de rétractation</h1>" in page
    assert "8 séance(s) non utilisée(s) sur 10" in page and "152,00 €" in page
    assert ">Confirmer ma rétractation<" in page
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(f"/user/retractation/{order.order_id}")
    assert done.status_code == 200
    message = "Rétractation enregistrée : 152,00 € vous sont remboursés (8 séance(s) non utilisée(s) sur 10)."
    assert message in done.text
    assert [m for m in mailoutbox if REFUND_SUBJECT in m.subject]
    again = client.post(f"/user/retractation/{order.order_id}")
    assert again.status_code == 409 and w.MSG_WITHDRAWAL_DONE in again.text


def test_another_members_withdrawal_page_is_not_found(client, api_client, member, other_member, card,
                                                       django_capture_on_commit_callbacks):  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        order = pay_tariff(api_client, member, card)
    client.force_login(other_member)
    response = client.get(f"/user/retractation/{order.order_id}")
    assert response.status_code == 404 and w.MSG_WITHDRAWAL_NOT_FOUND in response.text


def test_without_the_immediate_start_request_the_classes_taken_are_not_due(
    api_client, member, card, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        order = pay_tariff(api_client, member, card)
    Pass.objects.filter(pk=order.granted_pass_id).update(credits_left=8)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(WITHDRAW, {"orderId": order.order_id}, format="json")
    assert response.json() == {
        "message": "Rétractation enregistrée : 190,00 € vous sont remboursés, la totalité de votre achat.",
        "refund_amount": "190.00",
    }
    order.refresh_from_db()
    assert order.status == PaymentStatus.REFUNDED and Pass.objects.get(pk=order.granted_pass_id).credits_left == 0


# --- a subscription ----------------------------------------------------------------------------------------------


@freeze_time("2030-01-10 10:00:00")
def test_a_subscription_withdrawn_on_day_5_ends_and_refunds_the_unused_days_once(
    api_client, member, annual, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        order = pay_tariff(api_client, member, annual, immediate_start=True)
    subscription = Subscription.objects.get(source_order=order)
    with freeze_time("2030-01-15 18:00:00"), django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(WITHDRAW, {"orderId": order.order_id}, format="json")
        again = api_client.post(WITHDRAW, {"orderId": order.order_id}, format="json")
    # January 10 to February 9 is 31 days paid; the 10th to the 15th (6 days) were used: 55 € × 25 / 31 = 44.35.
    message = (
        "Rétractation enregistrée : votre abonnement prend fin aujourd'hui et 44,35 € vous sont remboursés "
        "(25 jour(s) non utilisé(s) sur 31)."
    )
    assert response.status_code == 200 and response.json() == {"message": message, "refund_amount": "44.35"}
    assert again.status_code == 409 and again.json()["error"] == w.MSG_WITHDRAWAL_DONE
    subscription.refresh_from_db()
    order.refresh_from_db()
    assert subscription.status == SubscriptionStatus.CANCELLED
    assert subscription.granted_pass.expires_on == date(2030, 1, 15)
    assert subscription.actions.get().kind == SubscriptionActionKind.MEMBER_WITHDRAW
    assert order.status == PaymentStatus.REFUNDED and order.withdrawal_refund_amount == Decimal("44.35")
    assert SimulatedProviderOrder.objects.filter(refund_id=order.refund_id).count() == 1
    (credit,) = Invoice.objects.filter(kind=InvoiceKind.CREDIT_NOTE)
    assert credit.total_amount == Decimal("44.35")
    (notice,) = [m for m in mailoutbox if REFUND_SUBJECT in m.subject]
    assert message in notice.body
    # Nothing more is charged: the next period's due date passes without a charge.
    with freeze_time("2030-02-11 09:00:00"):
        subscription_charges_run()
    assert not subscription.charges.exclude(status=ChargeStatus.PAID).exists()
    assert subscription.charges.count() == 1


@freeze_time("2030-01-10 10:00:00")
def test_a_subscription_bought_without_the_immediate_start_request_is_refunded_in_full(
    client, api_client, member, annual, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        order = pay_tariff(api_client, member, annual)
    client.force_login(member)
    with freeze_time("2030-01-15 18:00:00"):
        assert f'href="/user/retractation/{order.order_id}"' in client.get("/user/profile").text
        page = client.get(f"/user/retractation/{order.order_id}").text
        assert "rien de ce que vous avez utilisé n'est dû" in page and "<strong>55,00 €</strong>" in page
        assert "Votre abonnement prend fin aujourd'hui : plus rien ne sera prélevé." in page
        with django_capture_on_commit_callbacks(execute=True):
            done = client.post(f"/user/retractation/{order.order_id}")
    assert "Rétractation enregistrée : 55,00 € vous sont remboursés, la totalité de votre achat." in done.text
    order.refresh_from_db()
    assert order.status == PaymentStatus.REFUNDED and order.withdrawal_refund_amount == Decimal("55.00")


@freeze_time("2030-01-10 10:00:00")
def test_the_subscription_page_counts_days_not_classes(client, api_client, member, annual,
                                                       django_capture_on_commit_callbacks):  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        order = pay_tariff(api_client, member, annual, immediate_start=True)
    client.force_login(member)
    with freeze_time("2030-01-15 18:00:00"):
        page = client.get(f"/user/retractation/{order.order_id}").text
    assert "25 jour(s) non utilisé(s) sur 31" in page and "<strong>44,35 €</strong>" in page
    assert "séance" not in page.split("<h1>")[1].split("</section>")[0]
