"""A class cancelled in a browser (docs/decisions.md 27): staff create a 10-week series with one public holiday skipped,
two members book one of its classes (one by card, one with a class card), staff cancel it from the dashboard: one refund
recorded at the (simulated) provider, one credit back, two e-mails with an iCalendar CANCEL, "Annulé" in the calendar,
booking refused."""

import base64
import re
from datetime import date
from decimal import Decimal

import icalendar
import pytest
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from bookings.models import Reservation, ReservationStatus
from bookings.services.passes import reservation_book_with_pass
from bookings.tests.factories import PassFactory
from bookings.tests.test_e2e import show_event
from courses.models import CourseSession
from courses.tests.factories import CourseFactory, instructor_named
from payments.models import PaymentOrder, PaymentStatus, SimulatedProviderOrder
from payments.tests.test_class_cancellation import pay_by_card
from studio.models import OutgoingEmail

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

REASON = "Salle en travaux, toutes nos excuses."


def test_series_booked_then_cancelled_end_to_end(page, live_server, login_as, staff):
    course = CourseFactory(title="Pole Exotic")
    instructor_named("Camille Laurent")  # chosen from the instructors list
    login_as(staff)
    page.goto(live_server.url + "/admin/sessions")
    page.get_by_role("button", name="Créer une série hebdomadaire").click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label("Cours", exact=True).select_option(str(course.pk))
    dialog.get_by_label("Lundi").check()
    dialog.get_by_label("Heure", exact=True).fill("18:30")
    dialog.get_by_label("Professeur").select_option(label="Camille Laurent")
    dialog.get_by_label("Prix par participant (€, facultatif)").fill("25")
    dialog.get_by_label("Du", exact=True).fill("2027-03-08")
    dialog.get_by_label("Au (inclus)").fill("2027-05-10")
    dialog.get_by_role("button", name="Prévisualiser").click()
    expect(dialog.get_by_role("status")).to_have_text("9 séance(s) à créer, 1 date(s) sautée(s).")
    expect(dialog).to_contain_text("lundi 29/03/2027 — Jour férié : Lundi de Pâques")
    dialog.get_by_role("button", name="Créer la série").click()
    expect(dialog.get_by_role("status")).to_have_text("9 séance(s) créée(s), 1 date(s) sautée(s).")
    assert CourseSession.objects.filter(course=course).count() == 9

    # Two members book the first class: one pays 25 € by card, the other spends a class-card credit.
    session = CourseSession.objects.filter(course=course).order_by("start").first()
    assert session.start.date() == date(2027, 3, 8)
    by_card, with_card = UserFactory(first_name="Emma"), UserFactory(first_name="Zoé")
    held = Reservation.objects.create(
        session=session,
        user=by_card,
        participants=1,
        unit_price=Decimal("25.00"),
        first_name="Emma",
        last_name=by_card.last_name,
        email=by_card.email,
        status=ReservationStatus.HELD,
    )
    order = pay_by_card(by_card, held)
    card = PassFactory(member=with_card, credits_total=10, expires_on=date(2027, 12, 31))
    reservation_book_with_pass(
        user=with_card,
        session_id=session.pk,
        pass_id=card.pk,
        participants=1,
        first_name="Zoé",
        last_name=with_card.last_name,
        email=with_card.email,
    )

    page.keyboard.press("Escape")
    page.reload()
    rows = page.locator(".dash-table tbody tr")
    rows.first.get_by_role("button", name=re.compile("^Actions")).click()
    page.get_by_role("menuitem", name="Annuler le cours").click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("08/03/2027")
    dialog.get_by_label("Motif (envoyé aux inscrits)").fill(REASON)
    dialog.get_by_role("button", name="Confirmer l'annulation").click()
    # The list opens on upcoming classes: the cancelled one is under "Annulées", with its refunds report.
    expect(page.get_by_role("status").filter(has_text="Le cours est annulé")).to_be_visible()
    expect(rows).to_have_count(8)
    page.get_by_label("Période", exact=True).select_option("cancelled")
    expect(page).to_have_url(re.compile(r"[?&]when=cancelled"))
    expect(rows).to_have_count(1)
    rows.first.get_by_role("button", name=re.compile("^Actions")).click()
    page.get_by_role("menuitem", name="Remboursements").click()
    report = page.locator("dialog[open]")
    expect(report).to_contain_text("Remboursé")
    expect(report).to_contain_text("Crédits rendus")

    order.refresh_from_db()
    assert order.status == PaymentStatus.REFUNDED
    assert SimulatedProviderOrder.objects.get(order_id=order.order_id).refund_id == order.refund_id
    assert PaymentOrder.objects.filter(refund_id__gt="").count() == 1
    card.refresh_from_db()
    assert card.credits_left == 10
    mails = OutgoingEmail.objects.filter(template="bookings_class_cancelled")
    assert sorted(m.to[0] for m in mails) == sorted([by_card.email, with_card.email])
    for mail in mails:
        attachment = mail.attachments[0]
        content = base64.b64decode(attachment["base64"]) if "base64" in attachment else attachment["text"]
        assert icalendar.Calendar.from_ical(content)["METHOD"] == "CANCEL"
        assert REASON in mail.body_text

    # The calendar shows the class "Annulé"; a member who tries to book it is told it is cancelled.
    login_as(UserFactory())
    page.goto(live_server.url + "/courses/calendar?date=2027-03-08")
    target = show_event(page, session)
    expect(target).to_contain_text("Annulé")
    target.click()
    expect(page.locator("dialog[open]")).to_contain_text(
        "Ce cours est annulé par le studio : il ne peut plus être réservé."
    )
