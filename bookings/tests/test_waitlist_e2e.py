"""The waiting list on a 390 px phone: join a full class from the calendar popup, see the position there
and in /my-courses, then take the seat offered by e-mail and pay it with the simulator."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from bookings.models import Reservation, ReservationStatus
from bookings.models_operations import WaitlistEntry, WaitlistStatus
from bookings.services.cancellation import reservation_cancel
from bookings.tests.factories import ReservationFactory
from bookings.tests.test_e2e import MSG_CALENDAR_PAID, show_event
from courses.tests.factories import CourseFactory, CourseSessionFactory
from studio.models import OutgoingEmail

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_join_a_full_class_on_a_phone_then_pay_the_offered_seat(page, live_server, login_as, member):
    page.set_viewport_size({"width": 390, "height": 844})
    start = timezone.localtime(timezone.now() + timedelta(days=2)).replace(hour=10, minute=0, second=0, microsecond=0)
    session = CourseSessionFactory(course=CourseFactory(title="Pole Flow"), start=start, max_attendees=1)
    other = UserFactory()
    taken = ReservationFactory(session=session, user=other)
    login_as(member)

    page.goto(live_server.url + "/courses/calendar")
    target = show_event(page, session)
    expect(target).to_contain_text("Complet")
    target.click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("Cette session est complète.")
    expect(dialog).to_contain_text("1 participant inscrit sur 1 places.")
    dialog.get_by_role("button", name="Rejoindre la liste d'attente").click()
    expect(dialog.get_by_role("status")).to_have_text("Vous êtes en position 1 sur la liste d'attente.")

    page.goto(live_server.url + "/my-courses")
    expect(page.get_by_role("heading", name="Mes listes d'attente")).to_be_visible()
    expect(page.locator(".my-waitlist")).to_contain_text("Position 1")

    reservation_cancel(user=other, reservation_id=taken.pk)  # a seat frees: offered to the member
    entry = WaitlistEntry.objects.get(user=member)
    assert entry.status == WaitlistStatus.OFFERED
    mail = OutgoingEmail.objects.get(to=[member.email], template="bookings_waitlist_offered")
    link = re.search(r"https?://\S+/courses/calendar\?\S+", mail.body_text).group(0)

    page.goto(live_server.url + "/" + link.split("://", 1)[1].split("/", 1)[1])
    target = show_event(page, session)
    expect(target).to_contain_text("En attente de paiement")
    target.click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_role("button", name="Envoyer la réservation").click()
    dialog.get_by_role("button", name=re.compile(r"^Payer 25")).click()
    dialog.get_by_role("button", name="Payer (simulation)").click()
    expect(page.get_by_text(MSG_CALENDAR_PAID).first).to_be_visible()
    hold = Reservation.objects.get(pk=entry.reservation_id)
    assert hold.status == ReservationStatus.CONFIRMED
    assert Reservation.objects.filter(session=session, status=ReservationStatus.CONFIRMED).count() == 1
