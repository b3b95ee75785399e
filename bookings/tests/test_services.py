from datetime import UTC, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from django.utils import timezone
from freezegun import freeze_time

from accounts.tests.factories import UserFactory
from bookings.emails import SUBJECT_RESERVATION_CONFIRMED
from bookings.models import CourseFeedback, Reservation, ReservationStatus
from bookings.services.availability import reservations_release_expired, session_seats_left
from bookings.services.common import (
    MSG_ALREADY_RESERVED,
    MSG_AMOUNT_MISMATCH,
    MSG_HOLD_LOST,
    MSG_NOT_ENOUGH_SEATS,
    MSG_PARTICIPANTS_MIN,
    MSG_RESERVATION_NOT_FOUND,
    MSG_RESERVATION_REQUIRED,
    MSG_SESSION_FULL,
    MSG_SESSION_PAST,
    FeedbackError,
    ReservationError,
)
from bookings.services.feedback import (
    MSG_FEEDBACK_NOT_FOLLOWED,
    MSG_FEEDBACK_RATING_RANGE,
    MSG_FEEDBACK_REQUIRED,
    course_feedback_save,
)
from bookings.services.reservations import reservation_confirm, reservation_hold
from bookings.tests.calendar_mail import calendar_filenames, calendar_parts
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory

pytestmark = pytest.mark.django_db


def hold(user, session, participants=1, **extra):
    return reservation_hold(
        user=user,
        session_id=session.pk,
        participants=participants,
        first_name=user.first_name,
        last_name=user.last_name,
        email=user.email,
        **extra,
    )


# --- Holds ---


def test_hold_takes_seats_for_fifteen_minutes_at_the_session_price(member):
    session = CourseSessionFactory(max_attendees=5, price_per_participant=Decimal("25.00"))
    reservation = hold(member, session, participants=2)
    assert reservation.status == ReservationStatus.HELD
    assert reservation.total_amount == Decimal("50.00")
    assert timedelta(minutes=14) < reservation.hold_expires_at - timezone.now() <= timedelta(minutes=15)
    assert session_seats_left(session=session) == 3


@pytest.mark.parametrize("missing", ["first_name", "last_name", "email"])
def test_hold_requires_names_and_email(member, missing):
    session = CourseSessionFactory()
    kwargs = {"first_name": "Emma", "last_name": "Petit", "email": "emma@example.fr", missing: "  "}
    with pytest.raises(ReservationError) as exc:
        reservation_hold(user=member, session_id=session.pk, participants=1, **kwargs)
    assert exc.value.message == MSG_RESERVATION_REQUIRED
    assert not Reservation.objects.exists()


def test_zero_participants_is_refused(member):
    # Rubbish participants never reach the service any more: the API refuses them (test_apis).
    session = CourseSessionFactory()
    with pytest.raises(ReservationError) as exc:
        hold(member, session, participants=0)
    assert exc.value.message == MSG_PARTICIPANTS_MIN


def test_hold_refuses_past_full_and_too_many(member, other_member):
    past = CourseSessionFactory(start=timezone.now() - timedelta(hours=1))
    with pytest.raises(ReservationError) as exc:
        hold(member, past)
    assert exc.value.message == MSG_SESSION_PAST

    session = CourseSessionFactory(max_attendees=2)
    with pytest.raises(ReservationError) as exc:
        hold(member, session, participants=3)
    assert exc.value.message == MSG_NOT_ENOUGH_SEATS.format(seats=2)
    hold(member, session, participants=2)
    with pytest.raises(ReservationError) as exc:
        hold(other_member, session)
    assert exc.value.message == MSG_SESSION_FULL


def test_a_member_cannot_hold_twice_once_confirmed_but_can_retry_a_hold(member):
    session = CourseSessionFactory(max_attendees=3)
    first = hold(member, session, participants=1)
    again = hold(member, session, participants=3)  # closed the popup and retried: same reservation, updated
    assert again.pk == first.pk and again.participants == 3
    assert Reservation.objects.count() == 1
    reservation_confirm(reservation_id=first.pk)
    with pytest.raises(ReservationError) as exc:
        hold(member, session)
    assert exc.value.message == MSG_ALREADY_RESERVED


def test_amount_sent_by_the_browser_must_match(member):
    session = CourseSessionFactory(price_per_participant=Decimal("25.00"))
    with pytest.raises(ReservationError) as exc:
        hold(member, session, participants=2, expected_total=Decimal("25.00"))
    assert exc.value.message == MSG_AMOUNT_MISMATCH.format(expected=Decimal("50.00"))
    assert hold(member, session, participants=2, expected_total=Decimal("50.00")).total_amount == Decimal("50.00")


# --- Expiry ---


def test_expired_hold_frees_seats_but_confirmed_is_never_freed(member, other_member):
    start = timezone.now() + timedelta(days=3)
    session = CourseSessionFactory(start=start, max_attendees=2)
    with freeze_time(timezone.now()) as frozen:
        held = hold(member, session)
        confirmed = hold(other_member, session)
        reservation_confirm(reservation_id=confirmed.pk)
        assert session_seats_left(session=session) == 0
        frozen.tick(timedelta(minutes=14))
        assert session_seats_left(session=session) == 0
        frozen.tick(timedelta(minutes=2))
        assert session_seats_left(session=session) == 1  # freed on read
        frozen.tick(timedelta(days=1))
        call_command("release_expired_holds", stdout=open("/dev/null", "w"))
    held.refresh_from_db()
    confirmed.refresh_from_db()
    assert held.status == ReservationStatus.EXPIRED
    assert confirmed.status == ReservationStatus.CONFIRMED
    assert reservations_release_expired() == 0


