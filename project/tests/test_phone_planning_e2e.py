"""The planning on a phone as an app shows it (docs/decisions.md 53), at 390 × 844: the week readable (titles and
times in full), the member's own bookings marked in every view, the booking popup with the payment choice on its
first screen, and "Réserver" on the home page's first screen."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture(autouse=True)
def _phone(page, context):
    context.add_init_script("localStorage.setItem('cookieConsent', 'declined')")
    page.set_viewport_size(PHONE)


@pytest.fixture
def classes(member):
    # Two days ahead (never "today, already over"), and the next day: both in this week's or next week's list.
    day = timezone.localtime() + timedelta(days=2)
    mine = CourseSessionFactory(
        course=CourseFactory(title="Cerceau aérien"), start=day.replace(hour=18, minute=30, second=0, microsecond=0)
    )
    other = CourseSessionFactory(
        course=CourseFactory(title="Danse débutant"), start=day.replace(hour=20, minute=0, second=0, microsecond=0)
    )
    ReservationFactory(session=mine, user=member)
    return mine, other


def entry(page, session):
    return page.locator(f'.session-event[data-session-id="{session.pk}"]').first


def show(page, session):
    """The session's entry, moving the view forward once if it falls in the next period."""
    target = entry(page, session)
    try:
        target.wait_for(state="visible", timeout=3000)
    except Exception:
        page.get_by_role("button", name=re.compile("Suivant")).first.click()
        target.wait_for(state="visible")
    return target


def test_the_week_is_readable_and_her_bookings_are_marked_in_every_view(page, live_server, login_as, member, classes):
    mine, other = classes
    login_as(member)
    # Opened on the class's day (as the waiting list's e-mail links do): each view shows the period around it.
    page.goto(f"{live_server.url}/courses/calendar?date={timezone.localtime(mine.start):%Y-%m-%d}")
    for view in ("Liste", "Semaine", "Jour", "Mois"):
        page.get_by_role("tab", name=view).click()
        booked = entry(page, mine)
        expect(booked).to_be_visible()
        assert "session-mine" in booked.evaluate("(el) => el.closest('.session-mine') ? 'session-mine' : ''")
        if view != "Mois":
            expect(booked).to_contain_text("Réservé")
            expect(entry(page, other)).not_to_contain_text("Réservé")
        if view == "Semaine":
            title = booked.locator(".session-event-title")
            expect(title).to_have_text("Cerceau aérien")
            # Readable: the title's whole text fits on the line it is given, and the time is there in full.
            assert title.evaluate("(el) => el.scrollWidth <= el.clientWidth + 1")
            expect(booked.locator(".session-event-time")).to_have_text(re.compile(r"^18:30"))
            page.screenshot(path="test-artifacts/phone-planning-week-390.png")
        if view == "Mois":
            page.screenshot(path="test-artifacts/phone-planning-month-390.png")


def test_the_booking_popup_shows_the_payment_choice_on_its_first_screen(page, live_server, login_as, member, classes):
    _mine, other = classes
    PassFactory(member=member)
    login_as(member)
    page.goto(live_server.url + "/courses/calendar")
    show(page, other).click()
    dialog = page.get_by_role("dialog", name="Réserver un cours")
    choice = dialog.get_by_role("group", name="Mode de paiement")
    expect(choice).to_be_in_viewport(ratio=1)
    expect(dialog.get_by_role("button", name="Envoyer la réservation")).to_be_in_viewport()
    # Her name and e-mail are prefilled from her account: folded under "Vos coordonnées et un message".
    expect(dialog.get_by_label("Prénom *")).to_be_hidden()
    dialog.get_by_text("Vos coordonnées et un message").click()
    expect(dialog.get_by_label("Prénom *")).to_have_value(member.first_name)
    page.screenshot(path="test-artifacts/phone-booking-popup-390.png")


def test_the_home_page_offers_to_book_on_its_first_screen(page, live_server):
    page.goto(live_server.url + "/")
    book = page.get_by_role("link", name="Réserver un cours")
    expect(book).to_be_in_viewport(ratio=1)
    book.click()
    expect(page).to_have_url(live_server.url + "/courses/calendar")
