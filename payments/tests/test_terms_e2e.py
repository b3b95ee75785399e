"""On a 390 px phone: a class card is bought only with the terms of sale ticked, and a card or a subscription is
withdrawn from within 14 days (docs/decisions.md 47)."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect
from rest_framework.test import APIClient

from bookings.models import Pass
from courses.tests.factories import TariffFactory
from payments.models import PaymentOrder, PaymentStatus
from payments.subscriptions.models import Subscription, SubscriptionStatus

from .conftest import tariff_payload
from .test_attacks_money import approve, capture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
MSG_TERMS_REQUIRED = "Veuillez accepter les conditions générales de vente."
MSG_TARIFF_PAID = "Paiement réussi ! Un email de confirmation avec votre reçu vous a été envoyé."
TERMS_LABEL = "J'accepte les conditions générales de vente"
IMMEDIATE_LABEL = "Je demande que ma carte ou mon abonnement commence avant la fin du délai de rétractation"


def test_a_card_is_refused_without_the_terms_then_bought_with_them(page, live_server, login_as, member):
    card = TariffFactory(title="Carte 10 cours", price=Decimal("190.00"), type="forfait", position=1)
    page.set_viewport_size(PHONE)
    login_as(member)
    page.goto(live_server.url + "/tarifs")
    page.locator(f"#tarif-{card.pk}").get_by_role("button", name="Commander").click()
    dialog = page.locator("dialog[open]")
    terms = dialog.get_by_label(TERMS_LABEL)
    expect(terms).to_have_attribute("required", "")
    expect(dialog.get_by_role("link", name="conditions générales de vente")).to_have_attribute("href", "/cgv")

    dialog.get_by_role("button", name="Payer 190,00 €").click()
    expect(dialog.get_by_role("alert")).to_have_text(MSG_TERMS_REQUIRED)
    expect(terms).to_be_focused()
    assert not PaymentOrder.objects.exists()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    terms.check()
    dialog.get_by_label(IMMEDIATE_LABEL).check()
    dialog.get_by_role("button", name="Payer 190,00 €").click()
    dialog.get_by_role("button", name="Payer (simulation)").click()
    expect(page.get_by_text(MSG_TARIFF_PAID).first).to_be_visible()
    order = PaymentOrder.objects.get()
    assert order.status == PaymentStatus.COMPLETED
    assert order.terms_version and order.terms_accepted_at is not None and order.immediate_start is True


def test_withdrawal_from_the_profile_on_a_phone(page, live_server, login_as, member):
    card = TariffFactory(title="Carte 10 cours", price=Decimal("190.00"), type="forfait", position=1, pass_credits=10,
                         pass_validity_months=6)  # fmt: skip
    page.set_viewport_size(PHONE)
    login_as(member)
    page.goto(live_server.url + "/tarifs")
    page.locator(f"#tarif-{card.pk}").get_by_role("button", name="Commander").click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label(TERMS_LABEL).check()
    # Asked to start at once: the classes taken are due (L221-25), the unused ones come back.
    dialog.get_by_label(IMMEDIATE_LABEL).check()
    dialog.get_by_role("button", name="Payer 190,00 €").click()
    dialog.get_by_role("button", name="Payer (simulation)").click()
    expect(page.get_by_text(MSG_TARIFF_PAID).first).to_be_visible()
    order = PaymentOrder.objects.get()
    Pass.objects.filter(pk=order.granted_pass_id).update(credits_left=8)  # two classes taken

    page.goto(live_server.url + "/user/profile")
    page.get_by_role("link", name="Exercer mon droit de rétractation").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Exercer mon droit de rétractation")
    expect(page.get_by_text("152,00 €")).to_be_visible()
    page.get_by_role("button", name="Confirmer ma rétractation").click()
    expect(page.get_by_role("status")).to_have_text(
        "Rétractation enregistrée : 152,00 € vous sont remboursés (8 séance(s) non utilisée(s) sur 10)."
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    order.refresh_from_db()
    assert order.withdrawal_refund_amount == Decimal("152.00") and order.status == PaymentStatus.REFUNDED


def test_withdrawal_from_a_subscription_on_a_phone(page, live_server, login_as, member, annual):
    api = APIClient()
    api.force_authenticate(member)
    created = api.post("/api/paypal/create-order", tariff_payload(annual, member, immediate_start=True), format="json")
    approve(api, created.json()["id"])
    assert capture(api, created.json()["id"]).status_code == 200
    subscription = Subscription.objects.get(source_order__order_id=created.json()["id"])

    page.set_viewport_size(PHONE)
    login_as(member)
    page.goto(live_server.url + "/user/profile")
    page.get_by_role("link", name="Exercer mon droit de rétractation").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Exercer mon droit de rétractation")
    expect(page.get_by_text("Votre abonnement prend fin aujourd'hui : plus rien ne sera prélevé.")).to_be_visible()
    page.get_by_role("button", name="Confirmer ma rétractation").click()
    expect(page.get_by_role("status")).to_contain_text(
        "Rétractation enregistrée : votre abonnement prend fin aujourd'hui"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    subscription.refresh_from_db()
    assert subscription.status == SubscriptionStatus.CANCELLED
