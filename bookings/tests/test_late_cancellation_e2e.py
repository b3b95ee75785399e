"""Late cancellation and booking windows on a 390 px phone (docs/decisions.md 44-45): a member cancels a full class
3 hours before it, the waiting-list member gets the seat and the first member's credit comes back; a session not open
for booking yet says from when."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from bookings.models import Reservation, ReservationStatus
from bookings.models_operations import LateCancellation, LateCancellationStatus
from bookings.services import waitlist as wl
from bookings.services.late_cancellation import LATE_BACK_CREDITS, LATE_KEPT_CREDITS, MSG_CANCELLED_LATE
from bookings.services.passes import reservation_book_with_pass
from bookings.tests.factories import PassFactory
from bookings.tests.test_e2e import show_event
from courses.booking_windows import moment_text, session_booking_opens_at
from courses.tests.factories import CourseFactory, CourseSessionFactory
from studio.models import OutgoingEmail

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_late_cancel_of_a_full_class_gives_the_seat_to_the_line_and_the_credit_back(
    page, live_server, login_as, member
):
    page.set_viewport_size({"width": 390, "height": 844})
    start = (timezone.now() + timedelta(hours=3)).replace(second=0, microsecond=0)
    session = CourseSessionFactory(course=CourseFactory(title="Pole Flow"), start=start, max_attendees=1)
    card = PassFactory(member=member, credits_total=10, credits_left=10)
    reservation_book_with_pass(
        user=member,
        session_id=session.pk,
        pass_id=card.pk,
        participants=1,
        first_name=member.first_name,
        last_name=member.last_name,
        email=member.email,
    )
    waiting = UserFactory()
    waiting_card = PassFactory(member=waiting)
    wl.waitlist_join(user=waiting, session_id=session.pk, auto_book=True, pass_id=waiting_card.pk)

    login_as(member)
    page.goto(live_server.url + "/my-courses")
    row = page.locator(".my-courses-table tbody tr", has_text="Pole Flow").first
    expect(row).to_contain_text("Annulation tardive : délai dépassé.")
    row.get_by_role("button", name="Annuler la réservation Pole Flow", exact=False).click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("Le studio conserve votre crédit, sauf si votre place est reprise avant le cours")
    dialog.get_by_role("button", name="Confirmer l'annulation tardive").click()
    late_message = MSG_CANCELLED_LATE.format(what=LATE_KEPT_CREDITS.format(credits=1), back=LATE_BACK_CREDITS)
    expect(page.get_by_text(late_message).first).to_be_visible()
    expect(page.locator(".my-courses-table tbody tr", has_text="Pole Flow")).to_have_count(0)

    # The waiting member booked the seat at once with their card; the first member's credit came back.
    assert Reservation.objects.filter(session=session, user=waiting, status=ReservationStatus.CONFIRMED).count() == 1
    card.refresh_from_db()
    assert card.credits_left == 10
    assert LateCancellation.objects.get().status == LateCancellationStatus.RETURNED
    assert OutgoingEmail.objects.filter(to=[member.email], template="bookings_late_cancellation_returned").count() == 1


def test_a_session_not_open_yet_says_from_when_and_offers_no_booking(page, live_server, login_as, member, settings):
    settings.BOOKING_OPENS_DAYS_BEFORE = 14  # the studio's default (the suite's settings open sessions far earlier)
    page.set_viewport_size({"width": 390, "height": 844})
    start = timezone.localtime(timezone.now() + timedelta(days=16)).replace(hour=18, minute=30, second=0, microsecond=0)
    session = CourseSessionFactory(course=CourseFactory(title="Pole Souplesse"), start=start)
    label = f"Réservations à partir du {moment_text(session_booking_opens_at(session))}"
    login_as(member)
    page.goto(live_server.url + "/courses/calendar")
    target = show_event(page, session)
    expect(target).to_contain_text(label)
    target.click()
    dialog = page.locator("dialog[open]")
    expect(dialog.get_by_role("alert")).to_have_text(f"{label}.")
    expect(dialog.get_by_role("button", name="Envoyer la réservation")).to_have_count(0)
