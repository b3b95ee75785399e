"""Substitutes and statements in the browser (docs/decisions.md 52), on a phone (390 px) and a laptop (1366 px):
Léa asks for a substitute, Inès logs in and accepts it on her page, the calendar shows Inès and the members booked
are e-mailed; an instructor opens their monthly statement and downloads its CSV."""

import csv
import io
import re
from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import Role
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from bookings.models_operations import Attendance, AttendanceStatus
from bookings.services.substitutes import MSG_SUBSTITUTE_ACCEPTED, MSG_SUBSTITUTE_ASKED
from bookings.tests.factories import ReservationFactory
from bookings.tests.test_e2e import show_event
from courses.models import CourseSession
from courses.models_pay import InstructorPayRule, PayRuleKind
from courses.tests.factories import CourseFactory, CourseSessionFactory, InstructorFactory
from studio.models import OutgoingEmail

MSG_RULE_SAVED = "Règle de rémunération enregistrée."  # Team.jsx's confirmation

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PARIS = ZoneInfo("Europe/Paris")
WIDTHS = [pytest.param(390, id="phone"), pytest.param(1366, id="laptop")]


@pytest.fixture(autouse=True)
def _cookies_decided(context):
    context.add_init_script("window.localStorage.setItem('cookieConsent', 'declined')")


def _no_sideways_scroll(page, width):
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def _log_in_with_the_form(page, live_server, user):
    page.context.clear_cookies()
    page.goto(live_server.url + "/login")
    page.get_by_label("Email").fill(user.email)
    page.get_by_label("Mot de passe", exact=True).fill(DEFAULT_PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    page.wait_for_url(re.compile(r"^(?!.*/login).*$"))


@pytest.mark.parametrize("width", WIDTHS)
def test_an_instructor_asks_for_a_substitute_and_a_colleague_accepts_it(page, live_server, login_as, width):
    page.set_viewport_size({"width": width, "height": 900})
    lea = InstructorFactory(name="Léa Garnier", user=UserFactory(role=Role.INSTRUCTOR, email="lea@example.fr"))
    ines = InstructorFactory(name="Inès Moreau", user=UserFactory(role=Role.INSTRUCTOR, email="ines@example.fr"))
    start = (timezone.localtime(timezone.now(), PARIS) + timedelta(days=3)).replace(
        hour=19, minute=0, second=0, microsecond=0
    )
    session = CourseSessionFactory(
        instructor=lea, course=CourseFactory(title="Pole Flow"), start=start, end=start + timedelta(minutes=75)
    )
    booked = [
        ReservationFactory(session=session, user=UserFactory(first_name=name, email=f"{name.lower()}@example.fr"))
        for name in ("Emma", "Chloé")
    ]

    # Léa asks on her classes page, with a message.
    login_as(lea.user)
    page.goto(live_server.url + "/instructor/classes")
    page.get_by_role("button", name=re.compile("Demander un remplaçant pour Pole Flow")).click()
    page.get_by_label("Message aux autres professeurs (facultatif)").fill("Entorse à la cheville")
    page.get_by_role("button", name="Envoyer la demande").click()
    expect(page.get_by_role("status").filter(has_text=MSG_SUBSTITUTE_ASKED)).to_be_visible()
    expect(page.get_by_role("button", name="Retirer ma demande")).to_be_visible()
    _no_sideways_scroll(page, width)

    # Inès logs in, finds it on her page and accepts it.
    _log_in_with_the_form(page, live_server, ines.user)
    page.goto(live_server.url + "/instructor/classes")
    card = page.locator(".substitute-request").filter(has_text="Pole Flow")
    expect(card).to_contain_text("Demandé par Léa Garnier")
    expect(card).to_contain_text("Entorse à la cheville")
    page.screenshot(path=f"test-artifacts/substitute-open-{width}.png", full_page=True)
    card.get_by_role("button", name="Accepter le remplacement").click()
    expect(page.get_by_role("status").filter(has_text=MSG_SUBSTITUTE_ACCEPTED)).to_be_visible()
    expect(card).to_contain_text("Remplacement accepté")
    _no_sideways_scroll(page, width)
    page.screenshot(path=f"test-artifacts/substitute-accepted-{width}.png", full_page=True)
    assert CourseSession.objects.get(pk=session.pk).instructor == ines

    # The public calendar names Inès; the members booked have their e-mail in the outbox.
    page.context.clear_cookies()
    page.goto(live_server.url + "/courses/calendar")
    expect(show_event(page, session)).to_contain_text("Inès Moreau")
    for reservation in booked:
        mail = OutgoingEmail.objects.get(to=[reservation.email], template="bookings_substitute_member")
        assert "Inès Moreau" in mail.body_text


@pytest.mark.parametrize("width", WIDTHS)
def test_an_instructor_opens_their_statement_and_downloads_the_csv(page, live_server, login_as, width):
    page.set_viewport_size({"width": width, "height": 900})
    lea = InstructorFactory(name="Léa Garnier", user=UserFactory(role=Role.INSTRUCTOR))
    today = timezone.localdate()
    last_month = (today.replace(day=1) - timedelta(days=1)).replace(day=1)
    InstructorPayRule.objects.create(
        instructor=lea, starts_on=date(2020, 1, 1), kind=PayRuleKind.BASE_PLUS_ATTENDEE,
        class_amount=Decimal("20.00"), attendee_amount=Decimal("3.50"),
    )  # fmt: skip
    start = datetime(last_month.year, last_month.month, 5, 19, 0, tzinfo=PARIS)
    session = CourseSessionFactory(instructor=lea, course=CourseFactory(title="Pole Flow"), start=start)
    for mark in (AttendanceStatus.PRESENT, AttendanceStatus.PRESENT, AttendanceStatus.ABSENT):
        Attendance.objects.create(reservation=ReservationFactory(session=session), status=mark)

    login_as(lea.user)
    page.goto(live_server.url + "/instructor/classes")
    page.get_by_role("link", name="Mon relevé du mois").click()
    page.get_by_role("link", name="← Mois précédent").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(rf"^Relevé de \w+ {last_month.year}$"))
    row = page.locator(".statement-table tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(f"05/{last_month:%m/%Y} 19:00")
    expect(row).to_contain_text("Forfait + par participant : 20,00 € + 3,50 €")
    expect(row).to_contain_text("27,00 €")
    expect(page.locator(".statement-table tfoot")).to_contain_text("27,00 €")
    _no_sideways_scroll(page, width)
    page.screenshot(path=f"test-artifacts/statement-{width}.png", full_page=True)

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Télécharger le CSV").click()
    download = download_info.value
    assert download.suggested_filename == f"releve-lea-garnier-{last_month:%Y-%m}.csv"
    content = open(download.path(), "rb").read()
    assert content.startswith("\ufeff".encode())
    table = list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=";"))
    assert table[1] == [
        f"05/{last_month:%m/%Y}",
        "19:00",
        "Pole Flow",
        "2",
        "Forfait + par participant : 20,00 € + 3,50 €",
        "27,00",
    ]
    assert table[-1][2:] == ["Total du mois", "2", "", "27,00"]


