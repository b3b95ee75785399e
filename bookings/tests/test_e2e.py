"""Browser journeys of the calendar, the EVJF/EVG page and my courses, in Debian's Chromium."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from bookings.models import CourseFeedback, Reservation, ReservationStatus
from bookings.services.common import MSG_RESERVATION_REQUIRED, MSG_RESERVATION_SENT, MSG_SESSION_PAST
from bookings.services.feedback import MSG_FEEDBACK_REQUIRED, MSG_FEEDBACK_SAVED
from bookings.tests.calendar_mail import calendar_parts
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MSG_LOGIN_TO_RESERVE = "Vous devez être connecté pour réserver un cours."
MSG_CALENDAR_PAID = "✅ Paiement réussi ! Un Email avec votre recu vous a été envoyé"


def event(page, session):
    return page.locator(f'.session-event[data-session-id="{session.pk}"]').first


def show_event(page, session):
    """Move the calendar to the session's period if it is not on screen."""
    target = event(page, session)
    for _ in range(3):
        try:
            target.wait_for(state="visible", timeout=2500)
            return target
        except Exception:
            now = timezone.localtime()
            direction = "Précédent" if timezone.localtime(session.start) < now else "Suivant"
            page.get_by_role("button", name=re.compile(direction)).first.click()
    target.wait_for(state="visible")
    return target


def test_visitor_gets_a_toast(page, live_server):
    session = CourseSessionFactory(start=timezone.now() + timedelta(hours=30))
    page.goto(live_server.url + "/courses/calendar")
    show_event(page, session).click()
    expect(page.get_by_text(MSG_LOGIN_TO_RESERVE)).to_be_visible()
    expect(page.locator("dialog[open]")).to_have_count(0)


def test_past_event_opens_the_error_popup(page, live_server, login_as, member):
    session = CourseSessionFactory(start=timezone.now() - timedelta(hours=3))
    login_as(member)
    page.goto(live_server.url + "/courses/calendar")
    show_event(page, session).click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text(MSG_SESSION_PAST)
    dialog.locator(".modal-actions").get_by_role("button", name="Fermer").click()
    expect(page.locator("dialog[open]")).to_have_count(0)


def test_full_event_says_so(page, live_server, login_as, member):
    session = CourseSessionFactory(start=timezone.now() + timedelta(hours=30), max_attendees=1)
    ReservationFactory(session=session)
    login_as(member)
    page.goto(live_server.url + "/courses/calendar")
    target = show_event(page, session)
    expect(target).to_contain_text("Complet")
    target.click()
    expect(page.locator("dialog[open]")).to_contain_text("Cette session est complète.")


