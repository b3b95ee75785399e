"""Browser journeys of payments with the simulator, in Debian's Chromium."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from bookings.models import Reservation, ReservationStatus
from courses.tests.factories import CourseFactory, CourseSessionFactory, TariffFactory
from payments.models import PaymentOrder, PaymentStatus
from payments.services.common import MSG_BANK_DECLINED_HOLD
from payments.services.receipts import RECEIPT_SUBJECT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The payment alerts' French messages, as the islands show them (asserted against the JS constants by the Vitest tests).
MSG_CALENDAR_PAID = "✅ Paiement réussi ! Un Email avec votre recu vous a été envoyé"
MSG_CALENDAR_FAILED = "❌ Erreur de paiement"
MSG_TARIFF_PAID = "Paiement réussi ! Un email de confirmation avec votre reçu vous a été envoyé."
MSG_LOGIN_TO_ORDER = "Vous devez être connecté pour effectuer une réservation."
MSG_DEMO = "Mode démonstration"


def receipts(mailoutbox):
    return [m for m in mailoutbox if RECEIPT_SUBJECT in m.subject]


@pytest.fixture
def card(db):
    TariffFactory(title="Cours à l'unité", price=Decimal("25.00"), type="cours", position=1)
    return TariffFactory(title="Carte 10 cours", price=Decimal("190.00"), type="forfait", position=2)


def open_session_popup(page, live_server, session):
    page.goto(live_server.url + "/courses/calendar")
    page.get_by_role("tab", name="Semaine").click()
    target = page.locator(f'.session-event[data-session-id="{session.pk}"]').first
    for _ in range(3):
        try:
            target.wait_for(state="visible", timeout=2500)
            break
        except Exception:
            page.get_by_role("button", name=re.compile("Suivant")).first.click()
    target.click()
    return page.locator("dialog[open]")


@pytest.fixture
def session(db):
    start = timezone.localtime(timezone.now() + timedelta(days=1)).replace(hour=11, minute=0, second=0, microsecond=0)
    return CourseSessionFactory(course=CourseFactory(title="Pole Exotic"), start=start, max_attendees=5)


def test_reserve_and_pay_in_the_calendar_popup(page, live_server, login_as, member, session, mailoutbox):
    login_as(member)
    dialog = open_session_popup(page, live_server, session)
    dialog.get_by_label("Participants").fill("2")
    dialog.get_by_role("button", name="Envoyer la réservation").click()
    widget = dialog.locator(".payment-widget")
    expect(widget).to_contain_text(MSG_DEMO)
    expect(widget).to_contain_text("50,00 €")
    widget.get_by_role("button", name="Payer 50,00 €").click()
    widget.get_by_role("button", name="Payer (simulation)").click()
    expect(page.get_by_text(MSG_CALENDAR_PAID).first).to_be_visible()
    expect(page.locator("dialog[open]")).to_have_count(0)

    order = PaymentOrder.objects.get()
    assert order.status == PaymentStatus.COMPLETED and order.amount == Decimal("50.00")
    assert Reservation.objects.get().status == ReservationStatus.CONFIRMED
    (receipt,) = receipts(mailoutbox)
    assert order.order_id in receipt.body and "50,00 EUR" in receipt.body


def test_a_declined_payment_keeps_the_seats_and_can_be_retried(
    page, live_server, login_as, member, session, mailoutbox
):
    login_as(member)
    dialog = open_session_popup(page, live_server, session)
    dialog.get_by_role("button", name="Envoyer la réservation").click()
    widget = dialog.locator(".payment-widget")
    widget.get_by_role("button", name="Payer 25,00 €").click()
    widget.get_by_role("radio", name="Carte refusée").check()
    widget.get_by_role("button", name="Payer (simulation)").click()

    reservation = Reservation.objects.get()
    until = timezone.localtime(reservation.hold_expires_at).strftime("%H:%M")
    expect(widget.get_by_role("alert")).to_have_text(
        f"{MSG_CALENDAR_FAILED} — {MSG_BANK_DECLINED_HOLD.format(until=until)}"
    )
    expect(page.locator(".Toastify").get_by_text(MSG_CALENDAR_FAILED, exact=True)).to_be_visible()
    expect(page.locator("dialog[open]")).to_have_count(1)
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.HELD
    assert PaymentOrder.objects.get().status == PaymentStatus.DECLINED
    assert receipts(mailoutbox) == []

    widget.get_by_role("button", name="Payer 25,00 €").click()
    widget.get_by_role("button", name="Payer (simulation)").click()
    expect(page.get_by_text(MSG_CALENDAR_PAID).first).to_be_visible()
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    assert len(receipts(mailoutbox)) == 1


def test_buy_a_10_class_card_on_tarifs(page, live_server, login_as, member, card, mailoutbox):
    login_as(member)
    page.goto(live_server.url + "/tarifs")
    page.locator(f"#tarif-{card.pk}").get_by_role("button", name="Commander").click()
    dialog = page.locator("dialog[open]")
    expect(dialog.get_by_role("heading")).to_have_text("Commander : Carte 10 cours")
    quantity = dialog.get_by_label("Quantité")
    expect(quantity).to_have_value("1")
    expect(dialog.locator("[data-total]")).to_have_text("190,00 €")
    quantity.fill("2")
    expect(dialog.locator("[data-total]")).to_have_text("380,00 €")
    dialog.get_by_label("J'accepte les conditions générales de vente").check()
    dialog.get_by_role("button", name="Payer 380,00 €").click()
    expect(quantity).to_be_disabled()
    dialog.get_by_role("button", name="Payer (simulation)").click()
    expect(page.get_by_text(MSG_TARIFF_PAID).first).to_be_visible()
    expect(page.locator("dialog[open]")).to_have_count(0)

    order = PaymentOrder.objects.get()
    assert order.status == PaymentStatus.COMPLETED
    assert (order.tariff, order.quantity, order.amount) == (card, 2, Decimal("380.00"))
    (receipt,) = receipts(mailoutbox)
    assert "Carte 10 cours × 2" in receipt.body and "380,00 EUR" in receipt.body

    # Opening again starts from a quantity of 1.
    page.locator(f"#tarif-{card.pk}").get_by_role("button", name="Commander").click()
    expect(page.locator("dialog[open]").get_by_label("Quantité")).to_have_value("1")


def test_cancel_a_payment(page, live_server, login_as, member, card, mailoutbox):
    login_as(member)
    page.goto(live_server.url + "/tarifs")
    page.locator(f"#tarif-{card.pk}").get_by_role("button", name="Commander").click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label("J'accepte les conditions générales de vente").check()
    dialog.get_by_role("button", name="Payer 190,00 €").click()
    simulator = dialog.get_by_role("group", name="Fenêtre de paiement simulée")
    simulator.get_by_role("button", name="Annuler le paiement").click()
    expect(dialog.get_by_role("status")).to_contain_text("Paiement annulé")
    expect(dialog.get_by_role("button", name="Payer 190,00 €")).to_be_visible()
    order = PaymentOrder.objects.get()
    for _ in range(20):
        order.refresh_from_db()
        if order.status == PaymentStatus.VOIDED:
            break
        page.wait_for_timeout(100)
    assert order.status == PaymentStatus.VOIDED

    dialog.locator(".modal-actions").get_by_role("button", name="Annuler").click()
    expect(page.locator("dialog[open]")).to_have_count(0)
    assert receipts(mailoutbox) == []


def test_visitors_are_asked_to_log_in(page, live_server, card):
    page.goto(live_server.url + "/tarifs")
    page.locator(f"#tarif-{card.pk}").get_by_role("button", name="Commander").click()
    expect(page.get_by_text(MSG_LOGIN_TO_ORDER)).to_be_visible()
    expect(page.locator("dialog[open]")).to_have_count(0)
    assert page.url.endswith("/tarifs")


def test_buy_button_on_the_price_list_opens_the_order(page, live_server, login_as, member, card):
    login_as(member)
    page.goto(live_server.url + "/tarifs-page")
    page.get_by_role("button", name=re.compile("Acheter : .*10 cours")).click()
    dialog = page.locator("dialog[open]")
    expect(dialog.get_by_label("Quantité")).to_have_value("1")
    expect(dialog.locator("[data-total]")).to_have_text("190,00 €")


def test_paypal_script_loads_only_when_a_payment_starts(page, live_server, login_as, member, card, settings):
    settings.PAYPAL_CLIENT_ID = "sandbox-client-id"
    settings.PAYPAL_CLIENT_SECRET = "sandbox-secret"
    # What studio/settings/base.py adds to the CSP when PayPal is configured (settings are read at start-up).
    csp = {key: list(value) for key, value in settings.SECURE_CSP.items()}
    csp["script-src"] += ["https://www.paypal.com", "https://www.sandbox.paypal.com", "https://*.paypalobjects.com"]
    settings.SECURE_CSP = csp
    sdk_requests = []

    def refuse(route):
        sdk_requests.append(route.request.url)
        route.abort()  # no network to PayPal in tests: the widget must say the module could not load

    page.route(re.compile(r"https://www\.paypal\.com/sdk/js.*"), refuse)
    login_as(member)
    page.goto(live_server.url + "/tarifs")
    page.locator(f"#tarif-{card.pk}").get_by_role("button", name="Commander").click()
    dialog = page.locator("dialog[open]")
    widget = dialog.locator(".payment-widget")
    expect(widget).to_have_attribute("data-provider", "paypal")
    expect(widget).to_have_attribute("data-script-state", "initial")
    expect(widget).not_to_contain_text(MSG_DEMO)
    assert page.locator("script[src*='paypal.com']").count() == 0 and sdk_requests == []

    dialog.get_by_label("J'accepte les conditions générales de vente").check()
    dialog.get_by_role("button", name="Payer 190,00 €").click()
    expect(widget).to_have_attribute("data-script-state", "rejected")
    expect(widget.get_by_role("alert")).to_contain_text("n'a pas pu être chargé")
    assert len(sdk_requests) == 1 and "client-id=sandbox-client-id" in sdk_requests[0]
    assert "currency=EUR" in sdk_requests[0]
