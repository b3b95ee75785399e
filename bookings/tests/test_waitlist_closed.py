"""Joining a waiting list that is closed says why: the class was cancelled, has begun, has ended, or starts within
the hour (docs/decisions.md 27, 28)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from bookings.services import waitlist as wl
from bookings.tests.factories import ReservationFactory
from courses.models import SessionStatus
from courses.tests.factories import CourseSessionFactory

pytestmark = pytest.mark.django_db

WAITLIST = "/api/course-sessions/{}/waitlist"


def _full_session(*, start, status=SessionStatus.SCHEDULED):
    session = CourseSessionFactory(start=start, end=start + timedelta(minutes=75), max_attendees=1, status=status)
    ReservationFactory(session=session)
    return session


def _join(api_client, member, session):
    api_client.force_authenticate(member)
    return api_client.post(WAITLIST.format(session.pk), {"auto_book": False}, format="json")


@pytest.mark.parametrize(
    ("starts_in", "status", "code", "message"),
    [
        (timedelta(days=2), SessionStatus.CANCELLED, "waitlist_session_cancelled", wl.MSG_WAITLIST_SESSION_CANCELLED),
        (
            timedelta(minutes=30),
            SessionStatus.CANCELLED,
            "waitlist_session_cancelled",
            wl.MSG_WAITLIST_SESSION_CANCELLED,
        ),
        (-timedelta(days=1), SessionStatus.CANCELLED, "waitlist_session_cancelled", wl.MSG_WAITLIST_SESSION_CANCELLED),
        (-timedelta(minutes=10), SessionStatus.SCHEDULED, "waitlist_session_started", wl.MSG_WAITLIST_SESSION_STARTED),
        (-timedelta(hours=3), SessionStatus.SCHEDULED, "waitlist_session_ended", wl.MSG_WAITLIST_SESSION_ENDED),
        (timedelta(minutes=50), SessionStatus.SCHEDULED, "waitlist_closed", wl.MSG_WAITLIST_CLOSED),
    ],
    ids=["cancelled", "cancelled-within-the-hour", "cancelled-and-past", "started", "ended", "within-the-hour"],
)
def test_a_closed_waiting_list_says_why(api_client, member, starts_in, status, code, message):
    session = _full_session(start=timezone.now() + starts_in, status=status)
    response = _join(api_client, member, session)
    assert response.status_code == 409
    assert (response.json()["code"], response.json()["error"]) == (code, message)
    assert not session.waitlist_entries.exists()


def test_the_messages_read_as_the_studio_writes_them():
    assert wl.MSG_WAITLIST_SESSION_CANCELLED == "Ce cours est annulé par le studio : il n'a plus de liste d'attente."
    assert wl.MSG_WAITLIST_SESSION_STARTED == "Ce cours a déjà commencé : la liste d'attente est fermée."
    assert wl.MSG_WAITLIST_SESSION_ENDED == "Ce cours est terminé : la liste d'attente est fermée."
    assert wl.MSG_WAITLIST_CLOSED == "La liste d'attente est fermée : le cours commence dans moins d'une heure."
