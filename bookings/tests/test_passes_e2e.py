"""Class cards in a browser: buy a 10-class card on /tarifs with the simulator, book with it in the calendar popup,
see it on /my-courses and the profile, cancel; staff adjust the pass in the dashboard."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from bookings.models import Pass, PassAdjustment, PassAdjustmentAction, Reservation, ReservationStatus
from bookings.services.cancellation import MSG_CANCEL_SESSION_STARTED, MSG_CANCELLED_CREDITS_RETURNED
from bookings.services.passes import MSG_BOOKED_WITH_PASS, reservation_book_with_pass
from bookings.tests.factories import PassFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory, TariffFactory
from payments.models import PaymentOrder, PaymentStatus

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MSG_TARIFF_PAID = "Paiement réussi ! Un email de confirmation avec votre reçu vous a été envoyé."


@pytest.fixture
def card(db):
    return TariffFactory(
        title="Carte 10 cours", type="forfait", price=Decimal("190.00"), pass_credits=10, pass_validity_months=6
    )


@pytest.fixture
def session(db):
    start = timezone.localtime(timezone.now() + timedelta(days=3)).replace(hour=11, minute=0, second=0, microsecond=0)
    return CourseSessionFactory(course=CourseFactory(title="Pole Exotic"), start=start, max_attendees=5)


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


def test_buy_a_card_then_book_with_it_see_it_and_cancel(page, live_server, login_as, member, card, session):
    login_as(member)
    page.goto(live_server.url + "/tarifs")
    page.locator(f"#tarif-{card.pk}").get_by_role("button", name="Commander").click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label("J'accepte les conditions générales de vente").check()
    dialog.get_by_role("button", name="Payer 190,00 €").click()
    dialog.get_by_role("button", name="Payer (simulation)").click()
    expect(page.get_by_text(MSG_TARIFF_PAID).first).to_be_visible()
    assert PaymentOrder.objects.get().status == PaymentStatus.COMPLETED
    pass_obj = Pass.objects.get(member=member)
    assert pass_obj.credits_left == 10

    # The popup offers the card, chosen by default; booking confirms at once, without a card payment.
    dialog = open_session_popup(page, live_server, session)
    option = dialog.get_by_label(re.compile("Utiliser : Carte 10 cours — 10 crédits restants"))
    expect(option).to_be_checked()
    expect(dialog.locator("[data-total]")).to_have_text("1 crédit")
    dialog.get_by_role("button", name="Envoyer la réservation").click()
    expect(page.get_by_text(MSG_BOOKED_WITH_PASS.format(title="Carte 10 cours")).first).to_be_visible()
    expect(page.locator("dialog[open]")).to_have_count(0)
    expect(page.locator(f'.session-event[data-session-id="{session.pk}"]').first).to_contain_text("Réservé")
    reservation = Reservation.objects.get()
    assert reservation.status == ReservationStatus.CONFIRMED and reservation.paid_with_pass == pass_obj
    pass_obj.refresh_from_db()
    assert pass_obj.credits_left == 9
    assert PaymentOrder.objects.count() == 1

    # The profile shows the card; /my-courses shows which reservation used it, and cancels it in time.
    page.goto(live_server.url + "/user/profile")
    passes = page.locator(".member-passes")
    expect(passes).to_contain_text("Carte 10 cours")
    expect(passes).to_contain_text("9 crédits restants sur 10")
    expect(passes).to_contain_text(f"jusqu'au {pass_obj.expires_on:%d/%m/%Y}")

    page.goto(live_server.url + "/my-courses")
    row = page.locator("tr", has_text="Pole Exotic")
    expect(row).to_contain_text("Carte 10 cours (1 crédit)")
    row.get_by_role("button", name=re.compile("Annuler")).click()
    confirm = page.locator("dialog[open]")
    expect(confirm).to_contain_text("Votre crédit sera rendu sur votre Carte 10 cours.")
    confirm.get_by_role("button", name="Confirmer l'annulation").click()
    expect(page.get_by_text(MSG_CANCELLED_CREDITS_RETURNED.format(credits=1, title="Carte 10 cours"))).to_be_visible()
    expect(page.get_by_text("Aucun cours à venir. Réservez depuis le planning !")).to_be_visible()
    pass_obj.refresh_from_db()
    assert pass_obj.credits_left == 10
    assert Reservation.objects.get().status == ReservationStatus.CANCELLED


def test_cancelling_a_class_that_started_shows_the_reason(page, live_server, login_as, member):
    start = timezone.now() + timedelta(hours=30)
    session = CourseSessionFactory(course=CourseFactory(title="Cerceau"), start=start)
    card = PassFactory(member=member)
    reservation_book_with_pass(
        user=member,
        session_id=session.pk,
        pass_id=card.pk,
        participants=1,
        first_name="E",
        last_name="P",
        email="e@p.fr",
    )
    login_as(member)
    page.goto(live_server.url + "/my-courses")
    row = page.locator("tr", has_text="Cerceau")
    row.get_by_role("button", name=re.compile("Annuler")).click()
    # The class starts while the page is open: the server refuses with its message.
    session.start = timezone.now() - timedelta(minutes=1)
    session.end = session.start + timedelta(hours=1)
    session.save()
    page.locator("dialog[open]").get_by_role("button", name="Confirmer l'annulation").click()
    expect(page.locator("dialog[open]").get_by_role("alert")).to_have_text(MSG_CANCEL_SESSION_STARTED)
    assert Reservation.objects.get().status == ReservationStatus.CONFIRMED


def test_staff_add_credits_and_see_the_history(page, live_server, login_as, staff, member):
    card = PassFactory(member=member, credits_total=10, credits_left=2)
    login_as(staff)
    page.goto(live_server.url + "/admin/passes")
    row = page.locator("tr", has_text=member.email)
    expect(row).to_contain_text("2 / 10")
    row.get_by_role("button", name=re.compile("Modifier")).click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label("Crédits à ajouter (négatif pour retirer)").fill("3")
    dialog.get_by_role("button", name=re.compile("Enregistrer")).click()
    expect(dialog.get_by_text("Ce champ est obligatoire.")).to_be_visible()  # a reason is required
    dialog.get_by_label("Raison").fill("Cours annulé par le studio")
    dialog.get_by_role("button", name=re.compile("Enregistrer")).click()
    expect(page.get_by_text("Carte mise à jour avec succès !")).to_be_visible()
    expect(row).to_contain_text("5 / 13")
    card.refresh_from_db()
    assert card.credits_left == 5
    adjustment = PassAdjustment.objects.get(pass_ref=card, action=PassAdjustmentAction.CREDITS)
    assert (adjustment.by, adjustment.reason) == (staff, "Cours annulé par le studio")

    row.get_by_role("button", name=re.compile("Historique")).click()
    history = page.locator("dialog[open]")
    expect(history).to_contain_text("Cours annulé par le studio")
    expect(history).to_contain_text("+3")
