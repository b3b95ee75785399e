"""On a 390 px phone: the 10-class card bought with a 15 % code, the rest paid partly with a gift card and partly by
card (docs/decisions.md 49, 56); the invoice shows the price, the discount and both means."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from courses.tests.factories import TariffFactory
from invoices.models import Invoice
from offers.models import GiftCard, PromoCode
from payments.models import PaymentOrder, PaymentStatus

from .test_order_offers import make_code, make_gift_card

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
TERMS_LABEL = "J'accepte les conditions générales de vente"
MSG_TARIFF_PAID = "Paiement réussi ! Un email de confirmation avec votre reçu vous a été envoyé."


def test_a_card_with_a_code_paid_partly_by_gift_card_on_a_phone(page, live_server, login_as, member):
    card_tariff = TariffFactory(title="Carte 10 cours", price=Decimal("190.00"), type="forfait", position=1)
    make_code(tariffs=[card_tariff])
    make_gift_card("100.00")
    page.set_viewport_size(PHONE)
    login_as(member)
    page.goto(live_server.url + "/tarifs")
    page.locator(f"#tarif-{card_tariff.pk}").get_by_role("button", name="Commander").click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_text("Code promo ou carte cadeau ?").click()
    dialog.get_by_label("Code promo").fill("printemps15")
    dialog.get_by_label("Code de carte cadeau").fill("cadeau-2026")
    dialog.get_by_role("button", name="Appliquer").click()
    expect(dialog.get_by_text("Code promo PRINTEMPS15 : −28,50 €")).to_be_visible()
    expect(dialog.get_by_text("Carte cadeau : −100,00 €")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    dialog.get_by_label(TERMS_LABEL).check()
    dialog.get_by_role("button", name="Payer 61,50 €").click()
    dialog.get_by_role("button", name="Payer (simulation)").click()
    expect(page.get_by_text(MSG_TARIFF_PAID).first).to_be_visible()

    order = PaymentOrder.objects.get()
    assert order.status == PaymentStatus.COMPLETED
    assert (order.amount, order.gift_card_amount) == (Decimal("161.50"), Decimal("100.00"))
    assert GiftCard.objects.get().balance == Decimal("0.00")
    assert PromoCode.objects.get().uses_count == 1
    invoice = Invoice.objects.get(payment_order=order)
    assert (invoice.discount_amount, invoice.total_amount) == (Decimal("28.50"), Decimal("161.50"))
    assert [line[1] for line in invoice.payment_lines] == ["100.00", "61.50"]
