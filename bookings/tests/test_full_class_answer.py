"""A member who asks for a seat in a full class is told so and offered its waiting list in the same answer, so
that the calendar can show the list's form at once (the class-opening rush: most members are refused)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from bookings.services.common import MSG_SESSION_FULL, ReservationError
from bookings.services.reservations import reservation_hold
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory

HOLD = "/api/reservations-courses"
WAITLIST = "/api/course-sessions/{}/waitlist"


def _hold(api_client, member, session):
    api_client.force_authenticate(member)
    body = {"session_id": session.pk, "participants": 1, "first_name": "Emma", "last_name": "Petit"}
    return api_client.post(HOLD, {**body, "email": member.email}, format="json")


@pytest.mark.django_db
def test_a_full_class_refuses_the_seat_and_offers_its_waiting_list(api_client, member):
    session = CourseSessionFactory(max_attendees=1, start=timezone.now() + timedelta(days=2))
    ReservationFactory(session=session)
    refused = _hold(api_client, member, session)
    assert refused.status_code == 409
    body = refused.json()
    assert body["error"] == MSG_SESSION_FULL == "Cette session est complète."
    assert body["code"] == "session_full" and body["waitlist_open"] is True
    joined = api_client.post(WAITLIST.format(session.pk), {}, format="json")
    assert joined.status_code == 201


@pytest.mark.django_db
def test_in_the_last_hour_the_full_class_says_its_waiting_list_is_closed(api_client, member):
    session = CourseSessionFactory(max_attendees=1, start=timezone.now() + timedelta(minutes=40))
    ReservationFactory(session=session)
    refused = _hold(api_client, member, session)
    assert refused.status_code == 409
    assert refused.json()["error"] == "Cette session est complète." and refused.json()["waitlist_open"] is False


@pytest.mark.postgres
def test_a_full_class_answers_at_once_even_while_a_booking_holds_its_lock():
    """At a class opening most members ask after the last seat went: they are told so from what is committed,
    without queuing behind the seat lock that the members still paying or booking hold."""
    import threading

    import psycopg
    from django.db import connection

    from accounts.tests.factories import UserFactory

    session = CourseSessionFactory(max_attendees=1, start=timezone.now() + timedelta(days=2))
    ReservationFactory(session=session)
    member = UserFactory()
    locked, release = threading.Event(), threading.Event()
    params = connection.get_connection_params()
    conninfo = {k: v for k, v in params.items() if k in ("host", "port", "user", "password", "dbname")}

    def hold_the_lock():
        with psycopg.connect(**conninfo) as other, other.transaction():
            other.execute("SELECT id FROM courses_coursesession WHERE id = %s FOR UPDATE", [session.pk])
            locked.set()
            release.wait(10)

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    try:
        assert locked.wait(10)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '2s'")
        with pytest.raises(ReservationError) as refused:
            reservation_hold(
                user=member, session_id=session.pk, participants=1, first_name="A", last_name="B", email=member.email
            )
        assert refused.value.message == "Cette session est complète."
        assert refused.value.extra["waitlist_open"] is True
    finally:
        release.set()
        holder.join()
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")
