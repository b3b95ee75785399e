"""Reminders (docs/decisions.md 29): 24 h before each booked class, once, switchable; before the free cancellation
closes."""

import threading
from datetime import datetime, timedelta
from email import message_from_bytes, policy
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.utils import timezone
from freezegun import freeze_time

from bookings.models import ReservationStatus
from bookings.models_operations import ReservationReminder
from bookings.services import reminders
from bookings.services.reminders import (
    DAY_TODAY,
    DAY_TOMORROW,
    LATE_CANCELLATION_NOTICE,
    MSG_REMINDERS_UNSUBSCRIBED,
    MSG_UNSUBSCRIBE_LINK_INVALID,
    SUBJECT_REMINDER,
    booking_preferences_flags,
)
from bookings.tasks import reminders_send
from bookings.tests.factories import ReservationFactory
from courses.booking_windows import MSG_FREE_CANCELLATION_UNTIL, MSG_LATE_CANCELLATION_RULE, moment_text
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
    evening = timezone.localtime().replace(hour=18, minute=0, second=0, microsecond=0) + timedelta(days=3)
    booking = ReservationFactory(
        session=CourseSessionFactory(start=evening, instructor="Inès Moreau"), confirmed_at=timezone.now()
    )
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
    assert LATE_CANCELLATION_NOTICE in body  # booked 3 days ahead: its free cancellation ended
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
    deadline = start - timedelta(hours=24)
    assert MSG_FREE_CANCELLATION_UNTIL.format(when=moment_text(deadline)) in mail.body_text
    assert MSG_LATE_CANCELLATION_RULE in mail.body_text
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


PARIS = ZoneInfo("Europe/Paris")


def _paris(*args) -> datetime:
    return datetime(*args, tzinfo=PARIS)


@pytest.mark.parametrize(
    ("class_start", "sent_at", "day"),
    [
        # The reported case: sent at 05:55 for 11:30 the same day.
        (_paris(2026, 12, 2, 11, 30), _paris(2026, 12, 2, 5, 55), DAY_TODAY),
        (_paris(2026, 12, 2, 11, 30), _paris(2026, 12, 1, 11, 35), DAY_TOMORROW),
        # Around midnight in Paris, where the UTC date is still the day before.
        (_paris(2026, 12, 2, 0, 30), _paris(2026, 12, 1, 23, 50), DAY_TOMORROW),
        (_paris(2026, 12, 2, 0, 30), _paris(2026, 12, 2, 0, 5), DAY_TODAY),
        (_paris(2026, 12, 2, 23, 30), _paris(2026, 12, 2, 0, 30), DAY_TODAY),
        # The nights the clocks change (25 October 2026 back, 28 March 2027 forward).
        (_paris(2026, 10, 25, 22, 30), _paris(2026, 10, 25, 0, 30), DAY_TODAY),
        (_paris(2026, 10, 26, 0, 15), _paris(2026, 10, 25, 1, 30), DAY_TOMORROW),
        (_paris(2027, 3, 28, 23, 30), _paris(2027, 3, 28, 0, 30), DAY_TODAY),
        (_paris(2027, 3, 29, 0, 15), _paris(2027, 3, 28, 1, 0), DAY_TOMORROW),
    ],
)
def test_the_reminder_says_today_or_tomorrow_as_seen_in_paris(
    class_start, sent_at, day, mailoutbox, settings, django_capture_on_commit_callbacks
):
    settings.CANCELLATION_WINDOW_HOURS = 24
    booking = ReservationFactory(
        session=CourseSessionFactory(start=class_start), confirmed_at=class_start - timedelta(days=7)
    )
    with freeze_time(sent_at), django_capture_on_commit_callbacks(execute=True):
        assert reminders_send.call() == 1
    (mail,) = mailoutbox
    title = booking.session.course.title
    assert SUBJECT_REMINDER["day_before"].format(title=title, day=day, time=f"{class_start:%H:%M}") in mail.subject
    assert f"Petit rappel : votre cours a lieu {day} à {class_start:%H:%M}." in mail.body
    assert f"a lieu <strong>{day}" in mail.alternatives[0][0].replace("&#x27;", "'")


def _headers(mail):
    return message_from_bytes(mail.message().as_bytes(), policy=policy.default)


@pytest.mark.parametrize("kind", ["bookings_reminder_day_before", "bookings_reminder_cancellation_deadline"])
def test_reminders_have_an_html_part_and_a_one_click_unsubscribe_that_works_without_login(
    kind, member, client, mailoutbox, settings, django_capture_on_commit_callbacks
):
    settings.CANCELLATION_WINDOW_HOURS = 24
    booking = _booking(user=member)
    moment = timedelta(hours=23) if kind.endswith("day_before") else timedelta(hours=25, minutes=55)
    with freeze_time(booking.session.start - moment), django_capture_on_commit_callbacks(execute=True):
        reminders_send.call()
    (mail,) = [m for m in mailoutbox if m.to == [booking.email]]
    assert OutgoingEmail.objects.get(to=[booking.email]).template == kind
    (html, mimetype), *_ = mail.alternatives
    assert mimetype == "text/html" and booking.session.course.title in html and "<!doctype html>" in html
    headers = _headers(mail)
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = headers["List-Unsubscribe"].strip()
    assert url.startswith(f"<{settings.SITE_URL}/") and url.endswith(">")
    url = url[1:-1]
    assert url in mail.body and url in html
    path = url.removeprefix(settings.SITE_URL)

    # Opening the link (or a scanner prefetching it) only asks.
    page = client.get(path)
    assert page.status_code == 200 and "Ne plus recevoir les rappels de cours par e-mail ?" in page.content.decode()
    assert booking_preferences_flags(user_id=member.pk) == {
        "remind_day_before": True,
        "remind_cancellation_deadline": True,
    }
    # The mail client's one-click POST (RFC 8058): no login, no CSRF cookie.
    client.handler.enforce_csrf_checks = True
    done = client.post(path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded")
    assert done.status_code == 200 and MSG_REMINDERS_UNSUBSCRIBED in done.content.decode().replace("&#x27;", "'")
    assert booking_preferences_flags(user_id=member.pk) == {
        "remind_day_before": False,
        "remind_cancellation_deadline": False,
    }
    later = _booking(user=member)
    with freeze_time(later.session.start - timedelta(hours=23)):
        assert reminders_send.call() == 0


def test_a_forged_unsubscribe_link_changes_nothing(member, other_member, client):
    url = reminders.reminders_unsubscribe_url(user_id=member.pk)
    token = url.rsplit("/", 1)[1]
    forged = f"{other_member.pk}:{token.split(':', 1)[1]}"
    for bad in (forged, "pas-un-jeton", token + "x"):
        response = client.post(f"/my-courses/reminders/unsubscribe/{bad}")
        assert response.status_code == 404
        assert MSG_UNSUBSCRIBE_LINK_INVALID in response.content.decode().replace("&#x27;", "'")
    assert booking_preferences_flags(user_id=other_member.pk)["remind_day_before"] is True
    assert booking_preferences_flags(user_id=member.pk)["remind_day_before"] is True
