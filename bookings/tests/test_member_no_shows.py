"""No-shows on the member's record in the staff's users list (docs/decisions.md 38): each row says how many
absences were marked at the door, read with the page in the same query (bookings serves the list: it sees both the
accounts and the attendance)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from accounts.tests.factories import UserFactory
from bookings.models_operations import Attendance, AttendanceStatus
from bookings.selectors.attendance import user_no_shows_annotation
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory

# The same ORM count on both databases: run on both.
pytestmark = pytest.mark.database

USERS = "/api/users"


def _absent(user, days_ago):
    start = timezone.now() - timedelta(days=days_ago)
    session = CourseSessionFactory(start=start, end=start + timedelta(hours=1))
    return Attendance.objects.create(
        reservation=ReservationFactory(session=session, user=user), status=AttendanceStatus.ABSENT
    )


def test_the_users_list_shows_each_members_no_shows(api_client, staff, supervisor, django_assert_max_num_queries):
    emma, zoe = UserFactory(last_name="Aaron"), UserFactory(last_name="Abel")
    for days in (3, 10, 17):
        _absent(emma, days)
    _absent(zoe, 5)
    present = ReservationFactory(user=zoe, session=CourseSessionFactory(start=timezone.now() - timedelta(days=1)))
    Attendance.objects.create(reservation=present, status=AttendanceStatus.PRESENT)  # a presence is no no-show
    for _ in range(12):
        _absent(UserFactory(), 2)
    api_client.force_authenticate(staff)

    with django_assert_max_num_queries(6):
        response = api_client.get(USERS, {"page_size": 50})
    assert response.status_code == 200, response.json()
    rows = {r["id"]: r for r in response.json()["results"]}
    assert rows[emma.pk]["no_shows"] == 3 and rows[zoe.pk]["no_shows"] == 1
    assert rows[staff.pk]["no_shows"] == 0
    # A supervisor reads them too (docs/decisions.md 11: supervisors reach every staff API).
    api_client.force_authenticate(supervisor)
    assert api_client.get(USERS, {"search": emma.email}).json()["results"][0]["no_shows"] == 3


def test_the_no_shows_are_an_annotation_of_the_users_query(django_assert_num_queries, db):
    people = [UserFactory() for _ in range(5)]
    for person in people:
        _absent(person, 4)
    with django_assert_num_queries(1):
        counts = dict(User.objects.annotate(no_shows=user_no_shows_annotation()).values_list("pk", "no_shows"))
    assert all(counts[p.pk] == 1 for p in people)
