"""Booking windows (docs/decisions.md 45): a session opens for booking N days before it starts at a fixed hour (Paris);
before that every member booking path answers 409 in French. A tariff may cap the future bookings held with it."""

from datetime import datetime, time
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from freezegun import freeze_time

from bookings.models import Reservation
from bookings.services import waitlist as wl
from bookings.services.pass_rules import MSG_PASS_FUTURE_CAP
from bookings.services.passes import reservation_book_with_pass
from bookings.services.session_status import MSG_BOOKING_NOT_OPEN, BookingNotOpenError
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.booking_windows import moment_text, session_booking_opens_at
from courses.services.catalogue import (
    MSG_COURSE_CANCELLATION_HOURS_INVALID,
    MSG_COURSE_OPENS_TIME_INVALID,
    MSG_TARIFF_FUTURE_CAP_INVALID,
)
from courses.tests.factories import CourseFactory, CourseSessionFactory, TariffFactory

pytestmark = pytest.mark.django_db
PARIS = ZoneInfo("Europe/Paris")
NOW = datetime(2030, 3, 1, 9, 0, tzinfo=PARIS)
RESERVE = "/api/reservations-courses"


@pytest.fixture(autouse=True)
def studio_opening(settings):
    """The studio's default: 14 days before, at midnight in Paris (the suite's settings open sessions far earlier)."""
    settings.BOOKING_OPENS_DAYS_BEFORE = 14
    settings.BOOKING_OPENS_AT = "00:00"


def _session(day: datetime, **course):
    return CourseSessionFactory(course=CourseFactory(title="Pole Flow", **course), start=day, max_attendees=2)


def _payload(member, session, **extra):
    return {
        "session_id": session.pk,
        "participants": 1,
        "first_name": member.first_name,
        "last_name": member.last_name,
        "email": member.email,
        **extra,
    }


@freeze_time(NOW)
def test_a_session_opens_14_days_before_at_midnight_paris_and_says_so(api_client, member):
    session = _session(datetime(2030, 3, 20, 18, 30, tzinfo=PARIS))
    opens = datetime(2030, 3, 6, 0, 0, tzinfo=PARIS)
    assert session_booking_opens_at(session) == opens
    api_client.force_authenticate(member)
    response = api_client.post(RESERVE, _payload(member, session), format="json")
    assert response.status_code == 409
    assert response.json()["error"] == MSG_BOOKING_NOT_OPEN.format(when="6 mars 2030 à 00:00")
    card = PassFactory(member=member)
    response = api_client.post(RESERVE, _payload(member, session, pass_id=card.pk), format="json")
    assert response.status_code == 409
    assert response.json()["error"] == MSG_BOOKING_NOT_OPEN.format(when="6 mars 2030 à 00:00")
    card.refresh_from_db()
    assert card.credits_left == 10 and not Reservation.objects.exists()
    with freeze_time(opens):
        assert api_client.post(RESERVE, _payload(member, session), format="json").status_code == 201


@freeze_time(NOW)
def test_a_course_overrides_the_days_and_the_hour(api_client, member):
    session = _session(
        datetime(2030, 3, 10, 18, 30, tzinfo=PARIS), booking_opens_days_before=3, booking_opens_time=time(12, 0)
    )
    assert moment_text(session_booking_opens_at(session)) == "7 mars 2030 à 12:00"
    api_client.force_authenticate(member)
    response = api_client.post(RESERVE, _payload(member, session), format="json")
    assert response.json()["error"] == MSG_BOOKING_NOT_OPEN.format(when="7 mars 2030 à 12:00")


@freeze_time(NOW)
def test_the_waiting_list_is_no_way_around_the_opening(member, other_member):
    session = _session(datetime(2030, 4, 1, 18, 30, tzinfo=PARIS))
    ReservationFactory(session=session)
    ReservationFactory(session=session)  # full, booked by the studio
    with pytest.raises(BookingNotOpenError) as refused:
        wl.waitlist_join(user=member, session_id=session.pk)
    assert refused.value.message == MSG_BOOKING_NOT_OPEN.format(when="18 mars 2030 à 00:00")


