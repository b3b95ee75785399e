"""An EVJF/EVG request's life on a 390 px phone: a member sends an EVJF request, staff quote it in the dashboard, the
member sees 'Devis envoyé' in 'Mes demandes' and pays the deposit with the simulator, staff confirm, the member sees
'Confirmée' with the history. Then 'Nouveau message' on /user/messages starts a conversation with the studio."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from messaging.conversations import MSG_CONVERSATION_STARTED
from messaging.models import ContactMessage
from payments.models import PaymentOrder, PaymentStatus
from quotes.models import PartyReservation

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MSG_PARTY_SENT = "Réservation effectuée avec succès ! 🎉"
MSG_DEPOSIT_PAID = "Acompte payé ! Un email de confirmation avec votre reçu vous a été envoyé."
PHONE = {"width": 390, "height": 844}


def fits_the_phone(locator):
    box = locator.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def test_an_evjf_request_from_quote_to_confirmation(page, live_server, login_as, member, staff):
    page.set_viewport_size(PHONE)
    day = timezone.localdate() + timedelta(days=40)

    # The member sends the request from /evjf-evg.
    login_as(member)
    page.goto(live_server.url + "/evjf-evg")
    page.get_by_role("button", name="Réserver votre EVJF / EVG").click()
    page.get_by_label("Date *").fill(day.isoformat())
    page.get_by_label("Heure *").fill("15:00")
    page.get_by_label("Participants *").fill("8")
    page.get_by_role("button", name="Envoyer la demande").click()
    expect(page.get_by_text(MSG_PARTY_SENT).first).to_be_visible()
    party = PartyReservation.objects.get(user=member)
    assert party.status == "sent"

    page.goto(live_server.url + "/user/requests")
    card = page.locator(f'[data-request="evjf-{party.pk}"]')
    expect(card).to_contain_text("Envoyée")

    # Staff quote it from the dashboard: 8 participants, 2 spectators → 7 × 25 + 2 × 5 = 185 €, deposit 50 €.
    login_as(staff)
    page.goto(live_server.url + "/admin/parties")
    page.get_by_role("button", name=f"Gérer la demande {party.pk}").click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("Demande envoyée")
    dialog.get_by_label("Spectateurs").fill("2")
    dialog.get_by_label("Acompte à payer en ligne (€)").fill("50.00")
    dialog.get_by_label("Mot pour le membre").fill("Atelier de 2 h, tenue libre.")
    dialog.get_by_role("button", name="Envoyer le devis").click()
    expect(dialog.get_by_role("status")).to_have_text("Devis envoyé au membre.")
    expect(dialog).to_contain_text("185,00")
    party.refresh_from_db()
    assert (party.status, party.quote_amount, party.deposit_amount) == ("quoted", Decimal("185.00"), Decimal("50.00"))

    # The member sees 'Devis envoyé' and pays the deposit with the simulator.
    login_as(member)
    page.goto(live_server.url + "/user/requests")
    card = page.locator(f'[data-request="evjf-{party.pk}"]')
    expect(card).to_contain_text("Devis envoyé")
    expect(card).to_contain_text("185,00 €")
    card.get_by_role("link", name="Payer l'acompte").click()
    expect(page.locator("#request-status")).to_contain_text("Devis envoyé")
    expect(page.get_by_text("Atelier de 2 h, tenue libre.").first).to_be_visible()
    pay = page.get_by_role("button", name="Payer 50,00 €")
    fits_the_phone(pay)
    page.get_by_label("J'accepte les conditions générales de vente").check()
    pay.click()
    page.get_by_role("button", name="Payer (simulation)").click()
    expect(page.get_by_text(MSG_DEPOSIT_PAID).first).to_be_visible()
    page.get_by_role("link", name="Actualiser le suivi de la demande").click()
    expect(page.locator("#request-status")).to_contain_text("acompte payé, confirmation à venir")
    expect(page.get_by_role("button", name="Payer 50,00 €")).to_have_count(0)
    order = PaymentOrder.objects.get(party=party)
    assert (order.status, order.amount) == (PaymentStatus.COMPLETED, Decimal("50.00"))

    # Staff confirm; the member sees 'Confirmée' and the whole history.
    login_as(staff)
    page.goto(live_server.url + "/admin/parties")
    page.get_by_role("button", name=f"Gérer la demande {party.pk}").click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("Acompte payé")
    dialog.get_by_role("button", name="Confirmer la demande").click()
    expect(dialog.get_by_role("status")).to_have_text("Demande confirmée : le membre est prévenu.")

    login_as(member)
    page.goto(live_server.url + f"/user/requests/evjf/{party.pk}")
    expect(page.locator("#request-status")).to_have_text("Statut : Confirmée")
    history = page.locator(".request-history")
    for step in ("Demande envoyée", "Devis envoyé", "Acompte payé", "Demande confirmée"):
        expect(history).to_contain_text(step)
    expect(page.get_by_role("button", name="Annuler la demande")).to_have_count(0)
    page.screenshot(path="test-artifacts/party-request-390.png", full_page=True)
    party.refresh_from_db()
    assert party.status == "confirmed" and party.deposit_paid_at is not None


def test_a_member_writes_a_new_message_to_the_studio(page, live_server, login_as, member):
    page.set_viewport_size(PHONE)
    login_as(member)
    page.goto(live_server.url + "/user/messages")
    page.get_by_role("button", name="Nouveau message").click()
    page.get_by_role("button", name="Envoyer").click()
    expect(page.get_by_role("alert")).to_have_text("Indiquez le sujet de votre message.")
    page.get_by_label("Sujet").fill("Cours d'essai")
    page.get_by_label("Message", exact=True).fill("Puis-je venir samedi à 10 h ?")
    page.get_by_role("button", name="Envoyer").click()
    expect(page.get_by_role("status").filter(has_text=MSG_CONVERSATION_STARTED)).to_be_visible()
    expect(page.get_by_role("heading", name="Cours d'essai")).to_be_visible()
    message = ContactMessage.objects.get(user=member)
    assert (message.subject, message.text, message.email) == (
        "Cours d'essai",
        "Puis-je venir samedi à 10 h ?",
        member.email,
    )
    assert page.url.endswith(f"/user/messages/{message.pk}")
    fits_the_phone(page.get_by_role("button", name="Répondre"))
