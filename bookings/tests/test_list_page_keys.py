"""The bookings' paginated lists answer their keys in a fixed order: count, next, previous, results (then the staff
session list's `page`), each row in its Output serializer's order. The frontend reads them by name, but a change of
order is a change of the answer all the same."""

import json
from datetime import datetime, timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from bookings.apis.feedback import FollowedCourseOutput
from bookings.apis.passes import PassOutput
from bookings.apis.sessions import StaffSessionListItemOutput
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseSessionFactory

pytestmark = pytest.mark.django_db

NOW = datetime(2030, 3, 15, 9, 0, tzinfo=timezone.get_fixed_timezone(0))
PAGE_KEYS = ["count", "next", "previous", "results"]


def _middle_page(api_client, url, params=None):
    """Page 2 of 3 rows one a page: both links filled."""
    response = api_client.get(url, {**(params or {}), "page": 2, "page_size": 1})
    assert response.status_code == 200, response.content
    body = json.loads(response.content)
    assert (body["count"], body["next"] is None, body["previous"] is None) == (3, False, False)
    return body


@freeze_time(NOW)
def test_the_staff_session_list_says_its_page_last(api_client, staff):
    for days in (1, 2, 3):
        CourseSessionFactory(start=NOW + timedelta(days=days))
    api_client.force_authenticate(staff)

    body = _middle_page(api_client, "/api/course-sessions", {"view": "staff"})

    assert list(body) == [*PAGE_KEYS, "page"] and body["page"] == 2
    assert list(body["results"][0]) == list(StaffSessionListItemOutput().fields)


@freeze_time(NOW)
def test_the_staff_pass_list(api_client, staff):
    for _ in range(3):
        PassFactory()
    api_client.force_authenticate(staff)

    body = _middle_page(api_client, "/api/passes")

    assert list(body) == PAGE_KEYS
    assert list(body["results"][0]) == list(PassOutput().fields)


@freeze_time(NOW)
def test_the_member_history(api_client, member):
    for days in (1, 2, 3):
        ReservationFactory(user=member, session=CourseSessionFactory(start=NOW + timedelta(days=days)))
    api_client.force_authenticate(member)

    body = _middle_page(api_client, f"/api/course-feedback/user/{member.pk}")

    assert list(body) == PAGE_KEYS
    assert list(body["results"][0]) == list(FollowedCourseOutput().fields)
