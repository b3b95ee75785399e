"""The staff's writes of a session: Paris time and defaults, the French refusals, places never below the seats
taken (counted by bookings under the session lock), and a reserved session never deleted (its reservations protect
it)."""

from datetime import datetime, timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from bookings.models import ReservationStatus
from bookings.services.session_places import course_session_update
from bookings.tests.factories import ReservationFactory
from courses.models import CourseSession
from courses.services import sessions
from courses.services.sessions import (
    MSG_COURSE_NOT_FOUND,
    MSG_INSTRUCTOR_UNKNOWN,
    MSG_LEVEL_INVALID,
    MSG_MAX_ATTENDEES_MIN,
    MSG_MAX_BELOW_TAKEN,
    MSG_SESSION_END_BEFORE_START,
    MSG_SESSION_HAS_RESERVATIONS,
    MSG_SESSION_NOT_FOUND,
    SessionWriteError,
    course_session_create,
    course_session_delete,
    course_session_locked,
)
from courses.tests.factories import CourseFactory, CourseSessionFactory, instructor_named

pytestmark = pytest.mark.django_db


def test_session_create_reads_paris_time_and_defaults():
    course = CourseFactory(duration=75)
    session = course_session_create(
        course_id=course.pk,
        start=datetime(2031, 7, 1, 18, 30),
        instructor_id=instructor_named("Inès Moreau").pk,
        level="",
    )
    local = timezone.localtime(session.start)
    assert (local.hour, local.minute) == (18, 30)
    assert session.start.utcoffset() is not None and local.utcoffset() == timedelta(hours=2)
    assert session.end - session.start == timedelta(minutes=75)
    assert session.max_attendees == 10


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"instructor_id": 999999}, MSG_INSTRUCTOR_UNKNOWN),
        ({"end": datetime(2031, 7, 1, 18, 0)}, MSG_SESSION_END_BEFORE_START),
        ({"max_attendees": 0}, MSG_MAX_ATTENDEES_MIN),
        ({"level": "Expert"}, MSG_LEVEL_INVALID),
        ({"course_id": 999999}, MSG_COURSE_NOT_FOUND),
    ],
)
def test_session_create_refusals(kwargs, message):
    course = CourseFactory()
    base = {"course_id": course.pk, "start": datetime(2031, 7, 1, 18, 30), "instructor_id": instructor_named("I").pk}
    with pytest.raises(SessionWriteError) as exc:
        course_session_create(**{**base, **kwargs})
    assert exc.value.message == message
    assert not CourseSession.objects.exists()


def test_session_update_cannot_go_below_seats_taken(member):
    session = CourseSessionFactory(max_attendees=5)
    ReservationFactory(session=session, participants=3)
    start = session.start
    with pytest.raises(SessionWriteError) as exc:
        course_session_update(
            session_id=session.pk,
            course_id=session.course_id,
            start=start,
            instructor_id=session.instructor_id,
            max_attendees=2,
        )
    assert exc.value.message == MSG_MAX_BELOW_TAKEN.format(taken=3)
    updated = course_session_update(
        session_id=session.pk,
        course_id=session.course_id,
        start=start,
        instructor_id=instructor_named("Léa").pk,
        max_attendees=3,
    )
    assert updated.max_attendees == 3 and updated.instructor.name == "Léa"


def test_session_with_reservations_cannot_be_deleted():
    session = CourseSessionFactory()
    ReservationFactory(session=session, status=ReservationStatus.EXPIRED)
    with pytest.raises(SessionWriteError) as exc:
        course_session_delete(session_id=session.pk)
    assert exc.value.message == MSG_SESSION_HAS_RESERVATIONS
    empty = CourseSessionFactory()
    course_session_delete(session_id=empty.pk)
    assert not CourseSession.objects.filter(pk=empty.pk).exists()


def test_courses_keeps_the_places_above_what_its_caller_counted_under_the_lock():
    """Courses cannot count seats: the caller that can (bookings) passes them, read under the session lock."""
    session = CourseSessionFactory(max_attendees=5)
    change = {
        "course_id": session.course_id,
        "start": session.start,
        "instructor_id": session.instructor_id,
        "max_attendees": 3,
    }
    with transaction.atomic():
        locked = course_session_locked(session_id=session.pk)
        with pytest.raises(SessionWriteError) as exc:
            sessions.course_session_update(session=locked, places_taken=4, **change)
    assert (exc.value.code, exc.value.status) == ("max_below_taken", 409)
    assert exc.value.message == MSG_MAX_BELOW_TAKEN.format(taken=4)
    with transaction.atomic():
        locked = course_session_locked(session_id=session.pk)
        assert sessions.course_session_update(session=locked, places_taken=3, **change).max_attendees == 3


def test_an_unknown_session_is_a_french_404_before_any_change():
    with pytest.raises(SessionWriteError) as exc:
        course_session_locked(session_id=999999)
    assert (exc.value.message, exc.value.status) == (MSG_SESSION_NOT_FOUND, 404)
    with pytest.raises(SessionWriteError) as exc:
        course_session_delete(session_id=999999)
    assert (exc.value.message, exc.value.status) == (MSG_SESSION_NOT_FOUND, 404)