@freeze_time(NOW)
def test_session_outputs_carry_the_opening_and_the_free_cancellation(api_client):
    session = _session(datetime(2030, 3, 20, 18, 30, tzinfo=PARIS), free_cancellation_hours=12)
    body = api_client.get("/api/course-sessions", {"start": "2030-03-01", "end": "2030-04-01"}).json()
    (event,) = [e for e in body if e["id"] == session.pk]
    assert event["booking_opens_at"] == "2030-03-06T00:00:00+01:00"
    assert event["free_cancellation_until"] == "2030-03-20T06:30:00+01:00"
    assert list(event)[-1] == "my_reservation"  # the member's reservation is spliced in last


@freeze_time(NOW)
def test_a_tariff_caps_the_future_bookings_held_with_it(api_client, member):
    tariff = TariffFactory(title="Carte découverte", pass_credits=5, pass_validity_months=2, max_future_bookings=1)
    card = PassFactory(member=member, tariff=tariff, title="Carte découverte")
    first, second = (_session(datetime(2030, 3, day, 18, 0, tzinfo=PARIS)) for day in (3, 4))

    def book(session):
        return reservation_book_with_pass(
            user=member,
            session_id=session.pk,
            pass_id=card.pk,
            participants=1,
            first_name="E",
            last_name="P",
            email="e@p.fr",
        )

    book(first)
    api_client.force_authenticate(member)
    response = api_client.post(RESERVE, _payload(member, second, pass_id=card.pk), format="json")
    assert response.status_code == 409
    assert response.json()["error"] == MSG_PASS_FUTURE_CAP.format(cap=1, title="Carte découverte")
    card.refresh_from_db()
    assert card.credits_left == 9
    with freeze_time(datetime(2030, 3, 3, 19, 30, tzinfo=PARIS)):  # the first class is past
        assert api_client.post(RESERVE, _payload(member, second, pass_id=card.pk), format="json").status_code == 201


def test_staff_set_the_windows_and_the_cap_with_french_refusals(api_client, staff):
    api_client.force_authenticate(staff)
    created = api_client.post(
        "/api/courses",
        {
            "title": "Souplesse",
            "description": "Étirements.",
            "free_cancellation_hours": 12,
            "booking_opens_time": "08:00",
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    assert (body["free_cancellation_hours"], body["booking_opens_days_before"], body["booking_opens_time"]) == (
        12,
        None,
        "08:00",
    )
    bad = api_client.post(
        "/api/courses", {"title": "X", "description": "Y", "free_cancellation_hours": 500}, format="json"
    )
    assert bad.status_code == 400 and MSG_COURSE_CANCELLATION_HOURS_INVALID in str(bad.json())
    bad = api_client.post(
        "/api/courses", {"title": "X", "description": "Y", "booking_opens_time": "midi"}, format="json"
    )
    assert bad.status_code == 400 and MSG_COURSE_OPENS_TIME_INVALID in str(bad.json())
    tariff = api_client.post(
        "/api/tarifs",
        {"title": "Carte 5", "price": "90.00", "type": "forfait", "max_future_bookings": -1},
        format="json",
    )
    assert tariff.status_code == 400 and MSG_TARIFF_FUTURE_CAP_INVALID in str(tariff.json())
    tariff = api_client.post(
        "/api/tarifs",
        {"title": "Carte 5", "price": Decimal("90.00"), "type": "forfait", "max_future_bookings": 2},
        format="json",
    )
    assert tariff.status_code == 201, tariff.json()
    assert tariff.json()["max_future_bookings"] == 2


def test_staff_clear_a_course_override_from_a_multipart_form(client, staff):
    course = CourseFactory(booking_opens_days_before=3, booking_opens_time=time(8, 0))
    client.force_login(staff)
    response = client.put(
        f"/api/courses/{course.pk}",
        data=encode_multipart(BOUNDARY, {"booking_opens_days_before": "", "booking_opens_time": ""}),
        content_type=MULTIPART_CONTENT,
    )
    assert response.status_code == 200, response.json()
    course.refresh_from_db()
    assert (course.booking_opens_days_before, course.booking_opens_time) == (None, None)
