"""Buying a gift card on a 390 px phone with the simulator: the member chooses an amount, a recipient, a message and
"dans 3 jours", pays, sees the card in their list with its balance; the voucher waits for its day. A visitor checks a
balance by code. Nothing is wider than the phone."""

import re
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from playwright.sync_api import expect

from offers.models import GiftCard, GiftCardStatus
from offers.services.gift_cards import paris_today
from offers.tasks import VOUCHER_EMAIL_TOPIC
from payments.models import PaymentOrder, PaymentStatus
from studio.models import OutgoingEmail

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# The island's wording (asserted against the JS constants by the Vitest tests).
MSG_GIFT_CARD_PAID = "Carte cadeau payée ! Votre reçu vous a été envoyé par e-mail et la carte partira le jour choisi."


def fits_the_phone(page, shot):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{shot}-390.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.fixture
def phone(page):
    page.set_viewport_size(PHONE)
    return page


def test_a_member_buys_a_gift_card_for_in_3_days_on_a_phone(phone, live_server, login_as, member):
    page = phone
    login_as(member)
    page.goto(live_server.url + "/tarifs")
    page.get_by_role("link", name="carte cadeau").click()
    expect(page).to_have_url(re.compile(r"/cartes-cadeaux$"))
    page.get_by_role("button", name="80,00 €").click()
    page.get_by_label("Prénom et nom du bénéficiaire").fill("Léa Martin")
    page.get_by_label("E-mail du bénéficiaire").fill("lea@example.fr")
    page.get_by_label("Votre message").fill("Joyeux anniversaire, à toi la barre !")
    page.get_by_label("Dans 3 jours").check()
    expect(page.locator(".gift-total")).to_have_text("Total : 80,00 €")
    page.get_by_label("J'accepte les conditions générales de vente").check()
    fits_the_phone(page, "gift-card-form")
    page.get_by_role("button", name="Payer 80,00 €").click()
    simulator = page.get_by_role("group", name="Fenêtre de paiement simulée")
    simulator.get_by_role("button", name="Payer (simulation)").click()
    expect(page.get_by_text(MSG_GIFT_CARD_PAID).first).to_be_visible()

    card = GiftCard.objects.get()
    order = PaymentOrder.objects.get(purchased_gift_card=card)
    assert order.status == PaymentStatus.COMPLETED and order.amount == Decimal("80.00")
    assert card.status == GiftCardStatus.ACTIVE and card.balance == Decimal("80.00")
    assert (card.recipient_email, card.send_on) == ("lea@example.fr", paris_today() + timedelta(days=3))
    assert not OutgoingEmail.objects.filter(topic=VOUCHER_EMAIL_TOPIC).exists()  # its day has not come
    mine = page.locator(".gift-mine")
    expect(mine).to_contain_text(card.code)
    expect(mine).to_contain_text("Solde : 80,00 €")
    fits_the_phone(page, "gift-card-paid")


def test_a_visitor_checks_a_balance_by_code_on_a_phone(phone, live_server):
    GiftCard.objects.create(
        code="CADEAU-ABCD-EFGH",
        initial_amount=Decimal("50.00"),
        balance=Decimal("12.50"),
        status=GiftCardStatus.ACTIVE,
        expires_on=paris_today() + timedelta(days=100),
    )
    page = phone
    page.goto(live_server.url + "/cartes-cadeaux")
    expect(page.get_by_role("link", name="Connectez-vous pour offrir une carte cadeau.")).to_be_visible()
    page.get_by_label("Code de la carte cadeau").fill("cadeau abcd efgh")
    page.get_by_role("button", name="Voir le solde").click()
    expect(page.get_by_role("status").filter(has_text="CADEAU")).to_contain_text("Solde : 12,50 €")
    fits_the_phone(page, "gift-card-balance")


def test_staff_adjust_a_card_with_a_reason_from_the_dashboard(phone, live_server, login_as, staff):
    card = GiftCard.objects.create(
        code="CADEAU-ABCD-EFGH",
        initial_amount=Decimal("50.00"),
        balance=Decimal("0.00"),
        status=GiftCardStatus.ACTIVE,
        buyer_name="Emma Petit",
        recipient_name="Léa Martin",
        expires_on=paris_today() + timedelta(days=100),
    )
    from offers.services.balance import gift_card_move

    gift_card_move(card_id=card.pk, kind="issue", amount=Decimal("50.00"))
    page = phone
    page.add_init_script("window.localStorage.setItem('cookieConsent', 'declined')")
    login_as(staff)
    page.goto(live_server.url + "/admin/gift-cards")
    row = page.locator(".dash-table tbody tr", has_text="CADEAU-ABCD-EFGH")
    expect(row).to_contain_text("50,00 €")
    row.get_by_role("button", name=re.compile("^Ajuster")).click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label("Montant ajouté (négatif pour retirer), en €").fill("-12,50")
    dialog.get_by_label("Motif (gardé dans l'historique de la carte)").fill("Cours de rattrapage déjà offert")
    dialog.get_by_role("button", name="Enregistrer l'ajustement").click()
    expect(page.get_by_role("status").filter(has_text="Solde ajusté")).to_have_text("Solde ajusté : 37,50 €.")
    expect(row).to_contain_text("37,50 €")
    card.refresh_from_db()
    assert card.balance == Decimal("37.50")
    assert card.movements.last().reason == "Cours de rattrapage déjà offert"
    fits_the_phone(page, "gift-card-dashboard")
