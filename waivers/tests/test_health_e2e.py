"""On a 390 px phone (docs/decisions.md 48): a new member is asked the questionnaire and both documents in the booking
popup, answers and books; booking again asks nothing; once the waiver's version 2 is published, the next booking asks
again."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from bookings.models import Reservation, ReservationStatus
from bookings.services.passes import MSG_BOOKED_WITH_PASS
from bookings.tests.factories import PassFactory
from bookings.tests.test_e2e import show_event
from courses.tests.factories import CourseFactory, CourseSessionFactory
from waivers import services
from waivers.models import DocumentKind, HealthDeclaration
from waivers.seed import QUESTIONS
from waivers.seed import run as publish_demo_set

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LABEL_ACCEPT = "J'ai lu et j'accepte la décharge de responsabilité et le règlement intérieur."


def _session(days, title):
    start = timezone.localtime(timezone.now() + timedelta(days=days)).replace(
        hour=10, minute=0, second=0, microsecond=0
    )
    return CourseSessionFactory(course=CourseFactory(title=title), start=start, max_attendees=5)


def _book(page, live_server, session):
    page.goto(live_server.url + "/courses/calendar")
    show_event(page, session).click()
    dialog = page.locator("dialog[open]")
    expect(dialog.get_by_label(re.compile("Utiliser : Carte 10 cours"))).to_be_checked()
    dialog.get_by_role("button", name="Envoyer la réservation").click()
    return dialog


def _answer(dialog, *, yes_at=None):
    questions = dialog.locator("fieldset.health-question")
    expect(questions).to_have_count(len(QUESTIONS))
    for index in range(len(QUESTIONS)):
        questions.nth(index).get_by_label("Oui" if index == yes_at else "Non").check()
    dialog.get_by_label(LABEL_ACCEPT).check()
    dialog.get_by_role("button", name="Valider et réserver").click()


def test_asked_in_the_popup_once_then_again_after_a_new_waiver(page, live_server, login_as, member, staff):
    page.set_viewport_size({"width": 390, "height": 844})
    publish_demo_set()
    PassFactory(member=member, title="Carte 10 cours", credits_total=10, credits_left=10)
    first, second, third = (_session(d, t) for d, t in ((2, "Pole Flow"), (3, "Pole Exotic"), (4, "Cerceau")))
    booked = MSG_BOOKED_WITH_PASS.format(title="Carte 10 cours")
    login_as(member)

    dialog = _book(page, live_server, first)
    expect(dialog.get_by_role("heading", name="Questionnaire de santé")).to_be_visible()
    expect(dialog).to_contain_text(services.MSG_DECLARATION_REQUIRED)
    expect(dialog).to_contain_text("Décharge de responsabilité")
    expect(dialog).to_contain_text("Règlement intérieur")
    questions = dialog.locator("fieldset.health-question")
    questions.nth(0).get_by_label("Oui").check()
    expect(dialog).to_contain_text(QUESTIONS[0]["advice"])  # the advice of a "yes", shown at once
    box = dialog.locator(".health-step").bounding_box()
    assert box["width"] <= 390  # fits the phone
    _answer(dialog, yes_at=0)
    expect(page.get_by_text(booked).first).to_be_visible()
    declaration = HealthDeclaration.objects.get(member=member)
    assert declaration.flagged and declaration.answers == [True, False, False, False]
    assert Reservation.objects.get(session=first).status == ReservationStatus.CONFIRMED

    dialog = _book(page, live_server, second)  # declared: nothing asked
    expect(page.get_by_text(booked).first).to_be_visible()
    expect(page.locator(".health-step")).to_have_count(0)
    assert Reservation.objects.get(session=second).status == ReservationStatus.CONFIRMED

    services.document_publish(by=staff, kind=DocumentKind.WAIVER, title="Décharge de responsabilité", body="V2.")
    dialog = _book(page, live_server, third)
    expect(dialog).to_contain_text(services.MSG_DECLARATION_RENEW)
    _answer(dialog)
    expect(page.get_by_text(booked).first).to_be_visible()
    assert Reservation.objects.get(session=third).status == ReservationStatus.CONFIRMED
    assert HealthDeclaration.objects.get(member=member).waiver.version == 2


def test_staff_publish_the_waivers_version_2_from_the_dashboard(page, live_server, login_as, staff):
    page.set_viewport_size({"width": 390, "height": 844})
    publish_demo_set()
    login_as(staff)
    page.goto(live_server.url + "/admin/health")
    expect(page.get_by_role("heading", name="Décharge de responsabilité (version 1 en vigueur)")).to_be_visible()
    body = page.get_by_label("Texte (paragraphes séparés par une ligne vide)").first
    body.fill("Je pratique sous ma propre responsabilité.\n\nVersion deux.")
    page.get_by_role("button", name="Publier : décharge de responsabilité").click()
    expect(page.get_by_text(services.MSG_PUBLISHED).first).to_be_visible()
    expect(page.get_by_role("heading", name="Décharge de responsabilité (version 2 en vigueur)")).to_be_visible()
    from waivers.models import StudioDocument

    latest = StudioDocument.objects.filter(kind=DocumentKind.WAIVER).order_by("-version").first()
    assert (latest.version, latest.published_by) == (2, staff)
    assert latest.body.endswith("Version deux.")


def test_the_instructor_sees_an_a_signaler_badge_and_nothing_of_the_answers(page, live_server, login_as, member):
    from accounts.models import Role
    from accounts.tests.factories import UserFactory
    from bookings.tests.factories import ReservationFactory
    from courses.tests.factories import InstructorFactory

    page.set_viewport_size({"width": 390, "height": 844})
    publish_demo_set()
    services.declaration_record(
        member=member,
        questionnaire_version=1,
        waiver_version=1,
        house_rules_version=1,
        answers=[False, False, True, False],
        accepted=True,
    )
    account = UserFactory(role=Role.INSTRUCTOR)
    start = timezone.now() + timedelta(minutes=30)
    session = CourseSessionFactory(
        course=CourseFactory(title="Pole"), instructor=InstructorFactory(user=account), start=start
    )
    ReservationFactory(session=session, user=member, first_name="Emma", last_name="Petit")
    ReservationFactory(session=session, first_name="Inès", last_name="Robert")
    login_as(account)
    page.goto(f"{live_server.url}/instructor/classes/{session.pk}")
    emma = page.locator(".attendance-line", has_text="Emma Petit")
    expect(emma.locator(".attendance-health")).to_have_text(f"À signaler (déclaré le {timezone.localdate():%d/%m/%Y})")
    expect(page.locator(".attendance-line", has_text="Inès Robert")).to_contain_text(
        "Questionnaire de santé à compléter"
    )
    text = page.content()
    assert QUESTIONS[2]["text"][:25] not in text and QUESTIONS[2]["advice"][:25] not in text


def test_an_admin_reads_the_answers_in_the_client_file_a_supervisor_does_not(
    page, live_server, login_as, member, staff, supervisor
):
    publish_demo_set()
    services.declaration_record(
        member=member,
        questionnaire_version=1,
        waiver_version=1,
        house_rules_version=1,
        answers=[False, True, False, False],
        accepted=True,
    )
    for reader, sees in ((staff, True), (supervisor, False)):
        page.context.clear_cookies()
        login_as(reader)
        page.goto(live_server.url + "/admin/users")
        page.get_by_label("Rechercher par nom ou e-mail").fill(member.email)
        row = page.locator(".dash-main table tbody tr").filter(has_text=member.email)
        row.get_by_role("button", name=re.compile("Fiche client de")).click()
        file = page.get_by_role("dialog", name=re.compile("Fiche client"))
        expect(file.get_by_role("region", name="Cours à venir")).to_be_visible()
        health = file.get_by_role("region", name="Questionnaire de santé (administrateurs seulement)")
        if sees:
            expect(health.get_by_role("listitem").nth(1)).to_contain_text(QUESTIONS[1]["text"] + " oui")
        else:
            page.wait_for_load_state("networkidle")
            expect(health).to_have_count(0)
            expect(file).not_to_contain_text(QUESTIONS[1]["text"])
