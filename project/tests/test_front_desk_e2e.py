"""A newcomer at the front desk, in a browser at 1366 px and on a 390 px phone (docs/decisions.md 43, 50): staff create
her account, sell her a 10-class card paid 50 € Pass'Sport and 140 € cash, book her into tonight's class from the
attendance sheet with that card and mark her present; the invoice lists each means with its amount and the "caisse
du jour" shows both totals; she chooses her password from the e-mailed link and finds all of it in her profile."""

import re
from datetime import timedelta
from decimal import Decimal
from io import BytesIO

import pytest
from django.utils import timezone
from playwright.sync_api import expect
from pypdf import PdfReader

from accounts.models import User
from accounts.tests.helpers import link_token
from bookings.models import Pass, Reservation
from bookings.models_operations import Attendance, AttendanceStatus
from courses.tests.factories import CourseFactory, CourseSessionFactory, TariffFactory
from invoices.models import Invoice
from payments.models import PaymentOrder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "Barre-Verticale-31"


@pytest.fixture(autouse=True)
def _links_point_at_the_live_server(settings, live_server, context):
    settings.SITE_URL = live_server.url
    context.add_init_script("localStorage.setItem('cookieConsent', 'declined')")


@pytest.mark.parametrize("width,height", [(1366, 900), (390, 844)])
def test_a_newcomer_is_registered_sold_a_card_booked_marked_present_and_finds_it_all_in_her_profile(
    page, live_server, login_as, staff, mailoutbox, width, height
):
    page.set_viewport_size({"width": width, "height": height})
    TariffFactory(title="Carte 10 cours", price=Decimal("190.00"), pass_credits=10, pass_validity_months=6)
    start = (timezone.now() + timedelta(hours=1)).replace(second=0, microsecond=0)
    session = CourseSessionFactory(course=CourseFactory(title="Pole débutant"), start=start, max_attendees=8)
    login_as(staff)

    # The newcomer's account, from the top of the users section.
    page.goto(live_server.url + "/admin/users")
    page.get_by_role("button", name="Ajouter un client").click()
    form = page.get_by_role("dialog", name="Ajouter un client")
    form.get_by_label("Prénom").fill("Inès")
    form.get_by_label(re.compile(r"^Nom")).fill("Moreau")
    form.get_by_label("E-mail").fill("ines@example.fr")
    form.get_by_role("button", name="Enregistrer").click()
    expect(page.get_by_role("status").filter(has_text="Client créé")).to_be_visible()
    client = User.objects.get(email="ines@example.fr")

    # The sale at the desk, split between Pass'Sport and cash.
    page.goto(live_server.url + "/admin/desk")
    desk = page.locator("section.desk")
    desk.get_by_label("Rechercher un client (nom ou e-mail)").fill("Moreau")
    desk.get_by_role("button", name="Inès Moreau · ines@example.fr").click()
    desk.get_by_label("Vendu").select_option(label="Carte 10 cours – 190,00\u00a0€")
    desk.get_by_label("Moyen 1").select_option("pass_sport")
    desk.get_by_label("Montant 1 (€)").fill("50")
    expect(desk.locator(".desk-remainder")).to_have_text("Reste à répartir : 140,00\u00a0€")
    desk.get_by_role("button", name="Ajouter un moyen de paiement").click()
    expect(desk.get_by_label("Moyen 2")).to_have_value("cash")
    expect(desk.locator(".desk-remainder")).to_have_text("Le total est réparti.")
    desk.get_by_role("button", name="Enregistrer la vente").click()
    expect(desk.get_by_role("status")).to_have_text(
        "Vente enregistrée : Carte 10 cours, 190,00 € (Pass'Sport 50,00 €, Espèces 140,00 €)."
    )
    takings = desk.get_by_role("table", name="Encaissements par moyen de paiement")
    expect(takings.locator("tr[data-means=pass_sport]")).to_contain_text("50,00")
    expect(takings.locator("tr[data-means=cash]")).to_contain_text("140,00")
    expect(takings.locator("[data-total]")).to_contain_text("190,00")
    page.screenshot(path=f"test-artifacts/desk-sale-{width}.png", full_page=False)

    # Tonight's class, from its attendance sheet, with the card just sold; then present.
    page.goto(live_server.url + "/admin/sessions")
    page.locator(".dash-table tbody tr").first.get_by_role("button", name=re.compile("^Actions")).click()
    page.get_by_role("menuitem", name="Présences").click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label("Rechercher un client (nom ou e-mail)").fill("ines")
    dialog.get_by_role("button", name="Inès Moreau · ines@example.fr").click()
    dialog.get_by_label("Carte de cours ou abonnement").check()
    dialog.get_by_role("button", name="Inscrire au cours").click()
    when = timezone.localtime(start).strftime("%d/%m/%Y %H:%M")
    expect(dialog.get_by_role("status")).to_have_text(
        f"Inès Moreau est inscrit(e) au cours « Pole débutant » du {when} (avec sa carte ou son abonnement)."
    )
    expect(dialog).to_contain_text("Carte de cours (Carte 10 cours) : 1 crédit(s)")
    dialog.get_by_role("group", name="Présence de Inès Moreau").get_by_role("button", name="Présent").click()
    expect(dialog.get_by_role("status")).to_have_text("Présence enregistrée.")
    box = dialog.get_by_role("button", name="Inscrire au cours").bounding_box()
    assert box is not None and box["x"] + box["width"] <= width
    page.screenshot(path=f"test-artifacts/desk-attendance-{width}.png", full_page=False)

    card = Pass.objects.get(member=client)
    assert card.credits_left == 9
    reservation = Reservation.objects.get(session=session, user=client)
    assert reservation.paid_with_pass == card and reservation.booked_by == staff
    assert Attendance.objects.get(reservation=reservation).status == AttendanceStatus.PRESENT

    # The invoice lists each means with its amount.
    invoice = Invoice.objects.get(payment_order=PaymentOrder.objects.get(user=client))
    response = page.request.get(f"{live_server.url}/api/invoices/{invoice.pk}/pdf")
    assert response.ok
    text = "\n".join(p.extract_text() for p in PdfReader(BytesIO(response.body())).pages)
    assert "Pass'Sport 50,00 €" in text and "Espèces 140,00 €" in text

    # The client chooses her password from the invitation and finds her card, her class and her invoice.
    (invitation,) = [mail for mail in mailoutbox if mail.to == ["ines@example.fr"] and "reset-password" in mail.body]
    member_page = page.context.browser.new_context(locale="fr-FR", timezone_id="Europe/Paris").new_page()
    member_page.set_viewport_size({"width": width, "height": height})
    member_page.add_init_script("localStorage.setItem('cookieConsent', 'declined')")
    member_page.goto(f"{live_server.url}/reset-password/{link_token(invitation, 'reset-password')}")
    member_page.get_by_label("Nouveau mot de passe", exact=True).fill(PASSWORD)
    member_page.get_by_label("Confirmer le mot de passe", exact=True).fill(PASSWORD)
    member_page.get_by_role("button", name="Réinitialiser").click()
    member_page.goto(live_server.url + "/login")
    member_page.get_by_label("Email", exact=True).fill("ines@example.fr")
    member_page.get_by_label("Mot de passe", exact=True).fill(PASSWORD)
    member_page.get_by_role("button", name="Se connecter").click()
    expect(member_page).to_have_url(live_server.url + "/")
    member_page.goto(live_server.url + "/user/profile")
    passes = member_page.locator("section.member-passes")
    expect(passes).to_contain_text("Carte 10 cours")
    expect(passes).to_contain_text("9")
    expect(member_page.locator(f"[data-invoice-number='{invoice.number}']")).to_contain_text("190,00")
    assert member_page.evaluate("document.documentElement.scrollWidth") <= width
    member_page.goto(live_server.url + "/my-courses")
    expect(member_page.get_by_text("Pole débutant").first).to_be_visible()
    member_page.context.close()
