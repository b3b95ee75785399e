"""An unpaid hold in the browser: paid later from "Mes cours" through the payment widget, resumed from the class's
booking form (its seats counted as the member's), or released."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from bookings.models import Reservation, ReservationStatus
from bookings.tests.factories import ReservationFactory
from bookings.tests.test_e2e import show_event
from courses.tests.factories import CourseFactory, CourseSessionFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def held(member):
    start = timezone.localtime(timezone.now() + timedelta(days=2)).replace(hour=18, minute=30, second=0, microsecond=0)
    session = CourseSessionFactory(course=CourseFactory(title="Exotic Pole"), start=start, max_attendees=3)
    return ReservationFactory(session=session, user=member, participants=2, held=True)


def test_a_hold_is_paid_later_from_my_courses(page, live_server, login_as, member, held):
    login_as(member)
    page.goto(live_server.url + "/my-courses")
    row = page.locator(".my-courses-table tbody tr", has_text="Exotic Pole").first
    expect(row).to_contain_text("En attente de paiement")
    expect(row).to_contain_text("Non payée")
    expect(row).to_contain_text("Places retenues jusqu'à")
    row.get_by_role("button", name=re.compile("^Payer la réservation Exotic Pole")).click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_role("button", name=re.compile(r"^Payer 50")).click()
    dialog.get_by_role("button", name="Payer (simulation)").click()
    expect(page.locator(".my-courses-table tbody tr", has_text="Exotic Pole").first).to_contain_text("Confirmée")
    assert Reservation.objects.get(pk=held.pk).status == ReservationStatus.CONFIRMED


def test_the_booking_form_resumes_the_hold(page, live_server, login_as, member, held):
    login_as(member)
    page.goto(live_server.url + "/courses/calendar")
    page.get_by_role("tab", name="Semaine").click()
    show_event(page, held.session).click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("Vous avez déjà 2 place(s) retenue(s) pour ce cours")
    expect(dialog).to_contain_text("3 place(s) restante(s)")  # one free and the member's own two
    expect(dialog.get_by_label("Participants")).to_have_value("2")
    dialog.get_by_role("button", name="Envoyer la réservation").click()
    dialog.get_by_role("button", name=re.compile(r"^Payer 50")).click()
    dialog.get_by_role("button", name="Payer (simulation)").click()
    expect(page.locator("dialog[open]")).to_have_count(0)
    held.refresh_from_db()
    assert held.status == ReservationStatus.CONFIRMED and Reservation.objects.count() == 1


def test_a_hold_is_released_from_my_courses(page, live_server, login_as, member, held):
    login_as(member)
    page.goto(live_server.url + "/my-courses")
    page.get_by_role("button", name=re.compile("^Annuler la réservation Exotic Pole")).click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("rien ne vous a été facturé")
    dialog.get_by_role("button", name="Confirmer l'annulation").click()
    expect(page.get_by_text("Aucun cours à venir. Réservez depuis le planning !")).to_be_visible()
    assert Reservation.objects.get(pk=held.pk).status == ReservationStatus.CANCELLED