def test_expired_hold_lets_another_member_take_the_seat(member, other_member):
    session = CourseSessionFactory(max_attendees=1)
    with freeze_time(timezone.now()) as frozen:
        first = hold(member, session)
        frozen.tick(timedelta(minutes=16))
        second = hold(other_member, session)
    first.refresh_from_db()
    assert first.status == ReservationStatus.EXPIRED
    assert second.status == ReservationStatus.HELD


def test_confirming_a_lapsed_hold_when_the_seat_is_gone_is_refused(member, other_member):
    session = CourseSessionFactory(max_attendees=1)
    with freeze_time(timezone.now()) as frozen:
        first = hold(member, session)
        frozen.tick(timedelta(minutes=16))
        second = hold(other_member, session)
        reservation_confirm(reservation_id=second.pk)
        with pytest.raises(ReservationError) as exc:
            reservation_confirm(reservation_id=first.pk)
    assert exc.value.message == MSG_HOLD_LOST


def test_confirming_a_lapsed_hold_with_free_seats_succeeds(member):
    session = CourseSessionFactory(max_attendees=3)
    with freeze_time(timezone.now()) as frozen:
        first = hold(member, session)
        frozen.tick(timedelta(minutes=30))
        assert reservation_confirm(reservation_id=first.pk).status == ReservationStatus.CONFIRMED


# --- Confirmation e-mail ---


def test_confirm_is_idempotent_and_mails_once_with_an_ics(member, mailoutbox, django_capture_on_commit_callbacks):
    session = CourseSessionFactory()
    reservation = hold(member, session, participants=2)
    with django_capture_on_commit_callbacks(execute=True):
        reservation_confirm(reservation_id=reservation.pk)
    with django_capture_on_commit_callbacks(execute=True):
        reservation_confirm(reservation_id=reservation.pk)
    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert SUBJECT_RESERVATION_CONFIRMED in mail.subject
    assert mail.to == [member.email]
    assert "Votre réservation est confirmée" in mail.body and "50,00\u00a0€" in mail.body  # {{ amount|euros }}
    assert calendar_filenames(mail)[0].endswith(".ics")
    ((mimetype, method, content),) = calendar_parts(mail)
    assert mimetype == "text/calendar" and method == "REQUEST" and "METHOD:REQUEST" in content
    assert "BEGIN:VEVENT" in content and f"SUMMARY:{session.course.title}" in content
    # Built with the icalendar library: Europe/Paris local time with its VTIMEZONE, same instant.
    paris = session.start.astimezone(ZoneInfo("Europe/Paris"))
    assert "DTSTART;TZID=Europe/Paris:" + paris.strftime("%Y%m%dT%H%M%S") in content and "BEGIN:VTIMEZONE" in content
    assert session.start.astimezone(UTC) == paris.astimezone(UTC)


def test_confirm_unknown_reservation():
    with pytest.raises(ReservationError) as exc:
        reservation_confirm(reservation_id=999999)
    assert exc.value.message == MSG_RESERVATION_NOT_FOUND


# --- EVJF/EVG ---


# --- Feedback ---


def test_feedback_only_for_a_followed_past_course_and_editable(member):
    session = CourseSessionFactory(start=timezone.now() - timedelta(days=2))
    with pytest.raises(FeedbackError) as exc:
        course_feedback_save(user=member, course_id=session.course_id, rating=5, comment="Top")
    assert exc.value.message == MSG_FEEDBACK_NOT_FOLLOWED
    ReservationFactory(session=session, user=member)
    course_feedback_save(user=member, course_id=session.course_id, rating=5, comment="Top")
    course_feedback_save(user=member, course_id=session.course_id, rating=3, comment="Bien")
    feedback = CourseFeedback.objects.get()
    assert (feedback.rating, feedback.comment) == (3, "Bien")


@pytest.mark.parametrize(
    ("rating", "comment", "message"),
    [
        (None, "Top", MSG_FEEDBACK_REQUIRED),
        (4, "  ", MSG_FEEDBACK_REQUIRED),
        (6, "Top", MSG_FEEDBACK_RATING_RANGE),
        (0, "Top", MSG_FEEDBACK_RATING_RANGE),
    ],
)
def test_feedback_refusals(member, rating, comment, message):
    session = CourseSessionFactory(start=timezone.now() - timedelta(days=2))
    ReservationFactory(session=session, user=member)
    with pytest.raises(FeedbackError) as exc:
        course_feedback_save(user=member, course_id=session.course_id, rating=rating, comment=comment)
    assert exc.value.message == message


def test_seed_is_idempotent(db):
    from bookings import seed

    UserFactory(email="membre@studio-pole-danse.fr")
    CourseSessionFactory(start=timezone.now() - timedelta(days=3))
    CourseSessionFactory(start=timezone.now() + timedelta(days=3))
    seed.run()
    seed.run()
    assert Reservation.objects.count() == 2
    assert CourseFeedback.objects.count() == 1


def test_a_queue_that_refuses_the_confirmation_still_records_it_after_the_commit(
    member, monkeypatch, django_capture_on_commit_callbacks
):
    """The one policy of studio/queue.py: the confirmation is queued after the commit; refused, it is built there
    and recorded in the outbox (whose retry job sends it, the queue being down for its delivery too)."""
    from bookings.services.reservations import reservation_confirmation_send
    from studio.models import OutgoingEmail

    def refuse(*args, **kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(type(reservation_confirmation_send.get_backend()), "enqueue", refuse)
    reservation = hold(member, CourseSessionFactory(), participants=1)
    confirmations = OutgoingEmail.objects.filter(subject__contains=SUBJECT_RESERVATION_CONFIRMED)
    with django_capture_on_commit_callbacks(execute=True):
        reservation_confirm(reservation_id=reservation.pk)
        assert not confirmations.exists()  # nothing before the commit
    assert confirmations.get().to == [member.email]
