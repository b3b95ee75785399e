"""A cancelled booking reaches the member's calendar: the member's own cancellation and the studio's cancellation of a
class both e-mail an iCalendar CANCEL of the event the confirmation added (same UID, a higher SEQUENCE, ORGANIZER and
ATTENDEE as RFC 5546 asks), sent as `text/calendar; method=CANCEL` (RFC 6047); members waiting for a place in a class
the studio cancels are told."""

from datetime import timedelta

import icalendar
import pytest
import vobject
from django.utils import timezone

from bookings.cancellation_emails import SUBJECT_CLASS_CANCELLED, SUBJECT_RESERVATION_CANCELLED
from bookings.models_operations import WaitlistEntry, WaitlistStatus
from bookings.services.cancellation import MSG_CANCELLED_CREDIT_PASS, MSG_CANCELLED_CREDITS_RETURNED
from bookings.services.class_cancellation import course_session_cancel
from bookings.services.reservations import reservation_confirmation_email
from bookings.tests.calendar_mail import calendar_parts
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseSessionFactory
from privacy.services import account_erase, erased_email

pytestmark = pytest.mark.django_db
REASON = "Professeure malade, nous sommes désolés."


def the_event(text: str, *, method: str):
    """Both parsers read it; answers icalendar's VEVENT after checking what vobject reads is the same."""
    calendar = icalendar.Calendar.from_ical(text)
    assert calendar["METHOD"] == method
    (event,) = calendar.walk("VEVENT")
    strict = vobject.readOne(text, validate=True, ignoreUnreadable=False)
    assert strict.method.value == method
    assert strict.vevent.uid.value == str(event["UID"])
    assert int(strict.vevent.sequence.value) == int(event["SEQUENCE"])
    assert strict.vevent.organizer.value.lower() == str(event["ORGANIZER"]).lower()
    return event


def _future_session(**kwargs):
    return CourseSessionFactory(start=(timezone.now() + timedelta(days=4)).replace(microsecond=0), **kwargs)


def test_a_member_who_cancels_is_emailed_a_calendar_cancel_of_the_confirmations_event(
    api_client, member, mailoutbox, settings, django_capture_on_commit_callbacks
):
    card = PassFactory(member=member, credits_total=10, credits_left=9)
    reservation = ReservationFactory(user=member, session=_future_session(), paid_with_pass=card, credits_spent=1)
    with django_capture_on_commit_callbacks(execute=True):
        reservation_confirmation_email(reservation_id=reservation.pk)
    (confirmation,) = mailoutbox
    ((confirmation_type, confirmation_method, confirmation_ics),) = calendar_parts(confirmation)
    assert (confirmation_type, confirmation_method) == ("text/calendar", "REQUEST")
    invited = the_event(confirmation_ics, method="REQUEST")

    api_client.force_authenticate(member)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(f"/api/reservations-courses/{reservation.pk}/cancel")
    assert response.status_code == 200

    (mail,) = mailoutbox[1:]
    start = timezone.localtime(reservation.session.start)
    assert mail.to == [member.email]
    assert SUBJECT_RESERVATION_CANCELLED.format(title=reservation.session.course.title, date=f"{start:%d/%m/%Y}") in (
        mail.subject
    )
    outcome = MSG_CANCELLED_CREDITS_RETURNED.format(credits=1, title=card.title)
    assert response.json()["message"] == outcome
    assert outcome in mail.body and "Le fichier joint retire ce cours de votre agenda." in mail.body
    assert mail.alternatives and outcome in mail.alternatives[0][0]
    ((content_type, method, text),) = calendar_parts(mail)
    assert (content_type, method) == ("text/calendar", "CANCEL")
    event = the_event(text, method="CANCEL")
    assert event["UID"] == invited["UID"] and int(event["SEQUENCE"]) > int(invited["SEQUENCE"])
    assert event["STATUS"] == "CANCELLED"
    assert str(event["ORGANIZER"]).lower() == f"mailto:{settings.STUDIO['email']}"
    assert str(event["ATTENDEE"]).lower() == f"mailto:{member.email}"
    assert event.decoded("dtstart") == reservation.session.start


def test_a_cancellation_paid_by_card_says_the_avoir_in_the_email(
    api_client, member, mailoutbox, django_capture_on_commit_callbacks
):
    reservation = ReservationFactory(user=member, session=_future_session())
    api_client.force_authenticate(member)
    with django_capture_on_commit_callbacks(execute=True):
        assert api_client.post(f"/api/reservations-courses/{reservation.pk}/cancel").status_code == 200
    (mail,) = mailoutbox
    assert MSG_CANCELLED_CREDIT_PASS.split("{")[0] in mail.body
    assert mail.body.count("Réservation annulée : 1 crédit(s) valable(s) jusqu'au ") == 1


def test_a_refused_cancellation_sends_nothing(api_client, member, mailoutbox, django_capture_on_commit_callbacks):
    reservation = ReservationFactory(
        user=member, session=CourseSessionFactory(start=timezone.now() - timedelta(minutes=5))
    )
    api_client.force_authenticate(member)
    with django_capture_on_commit_callbacks(execute=True):
        assert api_client.post(f"/api/reservations-courses/{reservation.pk}/cancel").status_code == 409
    assert mailoutbox == []


def test_closing_an_account_sends_no_cancellation_email(
    api_client, member, mailoutbox, django_capture_on_commit_callbacks
):
    ReservationFactory(user=member, session=_future_session())
    with django_capture_on_commit_callbacks(execute=True):
        account_erase(user_id=member.pk, by=None)
    assert not [m for m in mailoutbox if m.to == [member.email] or m.to == [erased_email(member.pk)]]


def test_the_studios_cancellation_sends_the_same_kind_of_cancel_and_tells_the_waiting_list(
    member, other_member, mailoutbox, settings, django_capture_on_commit_callbacks
):
    session = _future_session()
    reservation = ReservationFactory(user=member, session=session)
    waiting = WaitlistEntry.objects.create(session=session, user=other_member, participants=1)
    with django_capture_on_commit_callbacks(execute=True):
        course_session_cancel(session_id=session.pk, reason=REASON)

    start = timezone.localtime(session.start)
    subject = SUBJECT_CLASS_CANCELLED.format(title=session.course.title, date=f"{start:%d/%m/%Y}")
    (booked,) = [m for m in mailoutbox if m.to == [member.email]]
    assert subject in booked.subject and REASON in booked.body
    ((content_type, method, text),) = calendar_parts(booked)
    assert (content_type, method) == ("text/calendar", "CANCEL")
    event = the_event(text, method="CANCEL")
    assert str(event["UID"]).startswith(f"reservation-{reservation.pk}@") and int(event["SEQUENCE"]) == 1
    assert str(event["ORGANIZER"]).lower() == f"mailto:{settings.STUDIO['email']}"
    assert str(event["ATTENDEE"]).lower() == f"mailto:{member.email}"
    assert REASON in str(event["DESCRIPTION"])

    (told,) = [m for m in mailoutbox if m.to == [other_member.email]]
    assert subject in told.subject and REASON in told.body
    assert "Vous n'êtes plus sur sa liste d'attente." in told.body
    assert told.alternatives and REASON in told.alternatives[0][0]
    assert calendar_parts(told) == []
    waiting.refresh_from_db()
    assert waiting.status == WaitlistStatus.EXPIRED
