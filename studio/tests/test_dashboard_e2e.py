"""Browser journeys through the staff dashboard (SPEC.md 2.21, 5, 8; DECISIONS.md 11) in Debian's Chromium."""

import re
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from courses.tests.factories import CourseFactory, CourseSessionFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PARIS = ZoneInfo("Europe/Paris")
MSG_FIELD_REQUIRED = "Ce champ est obligatoire."  # frontend/src/islands/dashboard/messages.js


@pytest.fixture(autouse=True)
def _cookies_decided(context):
    """The cookie banner would cover the tables; its own tests live with the shell."""
    context.add_init_script("window.localStorage.setItem('cookieConsent', 'declined')")


def _rows(page):
    return page.locator(".dash-table tbody tr")


def _dialog(page):
    return page.locator("dialog[open]")


def test_sessions_add_edit_delete_with_pagination_and_sorting(page, live_server, login_as, supervisor):
    from bookings.models import Reservation, ReservationStatus
    from bookings.services import MSG_SESSION_ADDED, MSG_SESSION_DELETED, MSG_SESSION_UPDATED
    from courses.models import CourseSession

    course = CourseFactory(title="Pole Initiation")
    CourseFactory(title="Cerceau aérien")
    base = timezone.localtime(timezone.now(), PARIS).replace(hour=18, minute=0, second=0, microsecond=0)
    sessions = [
        CourseSessionFactory(course=course, start=base + timedelta(days=n), instructor=f"Prof {n:02d}")
        for n in range(1, 24)
    ]
    Reservation.objects.create(
        session=sessions[0],
        user=supervisor,
        participants=2,
        unit_price=Decimal("25.00"),
        first_name="Inès",
        last_name="Moreau",
        email="ines@example.fr",
        status=ReservationStatus.CONFIRMED,
        confirmed_at=timezone.now(),
    )
    login_as(supervisor)
    page.goto(live_server.url + "/admin/sessions")

    # Ascending by date, 10 a page, 3 pages.
    expect(_rows(page)).to_have_count(10)
    expect(_rows(page).first).to_contain_text("Prof 01")
    pagination = page.get_by_role("navigation", name="Pagination")
    expect(pagination.get_by_role("button", name=re.compile(r"^Page \d+$"))).to_have_count(3)
    pagination.get_by_role("button", name=re.compile("Dernière")).click()
    expect(_rows(page)).to_have_count(3)
    expect(_rows(page).last).to_contain_text("Prof 23")
    pagination.get_by_role("button", name="Page 2").click()
    expect(_rows(page).first).to_contain_text("Prof 11")
    pagination.get_by_role("button", name=re.compile("Première")).click()
    expect(_rows(page).first).to_contain_text("Prof 01")

    # Who is coming, paid or held.
    _rows(page).first.get_by_role("button", name=re.compile("Participants")).click()
    expect(_dialog(page)).to_contain_text("Inès Moreau")
    expect(_dialog(page)).to_contain_text("Payé")
    _dialog(page).get_by_role("button", name="Fermer").click()

    # Descending by clicking the date header.
    page.get_by_role("button", name=re.compile("^Date")).click()
    expect(page.get_by_role("columnheader", name=re.compile("^Date"))).to_have_attribute("aria-sort", "descending")
    expect(_rows(page).first).to_contain_text("Prof 23")

    # Add: the browser asks for the required fields; places default to 10.
    page.get_by_role("button", name="Ajouter une session").click()
    dialog = _dialog(page)
    expect(dialog.get_by_label("Places")).to_have_value("10")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog.locator(".field-error", has_text=MSG_FIELD_REQUIRED)).to_have_count(3)
    dialog.get_by_label("Cours").select_option(label="Pole Initiation")
    dialog.get_by_label("Date et heure").fill("2030-01-15T19:30")
    dialog.get_by_label("Professeur").fill("Nouvelle Prof")
    dialog.get_by_role("button", name="Enregistrer").click()
    flash = page.get_by_role("status").filter(has_text=MSG_SESSION_ADDED)
    expect(flash).to_be_visible()
    created = CourseSession.objects.get(instructor="Nouvelle Prof")
    assert timezone.localtime(created.start, PARIS).replace(tzinfo=None) == datetime(2030, 1, 15, 19, 30)
    assert created.max_attendees == 10 and created.course == course
    expect(flash).to_have_count(0, timeout=5000)  # shown 3 s

    # Edit it: it is first in descending order.
    expect(_rows(page).first).to_contain_text("Nouvelle Prof")
    _rows(page).first.get_by_role("button", name=re.compile("^Modifier")).click()
    dialog = _dialog(page)
    expect(dialog.get_by_label("Date et heure")).to_have_value("2030-01-15T19:30")
    dialog.get_by_label("Professeur").fill("Prof Modifiée")
    dialog.get_by_label("Places").fill("12")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(page.get_by_role("status").filter(has_text=MSG_SESSION_UPDATED)).to_be_visible()
    created.refresh_from_db()
    assert (created.instructor, created.max_attendees) == ("Prof Modifiée", 12)
    expect(_rows(page).first).to_contain_text("Prof Modifiée")

    # Delete after confirmation; cancelling first keeps it.
    _rows(page).first.get_by_role("button", name=re.compile("^Supprimer")).click()
    _dialog(page).get_by_role("button", name="Annuler").click()
    assert CourseSession.objects.filter(pk=created.pk).exists()
    _rows(page).first.get_by_role("button", name=re.compile("^Supprimer")).click()
    expect(_dialog(page)).to_contain_text("Voulez-vous vraiment supprimer")
    _dialog(page).get_by_role("button", name="Supprimer").click()
    expect(page.get_by_role("status").filter(has_text=MSG_SESSION_DELETED)).to_be_visible()
    assert not CourseSession.objects.filter(pk=created.pk).exists()
    expect(_rows(page).first).to_contain_text("Prof 23")
