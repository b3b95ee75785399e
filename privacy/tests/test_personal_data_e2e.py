"""On a 390 px phone: book and pay a class, download its invoice from the profile (read back: number,
amount, legal mentions), download one's data, then delete the account with the password; the seat is free again."""

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.tests.factories import DEFAULT_PASSWORD
from bookings.models import Reservation, ReservationStatus
from bookings.services.availability import session_seats_left
from bookings.tests.test_e2e import MSG_CALENDAR_PAID, show_event
from courses.tests.factories import CourseFactory, CourseSessionFactory
from invoices.models import Invoice
from invoices.tests.helpers import pdf_text
from privacy.services import MSG_ACCOUNT_DELETED, MSG_PASSWORD_WRONG

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# For a person to look at (git-ignored), as the layout test leaves its own.
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
SCREENSHOTS.mkdir(parents=True, exist_ok=True)


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_pay_download_the_invoice_and_the_data_then_delete_the_account_on_a_phone(page, live_server, login_as, member):
    page.set_viewport_size({"width": 390, "height": 844})
    member.address, member.postal_code, member.city = "3 rue des Lilas", "69003", "Lyon"
    member.save()
    start = timezone.localtime(timezone.now() + timedelta(days=3)).replace(hour=10, minute=0, second=0, microsecond=0)
    session = CourseSessionFactory(course=CourseFactory(title="Pole Flow"), start=start, max_attendees=4)
    login_as(member)

    # Book and pay with the simulator.
    page.goto(live_server.url + "/courses/calendar")
    show_event(page, session).click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_role("button", name="Envoyer la réservation").click()
    dialog.get_by_role("button", name=re.compile(r"^Payer 25")).click()
    dialog.get_by_role("button", name="Payer (simulation)").click()
    expect(page.get_by_text(MSG_CALENDAR_PAID).first).to_be_visible()
    invoice = Invoice.objects.get()
    year = timezone.localdate().year
    assert invoice.number == f"{year}-000001"

    # The invoice from the profile.
    page.goto(live_server.url + "/user/profile")
    invoices = page.locator("#factures")
    expect(invoices.get_by_role("heading", name="Mes factures")).to_be_visible()
    link = invoices.get_by_role("link", name=f"Facture {invoice.number}")
    expect(link).to_be_visible()
    no_sideways_scroll(page)
    invoices.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "issue23-profile-invoices-390.png"))
    with page.expect_download() as pdf_download:
        link.click()
    assert pdf_download.value.suggested_filename == f"facture-{invoice.number}.pdf"
    text = pdf_text(Path(pdf_download.value.path()).read_bytes())
    assert f"N° {invoice.number}" in text and "25,00 €" in text
    assert "Studio Pole Danse Lyon (EI Camille Laurent)" in text and "SIRET : 123 456 789 00012" in text
    assert "TVA non applicable, art. 293 B du CGI" in text and "Pole Flow" in text

    # The data.
    with page.expect_download() as data_download:
        page.get_by_role("link", name="Télécharger mes données").click()
    data = json.loads(Path(data_download.value.path()).read_text(encoding="utf-8"))
    assert data["profile"]["email"] == "emma@example.fr" and data["profile"]["address"] == "3 rue des Lilas"
    assert [b["course"] for b in data["bookings"]] == ["Pole Flow"]
    assert [i["total_amount"] for i in data["invoices"]] == ["25.00"]

    # Delete the account: the password first.
    page.get_by_role("link", name="Supprimer mon compte").click()
    expect(page.get_by_role("heading", name="Supprimer mon compte")).to_be_visible()
    no_sideways_scroll(page)
    page.screenshot(path=str(SCREENSHOTS / "issue23-delete-account-390.png"), full_page=True)
    page.get_by_label("Mot de passe").fill("pas-le-bon")
    page.get_by_role("button", name="Supprimer définitivement mon compte").click()
    expect(page.get_by_role("alert")).to_have_text(MSG_PASSWORD_WRONG)
    page.get_by_label("Mot de passe").fill(DEFAULT_PASSWORD)
    page.get_by_role("button", name="Supprimer définitivement mon compte").click()
    expect(page.get_by_text(MSG_ACCOUNT_DELETED).first).to_be_visible()
    assert page.url.rstrip("/") == live_server.url

    page.goto(live_server.url + "/user/profile")
    expect(page).to_have_url(re.compile(r"/login"))
    assert Reservation.objects.get(session=session).status == ReservationStatus.CANCELLED
    assert session_seats_left(session=session) == 4
    kept = Invoice.objects.get()
    assert (kept.number, kept.total_amount) == (invoice.number, invoice.total_amount)
    assert "Emma" not in kept.customer_name


def test_staff_download_an_orders_invoice_and_erase_a_member_on_request_on_a_phone(
    page, live_server, login_as, member, staff
):
    from payments.services.staff import payment_order_staff_create
    from privacy.services import MSG_ACCOUNT_ERASED_BY_STAFF

    page.set_viewport_size({"width": 390, "height": 844})
    order = payment_order_staff_create(
        data={
            "order_id": "DESK-42",
            "email": member.email,
            "first_name": "Emma",
            "last_name": "Petit",
            "title": "Cours particulier",
            "amount": "60.00",
            "date": "2030-01-10",
            "time": "18:30",
            "status": "COMPLETED",
        }
    )
    invoice = Invoice.objects.get(payment_order=order)
    login_as(staff)

    page.goto(live_server.url + "/admin/orders")
    link = page.get_by_role("link", name="Télécharger la facture de la commande DESK-42")
    with page.expect_download() as pdf_download:
        link.click()
    text = pdf_text(Path(pdf_download.value.path()).read_bytes())
    assert f"N° {invoice.number}" in text and "60,00 €" in text and "Emma Petit" in text

    page.goto(live_server.url + "/admin/users")
    page.get_by_label("Rechercher par nom ou e-mail").fill("emma@")
    row = page.locator(".dash-main table tbody tr").filter(has_text="emma@example.fr")
    expect(row).to_have_count(1)
    expect(row.get_by_role("link", name="Données de Emma Petit (JSON)")).to_have_attribute(
        "href", f"/api/users/{member.pk}/export"
    )
    row.get_by_role("button", name="Effacer à sa demande (RGPD) le compte de Emma Petit").click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("ses paiements et factures restent dans la comptabilité")
    dialog.get_by_role("button", name="Supprimer").click()
    # The erasure closes the account, cancels its orders, bookings and subscriptions and rewrites its documents in
    # one request: on a machine busy with other tests it has taken longer than the 5 s a check waits by default.
    expect(page.get_by_text(MSG_ACCOUNT_ERASED_BY_STAFF).first).to_be_visible(timeout=20_000)
    member.refresh_from_db()
    assert not member.is_active and member.email == f"compte-supprime-{member.pk}@anonyme.invalid"
    invoice.refresh_from_db()
    assert invoice.customer_name == f"Client n° {member.pk} (compte supprimé)" and invoice.total_amount == 60
