"""Reminders (issue 21): 24 h before each booked class, once, switchable; before the free cancellation closes."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from freezegun import freeze_time

from bookings.models import ReservationReminder, ReservationStatus
from bookings.services import reminders
from bookings.tasks import reminders_send
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory
from studio.models import OutgoingEmail

pytestmark = pytest.mark.django_db


def _booking(days=3, **kwargs):
    start = (timezone.now() + timedelta(days=days)).replace(second=0, microsecond=0)
    session = CourseSessionFactory(start=start, instructor="Inès Moreau")
    return ReservationFactory(session=session, confirmed_at=timezone.now(), **kwargs)


def _sent(reservation, template):
    return OutgoingEmail.objects.filter(to=[reservation.email], template=template)


def test_the_day_before_reminder_is_sent_once_24_hours_before_with_what_to_know():
    booking = _booking()
    start = booking.session.start
    with freeze_time(start - timedelta(hours=24, minutes=1)):
        reminders_send.call()
        assert not _sent(booking, "bookings_reminder_day_before").exists()
    with freeze_time(start - timedelta(hours=23, minutes=58)):
        assert reminders_send.call() == 1
        assert reminders_send.call() == 0
    mail = _sent(booking, "bookings_reminder_day_before").get()
    assert f"Rappel : votre cours {booking.session.course.title} demain à " in mail.subject
    body = mail.body_text
    assert "Professeur : Inès Moreau" in body and "Adresse :" in body
    assert "L'annulation en ligne n'est plus possible (au plus tard 24 heures avant le cours)" in body
    assert "/user/profile" in body


def test_the_cancellation_deadline_reminder_comes_two_hours_before_it_closes(settings):
    settings.CANCELLATION_WINDOW_HOURS = 24
    booking = _booking()
    start = booking.session.start
    with freeze_time(start - timedelta(hours=26, minutes=5)):
        assert reminders_send.call() == 0
    with freeze_time(start - timedelta(hours=25, minutes=55)):
        assert reminders_send.call() == 1
    mail = _sent(booking, "bookings_reminder_cancellation_deadline").get()
    assert "Vous pouvez encore annuler gratuitement votre cours jusqu'au" in mail.body_text
    assert "Annulation gratuite possible jusqu'à " in mail.subject


def test_no_reminder_when_switched_off_or_for_a_cancelled_booking_or_class(member):
    off = _booking(user=member)
    reminders.booking_preferences_update(user=member, remind_day_before=False, remind_cancellation_deadline=False)
    _booking(status=ReservationStatus.CANCELLED)
    studio_cancelled = _booking()
    studio_cancelled.session.status = "cancelled"
    studio_cancelled.session.save()
    with freeze_time(off.session.start - timedelta(hours=25)):
        assert reminders_send.call() == 0
    with freeze_time(off.session.start - timedelta(hours=23)):
        assert reminders_send.call() == 0
    assert not ReservationReminder.objects.exists()


def test_a_booking_made_inside_the_last_24_hours_gets_no_day_before_reminder():
    booking = _booking(days=2)
    with freeze_time(booking.session.start - timedelta(hours=10)):
        booking.confirmed_at = timezone.now()
        booking.save()
        assert reminders_send.call() == 0


@pytest.mark.postgres
def test_two_schedulers_send_each_reminder_once():
    bookings = [_booking() for _ in range(5)]
    later = bookings[0].session.start - timedelta(hours=23)
    barrier = threading.Barrier(2)
    errors = []

    def run():
        try:
            barrier.wait()
            reminders.reminders_send_due(now=later)
        except Exception as exc:  # noqa: BLE001 - asserted below
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert OutgoingEmail.objects.filter(template="bookings_reminder_day_before").count() == 5
