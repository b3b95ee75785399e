"""The attendance sheet says when it opens: the server's own rule (two hours before the class) is in its answer, so the
sheet never offers a mark the server would refuse."""

from datetime import timedelta

from django.utils import timezone
from freezegun import freeze_time

from bookings.services.attendance import ATTENDANCE_OPENS_BEFORE, attendance_opens_at
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory

SHEET = "/api/course-sessions/{}/attendance"


@freeze_time("2026-11-28 09:00:00+00:00")
def test_the_sheet_of_a_class_in_three_hours_is_not_open_and_says_when_it_opens(api_client, staff):
    session = CourseSessionFactory(start=timezone.now() + timedelta(hours=3))
    reservation = ReservationFactory(session=session)
    api_client.force_authenticate(staff)

    sheet = api_client.get(SHEET.format(session.pk)).json()["session"]
    assert sheet["attendance_open"] is False
    assert sheet["attendance_opens_at"] == "2026-11-28T11:00:00+01:00"  # 12:00 UTC start, two hours earlier, Paris

    # The flag is the very rule the mark obeys: refused now, accepted once the sheet opens.
    refused = api_client.post(SHEET.format(session.pk), {"reservation_id": reservation.pk, "present": True}, "json")
    assert refused.status_code == 409
    with freeze_time(attendance_opens_at(session)):
        opened = api_client.get(SHEET.format(session.pk)).json()["session"]
        assert opened["attendance_open"] is True
        marked = api_client.post(SHEET.format(session.pk), {"reservation_id": reservation.pk, "present": True}, "json")
        assert marked.status_code == 200


def test_the_opening_is_the_class_start_minus_the_rule(db):
    session = CourseSessionFactory(start=timezone.now() + timedelta(days=1))
    assert attendance_opens_at(session) == session.start - ATTENDANCE_OPENS_BEFORE


def test_a_cancelled_class_sheet_is_not_open(api_client, staff):
    session = CourseSessionFactory(start=timezone.now() - timedelta(minutes=5), status="cancelled")
    api_client.force_authenticate(staff)
    assert api_client.get(SHEET.format(session.pk)).json()["session"]["attendance_open"] is False
