"""Closures in Chromium at 1366 px and 390 px (docs/decisions.md 27, 51): staff add one in the dashboard's
"Fermetures", the public calendar shows it over its days, staff cancel the classes inside and read the count; the
demo's "Un cours par semaine" tariff shows its weekly cap in the tariff form."""

import re
from datetime import datetime, time, timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from courses.services.closures import MSG_CLOSURE_ENDS_BEFORE_START
from studio.tests.test_accessibility_e2e import _open, axe_page, serious_violations  # noqa: F401 - fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = {"ordinateur": {"width": 1366, "height": 900}, "téléphone": {"width": 390, "height": 844}}


@pytest.fixture(autouse=True)
def _cookies_decided(context):
    context.add_init_script("window.localStorage.setItem('cookieConsent', 'declined')")


@pytest.mark.parametrize("screen", WIDTHS, ids=["1366", "390"])
def test_staff_close_the_studio_the_calendar_shows_it_and_its_classes_are_cancelled(
    page, live_server, login_as, staff, screen
):
    from bookings.tests.factories import ReservationFactory
    from courses.models import ClosurePeriod, SessionStatus
    from courses.tests.factories import CourseFactory, CourseSessionFactory

    page.set_viewport_size(WIDTHS[screen])
    first = timezone.localdate() + timedelta(days=10)
    last = first + timedelta(days=3)
    start = timezone.make_aware(datetime.combine(first + timedelta(days=1), time(18, 30)))
    inside = CourseSessionFactory(course=CourseFactory(title="Pole Dance Débutant"), start=start)
    ReservationFactory(session=inside)
    login_as(staff)

    page.goto(live_server.url + "/admin/closures")
    page.get_by_role("button", name="Ajouter une fermeture").click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label("Intitulé").fill("Vacances de Noël")
    dialog.get_by_label("Premier jour").fill(first.isoformat())
    dialog.get_by_label("Dernier jour (inclus)").fill((first - timedelta(days=1)).isoformat())
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog.locator(".field-error", has_text=MSG_CLOSURE_ENDS_BEFORE_START)).to_be_visible()
    dialog.get_by_label("Dernier jour (inclus)").fill(last.isoformat())
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(page.get_by_role("status").first).to_have_text(
        f"Fermeture « Vacances de Noël » enregistrée du {first:%d/%m/%Y} au {last:%d/%m/%Y}."
    )
    row = page.locator(".dash-table tbody tr").filter(has_text="Vacances de Noël")
    expect(row.locator('td[data-label="Cours programmés"]')).to_have_text("1")
    closure = ClosurePeriod.objects.get()
    assert (closure.label, closure.starts_on, closure.ends_on) == ("Vacances de Noël", first, last)

    page.goto(f"{live_server.url}/courses/calendar?date={first.isoformat()}")
    expect(page.get_by_text("Studio fermé : Vacances de Noël").first).to_be_visible()

    page.goto(live_server.url + "/admin/closures")
    row = page.locator(".dash-table tbody tr").filter(has_text="Vacances de Noël")
    row.get_by_role("button", name=re.compile("^Annuler les cours de la fermeture")).click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("1 cours programmé(s)")
    dialog.get_by_label("Motif (envoyé aux inscrits)").fill("Le studio ferme pour les fêtes.")
    dialog.get_by_role("button", name="Confirmer l'annulation des cours").click()
    expect(row.get_by_role("status")).to_have_text(
        "1 cours annulé(s) pendant la fermeture « Vacances de Noël » : 1 réservation(s) annulée(s), "
        "0 remboursement(s) par carte en cours. Les inscrits sont prévenus par e-mail."
    )
    inside.refresh_from_db()
    assert inside.status == SessionStatus.CANCELLED
    expect(row.locator('td[data-label="Cours programmés"]')).to_have_text("0")


@pytest.mark.parametrize("screen", WIDTHS, ids=["1366", "390"])
def test_the_demo_one_class_a_week_plan_shows_its_cap_in_the_tariff_form(page, live_server, login_as, staff, screen):
    from courses.management.commands.seed_demo import seed_catalogue

    seed_catalogue()
    page.set_viewport_size(WIDTHS[screen])
    login_as(staff)
    page.goto(live_server.url + "/admin/tarifs")
    row = page.locator(".dash-table tbody tr").filter(
        has=page.locator('td[data-label="Titre"]', has_text=re.compile(r"^Abonnement trimestriel$"))
    )
    expect(row.locator('td[data-label="Cours / semaine"]')).to_have_text("1")
    row.get_by_role("button", name=re.compile("^Modifier")).click()
    dialog = page.locator("dialog[open]")
    expect(dialog.get_by_label("Cours par semaine (0 = illimité)")).to_have_value("1")
    expect(dialog.get_by_label("Semaines de suspension par an")).to_have_value("4")
    expect(dialog.get_by_label("Engagement (périodes, 0 = toute la durée)")).to_have_value("0")
    expect(dialog.get_by_text("Aucun coché : tous les cours.", exact=False).first).to_be_visible()


def test_the_closures_and_the_tariff_rules_have_no_serious_accessibility_violation(axe_page, live_server, staff):  # noqa: F811
    from courses.models import ClosurePeriod
    from courses.tests.factories import CourseFactory, TariffFactory

    CourseFactory(title="Barre au sol")
    TariffFactory(title="Abonnement trimestriel", type="abonnement", pass_unlimited=True, pass_validity_months=3)
    today = timezone.localdate()
    ClosurePeriod.objects.create(label="Pont", starts_on=today + timedelta(days=5), ends_on=today + timedelta(days=6))
    problems = {}
    page = _open(axe_page, live_server, "/admin/closures", staff)
    expect(page.locator(".dash-table tbody tr").filter(has_text="Pont")).to_be_visible()
    problems["/admin/closures"] = serious_violations(page)
    page.get_by_role("button", name="Ajouter une fermeture").click()
    expect(page.locator("dialog[open]")).to_be_visible()
    problems["fermeture"] = serious_violations(page)
    page = _open(axe_page, live_server, "/admin/tarifs")
    page.locator(".dash-table tbody tr").filter(has_text="Abonnement trimestriel").get_by_role(
        "button", name=re.compile("^Modifier")
    ).click()
    expect(page.locator("dialog[open]").get_by_label("Barre au sol")).to_be_visible()
    problems["tarif"] = serious_violations(page)
    assert problems == {"/admin/closures": [], "fermeture": [], "tarif": []}