@pytest.mark.parametrize("width", WIDTHS)
def test_staff_add_a_pay_rule_in_the_team_section_and_read_the_statement(page, live_server, login_as, staff, width):
    page.set_viewport_size({"width": width, "height": 900})
    lea = InstructorFactory(name="Léa Garnier")
    start = datetime.combine(timezone.localdate().replace(day=1), datetime.min.time(), tzinfo=PARIS).replace(hour=9)
    session = CourseSessionFactory(instructor=lea, course=CourseFactory(title="Pole Flow"), start=start)
    for _ in range(3):
        Attendance.objects.create(reservation=ReservationFactory(session=session), status=AttendanceStatus.PRESENT)

    login_as(staff)
    page.goto(live_server.url + "/admin/team")
    expect(page.get_by_role("heading", name="Équipe")).to_be_visible()
    page.get_by_label("Professeur", exact=True).select_option(label="Léa Garnier")
    expect(page.get_by_text("Aucune règle : ses cours ne sont pas rémunérés dans le relevé.")).to_be_visible()
    page.get_by_role("button", name="Ajouter une règle").click()
    page.get_by_label("À partir du").fill("2020-01-01")
    page.get_by_label("Mode de rémunération").select_option(label="Par participant")
    page.get_by_label("Montant par participant présent (€)").fill("7,50")
    page.get_by_role("button", name="Enregistrer la règle").click()
    expect(page.get_by_role("status").filter(has_text=MSG_RULE_SAVED)).to_be_visible()
    expect(page.locator(".team-rules")).to_contain_text("7,50 € par participant")
    assert InstructorPayRule.objects.get(instructor=lea).attendee_amount == Decimal("7.50")

    # The statement of the month follows the new rule: 3 present × 7,50 €.
    page.get_by_label("Mois").fill(f"{start:%Y-%m}")
    expect(page.locator(".team-statement")).to_contain_text("22,50 €")
    _no_sideways_scroll(page, width)
    page.screenshot(path=f"test-artifacts/team-section-{width}.png", full_page=True)
