"""Pushes beside the e-mails (docs/decisions.md 53): a class cancelled at the last minute, the reminders; each only
for a member who kept that kind on, received by the local push service."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from freezegun import freeze_time

from bookings.services import phone_pushes
from bookings.services.class_cancellation import course_session_cancel
from bookings.services.reminders import SUBJECT_REMINDER, reminders_send_due
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory
from notifications.services import push_preferences_set, push_subscribe
from notifications.tests.push_service import running_push_service
from studio.models import OutgoingEmail

pytestmark = pytest.mark.django_db
PARIS = ZoneInfo("Europe/Paris")
NOON = datetime(2026, 12, 1, 12, 0, tzinfo=PARIS)


@pytest.fixture
def push_service(settings):
    with running_push_service(settings) as service:
        yield service


def _booked_with_phone(push_service, start):
    booking = ReservationFactory(session=CourseSessionFactory(start=start), confirmed_at=NOON - timedelta(days=5))
    browser = push_service.subscribe()
    push_subscribe(user=booking.user, endpoint=browser.endpoint, p256dh=browser.p256dh, auth=browser.auth)
    return booking, browser


def test_a_class_cancelled_at_the_last_minute_is_pushed_beside_the_email(
    push_service, django_capture_on_commit_callbacks
):
    with freeze_time(NOON, tick=True):
        booking, browser = _booked_with_phone(push_service, NOON + timedelta(hours=6))
        with django_capture_on_commit_callbacks(execute=True):
            course_session_cancel(session_id=booking.session_id, reason="Professeure malade")
    [push] = push_service.messages(browser)
    assert push["kind"] == "class_cancelled"
    assert push["title"] == phone_pushes.PUSH_CLASS_CANCELLED_TITLE
    assert push["body"] == phone_pushes.PUSH_CLASS_CANCELLED_BODY.format(
        course=booking.session.course, day="01/12", time="18:00", reason="Professeure malade"
    )
    assert OutgoingEmail.objects.filter(to=[booking.email], template="bookings_class_cancelled").count() == 1


def test_a_class_cancelled_days_ahead_is_only_emailed(push_service, django_capture_on_commit_callbacks):
    with freeze_time(NOON, tick=True):
        booking, browser = _booked_with_phone(push_service, NOON + timedelta(days=5))
        with django_capture_on_commit_callbacks(execute=True):
            course_session_cancel(session_id=booking.session_id, reason="Stage")
    assert browser.received == []
    assert OutgoingEmail.objects.filter(to=[booking.email], template="bookings_class_cancelled").count() == 1


def test_the_day_before_reminder_is_pushed_unless_the_member_turned_reminders_off(
    push_service, django_capture_on_commit_callbacks
):
    with freeze_time(NOON, tick=True):
        start = NOON + timedelta(hours=23, minutes=59)
        booking, browser = _booked_with_phone(push_service, start)
        quiet, quiet_browser = _booked_with_phone(push_service, start)
        push_preferences_set(user=quiet.user, reminder=False)
        with django_capture_on_commit_callbacks(execute=True):
            reminders_send_due()
    subject = SUBJECT_REMINDER["day_before"].format(
        title=booking.session.course.title, day="demain", time="11:59", deadline=""
    )
    assert [(m["title"], m["body"]) for m in push_service.messages(browser)] == [
        (phone_pushes.PUSH_REMINDER_TITLE, subject)
    ]
    assert quiet_browser.received == []
    assert OutgoingEmail.objects.filter(to=[quiet.email], template="bookings_reminder_day_before").count() == 1