def test_reserving_in_the_week_view_through_to_confirmation(page, live_server, login_as, member, mailoutbox):
    course = CourseFactory(title="Pole Dance Débutant")
    start = timezone.localtime(timezone.now() + timedelta(days=1)).replace(hour=10, minute=0, second=0, microsecond=0)
    session = CourseSessionFactory(course=course, start=start, max_attendees=3, instructor="Inès Moreau")
    login_as(member)
    page.goto(live_server.url + "/courses/calendar")
    page.get_by_role("tab", name="Semaine").click()
    target = show_event(page, session)
    expect(target).to_contain_text("Inès Moreau")
    expect(target).to_contain_text("3 places restantes")
    target.click()

    dialog = page.locator("dialog[open]")
    expect(dialog.locator(".reservation-summary-title")).to_have_text("Pole Dance Débutant")
    # The member's prefilled name and e-mail are folded under "Vos coordonnées et un message".
    dialog.get_by_text("Vos coordonnées et un message").click()
    expect(dialog.get_by_label("Prénom *")).to_have_value("Emma")
    expect(dialog.get_by_label("Email *")).to_have_value("emma@example.fr")
    participants = dialog.get_by_label("Participants")
    participants.fill("")  # a number field reports non-numeric input as empty
    participants.blur()
    expect(participants).to_have_value("1")
    participants.fill("0")
    participants.blur()
    expect(participants).to_have_value("1")
    participants.fill("9")
    participants.blur()
    expect(participants).to_have_value("3")  # at most the seats left
    participants.fill("2")
    expect(dialog.locator("[data-total]")).to_have_text("50,00 €")  # the French money format, as everywhere on the site

    dialog.get_by_label("Nom *", exact=True).fill("")
    dialog.get_by_role("button", name="Envoyer la réservation").click()
    expect(dialog.get_by_role("alert")).to_have_text(MSG_RESERVATION_REQUIRED)
    dialog.get_by_label("Nom *", exact=True).fill("Petit")
    dialog.get_by_role("button", name="Envoyer la réservation").click()
    expect(page.get_by_text(MSG_RESERVATION_SENT)).to_be_visible()
    reservation = Reservation.objects.get()
    assert reservation.status == ReservationStatus.HELD and reservation.participants == 2

    dialog.get_by_role("button", name=re.compile(r"^Payer 50")).click()
    dialog.get_by_role("button", name="Payer (simulation)").click()
    expect(page.get_by_text(MSG_CALENDAR_PAID).first).to_be_visible()
    expect(page.locator("dialog[open]")).to_have_count(0)
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    expect(event(page, session)).to_contain_text("Réservé")
    expect(event(page, session)).to_contain_text("1 place restante")
    confirmations = [m for m in mailoutbox if calendar_parts(m)]
    assert len(confirmations) == 1


def test_escape_closes_the_reservation_popup(page, live_server, login_as, member):
    session = CourseSessionFactory(start=timezone.now() + timedelta(hours=30))
    login_as(member)
    page.goto(live_server.url + "/courses/calendar")
    show_event(page, session).click()
    expect(page.locator("dialog[open]")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator("dialog[open]")).to_have_count(0)


def test_planning_image_tab(page, live_server):
    page.goto(live_server.url + "/courses/calendar")
    page.get_by_role("tab", name="Planning (image)").click()
    expect(page.locator("#panel-image img")).to_be_visible()
    expect(page.locator("#panel-calendar")).to_be_hidden()
    link = page.locator("#panel-image a[download]")
    expect(link).to_have_attribute("download", "Planning-Pole-Dance.jpg")


def test_feedback_on_my_courses(page, live_server, login_as, member):
    past = CourseSessionFactory(course=CourseFactory(title="Exotic Pole"), start=timezone.now() - timedelta(days=3))
    upcoming = CourseSessionFactory(course=CourseFactory(title="Cerceau aérien"))
    ReservationFactory(session=past, user=member)
    ReservationFactory(session=upcoming, user=member)
    login_as(member)
    page.goto(live_server.url + "/my-courses")
    expect(page.get_by_role("heading", name="Mes Cours de Pole Dance")).to_be_visible()
    expect(page.locator("table", has_text="Cours à venir")).to_contain_text("Cerceau aérien")
    expect(page.locator("table", has_text="Cours passés")).to_contain_text("Exotic Pole")
    card = page.locator(f'form[data-course-id="{past.course_id}"]')
    card.get_by_role("button", name="Enregistrer mon avis").click()
    expect(card.get_by_role("alert")).to_have_text(MSG_FEEDBACK_REQUIRED)
    card.get_by_role("radio", name="4 sur 5").check()
    card.get_by_label("Commentaire *").fill("Très bon cours, merci !")
    card.get_by_role("button", name="Enregistrer mon avis").click()
    expect(page.get_by_text(MSG_FEEDBACK_SAVED)).to_be_visible()
    expect(card.get_by_role("button", name="Modifier mon avis")).to_be_visible()
    feedback = CourseFeedback.objects.get()
    assert (feedback.rating, feedback.comment) == (4, "Très bon cours, merci !")
