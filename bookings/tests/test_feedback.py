"""Course feedback at the API boundary: typed input in French, statuses from the error codes."""

from datetime import timedelta

import pytest
from django.utils import timezone

from bookings.apis.feedback import MSG_MEMBER_UNKNOWN
from bookings.models import CourseFeedback
from bookings.services.common import MSG_COURSE_NOT_FOUND
from bookings.services.feedback import MSG_FEEDBACK_NOT_FOLLOWED, MSG_FEEDBACK_RATING_RANGE, MSG_FEEDBACK_REQUIRED
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory

URL = "/api/course-feedback"


@pytest.fixture
def followed(member):
    session = CourseSessionFactory(start=timezone.now() - timedelta(days=2))
    ReservationFactory(session=session, user=member)
    return session


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rating": "cinq"}, MSG_FEEDBACK_RATING_RANGE),
        ({"rating": 6}, MSG_FEEDBACK_RATING_RANGE),
        ({"rating": None}, MSG_FEEDBACK_REQUIRED),
        ({"comment": "   "}, MSG_FEEDBACK_REQUIRED),
        ({"course_id": "abc"}, MSG_COURSE_NOT_FOUND),
        ({"course_id": None}, MSG_FEEDBACK_REQUIRED),
    ],
)
def test_rubbish_is_refused_in_french(api_client, member, followed, changes, message):
    api_client.force_authenticate(member)
    body = {"course_id": followed.course_id, "rating": 4, "comment": "Super", **changes}
    response = api_client.post(URL, body, format="json")
    assert response.status_code == 400 and response.json()["error"] == message
    assert not CourseFeedback.objects.exists()


def test_a_course_not_followed_is_forbidden(api_client, member):
    api_client.force_authenticate(member)
    other = CourseSessionFactory(start=timezone.now() - timedelta(days=2))
    response = api_client.post(URL, {"course_id": other.course_id, "rating": 4, "comment": "x"}, format="json")
    assert response.status_code == 403 and response.json()["error"] == MSG_FEEDBACK_NOT_FOLLOWED


def test_history_of_an_unknown_member_is_not_found_for_staff(api_client, staff):
    api_client.force_authenticate(staff)
    response = api_client.get(f"{URL}/user/999999")
    assert response.status_code == 404 and response.json()["error"] == MSG_MEMBER_UNKNOWN
    assert api_client.get(f"{URL}/user/{2**40}").status_code == 404
