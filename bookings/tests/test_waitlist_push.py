"""The waiting list on the phone (docs/decisions.md 53): offers pushed beside the e-mail through the local push service
(VAPID and aes128gcm checked), one-tap accept, quiet hours, no overlapping automatic booking."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from freezegun import freeze_time

from accounts.tests.factories import UserFactory
from bookings.models import Pass, Reservation, ReservationStatus
from bookings.models_operations import WaitlistEntry, WaitlistStatus
from bookings.services import waitlist as wl
from bookings.services import waitlist_accept as accept
from bookings.services.cancellation import reservation_cancel
from bookings.services.overlap import MSG_WAITLIST_OVERLAP
from bookings.tasks import waitlist_quiet_hours_over
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory
from notifications.services import push_subscribe
from notifications.tests.push_service import running_push_service
from studio.models import OutgoingEmail

pytestmark = pytest.mark.django_db
PARIS = ZoneInfo("Europe/Paris")
AFTERNOON = datetime(2026, 12, 1, 15, 0, tzinfo=PARIS)
NIGHT = datetime(2026, 12, 1, 23, 0, tzinfo=PARIS)
MORNING = datetime(2026, 12, 2, 8, 0, tzinfo=PARIS)
CLASS_START = datetime(2026, 12, 2, 18, 30, tzinfo=PARIS)
ACCEPT = "/api/waitlist/offers/accept"


@pytest.fixture
def push_service(settings):
    with running_push_service(settings) as service:
        yield service


@pytest.fixture
def quiet_hours(settings):
    settings.QUIET_HOURS = ((22, 0), (8, 0))


def _full_session(**kwargs):
    session = CourseSessionFactory(max_attendees=1, start=kwargs.pop("start", CLASS_START), **kwargs)
    return session, ReservationFactory(session=session)


def _phone(push_service, user):
    browser = push_service.subscribe()
    push_subscribe(user=user, endpoint=browser.endpoint, p256dh=browser.p256dh, auth=browser.auth)
    return browser


def _free_the_seat(booked, capture):
    with capture(execute=True):
        reservation_cancel(user=booked.user, reservation_id=booked.pk)


def test_an_offer_is_pushed_and_one_tap_books_it_with_the_members_pass(
    api_client, push_service, django_capture_on_commit_callbacks
):
    with freeze_time(AFTERNOON, tick=True):
        session, booked = _full_session()
        member = UserFactory()
        card = PassFactory(member=member, credits_left=4)
        browser = _phone(push_service, member)
        wl.waitlist_join(user=member, session_id=session.pk)
        _free_the_seat(booked, django_capture_on_commit_callbacks)

        assert push_service.rejected == []
        [offer] = push_service.messages(browser)
        entry = WaitlistEntry.objects.get(user=member)
        assert offer["kind"] == "waitlist_offer"
        assert offer["title"] == accept.PUSH_OFFER_TITLE
        assert offer["body"] == accept.PUSH_OFFER_BODY.format(
            course=session.course, day="02/12", time="18:30", deadline="17:00"
        )
        assert offer["url"] == f"/courses/calendar?date=2026-12-02&session={session.pk}"
        assert offer["actions"] == [{"action": "accept", "title": accept.PUSH_ACCEPT_ACTION}]
        assert OutgoingEmail.objects.filter(to=[member.email], template="bookings_waitlist_offered").count() == 1

        with django_capture_on_commit_callbacks(execute=True):
            response = api_client.post(offer["accept"]["url"], {"token": offer["accept"]["token"]}, format="json")
        assert response.status_code == 200
        assert response.json() == {"booked": True, "url": "/my-courses", "message": accept.MSG_ACCEPT_BOOKED}
        entry.refresh_from_db()
        assert entry.status == WaitlistStatus.BOOKED
        reservation = Reservation.objects.get(session=session, user=member)
        assert reservation.pk == entry.reservation_id
        assert (reservation.status, reservation.paid_with_pass_id) == (ReservationStatus.CONFIRMED, card.pk)
        assert Pass.objects.get(pk=card.pk).credits_left == 3

        again = api_client.post(ACCEPT, {"token": offer["accept"]["token"]}, format="json")
        assert again.status_code == 409
        assert again.json()["message"] == accept.MSG_ACCEPT_OFFER_OVER
        assert Pass.objects.get(pk=card.pk).credits_left == 3


def test_without_a_pass_that_pays_one_tap_opens_the_held_seats_payment(
    api_client, push_service, django_capture_on_commit_callbacks
):
    with freeze_time(AFTERNOON, tick=True):
        session, booked = _full_session()
        member = UserFactory()
        PassFactory(member=member, credits_left=0)
        browser = _phone(push_service, member)
        wl.waitlist_join(user=member, session_id=session.pk)
        _free_the_seat(booked, django_capture_on_commit_callbacks)
        [offer] = push_service.messages(browser)
        response = api_client.post(ACCEPT, {"token": offer["accept"]["token"]}, format="json")
        assert response.json() == {"booked": False, "url": offer["url"], "message": accept.MSG_ACCEPT_PAY}
        hold = WaitlistEntry.objects.get(user=member).reservation
        assert hold.status == ReservationStatus.HELD


@pytest.mark.parametrize("token", ["forged", "x" * 301, ""])
def test_a_forged_accept_link_is_refused_in_french(api_client, token):
    response = api_client.post(ACCEPT, {"token": token}, format="json")
    assert response.status_code in (400, 404)
    assert accept.MSG_ACCEPT_LINK_INVALID in str(response.json())


def test_at_night_nothing_is_pushed_and_the_automatic_booking_waits_for_8(
    quiet_hours, push_service, django_capture_on_commit_callbacks
):
    with freeze_time(NIGHT, tick=True) as clock:
        session, booked = _full_session()
        member = UserFactory()
        card = PassFactory(member=member, credits_left=4)
        browser = _phone(push_service, member)
        wl.waitlist_join(user=member, session_id=session.pk, auto_book=True, pass_id=card.pk)
        behind = UserFactory()
        wl.waitlist_join(user=behind, session_id=session.pk)
        _free_the_seat(booked, django_capture_on_commit_callbacks)
        with django_capture_on_commit_callbacks(execute=True):
            wl.waitlist_sweep()

        assert WaitlistEntry.objects.get(user=member).status == WaitlistStatus.WAITING
        assert WaitlistEntry.objects.get(user=behind).status == WaitlistStatus.WAITING  # the line keeps its order
        assert not Reservation.objects.filter(session=session, user=member).exists()
        assert browser.received == []

        clock.move_to(MORNING)
        with django_capture_on_commit_callbacks(execute=True):
            assert waitlist_quiet_hours_over.call() == 1
        entry = WaitlistEntry.objects.get(user=member)
        assert entry.status == WaitlistStatus.BOOKED
        assert entry.reservation.paid_with_pass_id == card.pk
        assert [m["title"] for m in push_service.messages(browser)] == [accept.PUSH_BOOKED_TITLE]


def test_two_waiting_lists_on_overlapping_classes_never_book_both(django_capture_on_commit_callbacks):
    with freeze_time(AFTERNOON, tick=True):
        first, first_booked = _full_session(course=CourseFactory(title="Pole débutant"))
        second, second_booked = _full_session(start=CLASS_START + timedelta(minutes=30))
        member = UserFactory()
        card = PassFactory(member=member, credits_left=4)
        for session in (first, second):
            wl.waitlist_join(user=member, session_id=session.pk, auto_book=True, pass_id=card.pk)
        _free_the_seat(first_booked, django_capture_on_commit_callbacks)
        _free_the_seat(second_booked, django_capture_on_commit_callbacks)

        assert WaitlistEntry.objects.get(session=first, user=member).status == WaitlistStatus.BOOKED
        assert WaitlistEntry.objects.get(session=second, user=member).status == WaitlistStatus.SKIPPED
        assert Reservation.objects.filter(user=member, status=ReservationStatus.CONFIRMED).count() == 1
        assert Pass.objects.get(pk=card.pk).credits_left == 3
        skipped = OutgoingEmail.objects.get(to=[member.email], template="bookings_waitlist_skipped")
        reason = MSG_WAITLIST_OVERLAP.format(course=first.course, time="18:30")
        assert reason.split(" : ")[0] in skipped.body_text.replace("\u202f", " ")


def test_a_class_that_only_touches_another_is_booked(django_capture_on_commit_callbacks):
    with freeze_time(AFTERNOON, tick=True):
        first, first_booked = _full_session()
        second, second_booked = _full_session(start=first.end)  # right after: no overlap
        member = UserFactory()
        card = PassFactory(member=member, credits_left=4)
        for session in (first, second):
            wl.waitlist_join(user=member, session_id=session.pk, auto_book=True, pass_id=card.pk)
        _free_the_seat(first_booked, django_capture_on_commit_callbacks)
        _free_the_seat(second_booked, django_capture_on_commit_callbacks)
        assert Reservation.objects.filter(user=member, status=ReservationStatus.CONFIRMED).count() == 2
