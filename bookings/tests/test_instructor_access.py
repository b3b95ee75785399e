"""An instructor account (role `instructor`, linked to an instructor record) sees its own classes and their
attendance lists, and marks attendance there; never another instructor's (404), never the back office (403)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Role
from accounts.services.errors import MSG_STAFF_EDIT_FORBIDDEN
from accounts.tests.factories import UserFactory
from bookings.models_operations import Attendance, AttendanceStatus
from bookings.selectors.instructor import MSG_NOT_AN_INSTRUCTOR
from bookings.services.attendance import MSG_ATTENDANCE_SAVED
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory, InstructorFactory
from studio.api import MSG_FORBIDDEN

MINE = "/api/instructor/sessions"


@pytest.fixture
def lea(db):
    account = UserFactory(first_name="Léa", last_name="Garnier", role=Role.INSTRUCTOR)
    return InstructorFactory(name="Léa Garnier", user=account)


@pytest.fixture
def ines(db):
    account = UserFactory(first_name="Inès", last_name="Moreau", role=Role.INSTRUCTOR)
    return InstructorFactory(name="Inès Moreau", user=account)


def soon(instructor, title):
    """A class starting within the hour: its attendance sheet is open."""
    start = timezone.now() + timedelta(minutes=30)
    return CourseSessionFactory(course=CourseFactory(title=title), instructor=instructor, start=start)


def sheet(session_id):
    return f"/api/course-sessions/{session_id}/attendance"


def test_an_instructor_lists_only_their_own_classes(api_client, lea, ines, django_assert_max_num_queries):
    own = soon(lea, "Pole Débutant")
    soon(ines, "Cerceau")
    ReservationFactory(session=own, participants=2)
    api_client.force_authenticate(lea.user)
    with django_assert_max_num_queries(6):
        response = api_client.get(MINE)
    assert response.status_code == 200
    body = response.json()
    assert body["instructor"] == {"id": lea.pk, "name": "Léa Garnier"}
    assert [(s["id"], s["course_title"], s["seats_taken"]) for s in body["results"]] == [(own.pk, "Pole Débutant", 2)]


def test_the_list_runs_the_same_queries_for_one_class_or_twenty(api_client, lea, django_assert_max_num_queries):
    for n in range(20):
        ReservationFactory(session=soon(lea, f"Cours {n}"))
    api_client.force_authenticate(lea.user)
    with django_assert_max_num_queries(6):
        assert len(api_client.get(MINE).json()["results"]) == 20


def test_an_instructor_sees_and_marks_their_own_attendance_sheet(api_client, lea):
    own = soon(lea, "Pole Débutant")
    booking = ReservationFactory(session=own, first_name="Emma", last_name="Petit")
    api_client.force_authenticate(lea.user)
    read = api_client.get(sheet(own.pk))
    assert read.status_code == 200 and read.json()["session"]["instructor"] == "Léa Garnier"
    assert [line["reservation_id"] for line in read.json()["results"]] == [booking.pk]
    marked = api_client.post(sheet(own.pk), {"reservation_id": booking.pk, "present": True}, format="json")
    assert marked.status_code == 200 and marked.json()["message"] == MSG_ATTENDANCE_SAVED
    attendance = Attendance.objects.get(reservation=booking)
    assert (attendance.status, attendance.marked_by) == (AttendanceStatus.PRESENT, lea.user)


def test_an_instructor_cannot_see_or_mark_another_instructors_sheet(api_client, lea, ines):
    other = soon(ines, "Cerceau")
    booking = ReservationFactory(session=other)
    api_client.force_authenticate(lea.user)
    read = api_client.get(sheet(other.pk))
    assert read.status_code == 404 and read.json()["error"] == "Cette session n'existe pas."
    mark = api_client.post(sheet(other.pk), {"reservation_id": booking.pk, "present": False}, format="json")
    assert mark.status_code == 404
    walk_in = api_client.post(
        f"/api/course-sessions/{other.pk}/walk-ins", {"email": booking.email, "paid_with": "desk"}, format="json"
    )
    assert walk_in.status_code == 404
    assert not Attendance.objects.exists()


def test_an_inactive_instructor_or_an_unlinked_instructor_account_sees_nothing(api_client, lea):
    own = soon(lea, "Pole Débutant")
    lea.active = False
    lea.save()
    api_client.force_authenticate(lea.user)
    refused = api_client.get(MINE)
    assert refused.status_code == 403 and refused.json()["error"] == MSG_NOT_AN_INSTRUCTOR
    assert api_client.get(sheet(own.pk)).status_code == 404
    api_client.force_authenticate(UserFactory(role=Role.INSTRUCTOR))
    assert api_client.get(MINE).status_code == 403


def test_a_member_linked_to_an_instructor_record_without_the_role_is_refused(api_client, member):
    record = InstructorFactory(name="Emma Petit", user=member)
    session = soon(record, "Pole")
    api_client.force_authenticate(member)
    assert api_client.get(MINE).status_code == 403
    refused = api_client.get(sheet(session.pk))
    assert refused.status_code == 403
    assert refused.json()["error"] == MSG_FORBIDDEN  # the API's one French refusal for a role that cannot


def test_only_an_admin_edits_or_deletes_an_instructor_account(api_client, supervisor, staff, lea):
    api_client.force_authenticate(supervisor)
    edit = api_client.put(f"/api/users/{lea.user_id}", {"first_name": "Lé"}, format="json")
    assert edit.status_code == 403
    delete = api_client.delete(f"/api/users/{lea.user_id}")
    assert delete.status_code == 403 and delete.json()["error"] == MSG_STAFF_EDIT_FORBIDDEN
    api_client.force_authenticate(staff)
    assert api_client.put(f"/api/users/{lea.user_id}", {"first_name": "Lé"}, format="json").status_code == 200


def test_an_instructor_account_does_not_reach_the_back_office(api_client, lea):
    api_client.force_authenticate(lea.user)
    for path in ("/api/users", "/api/course-sessions?view=staff", "/api/paypal/orders", "/api/passes"):
        assert api_client.get(path).status_code == 403, path
    session = soon(lea, "Pole")
    body = {"course_id": session.course_id, "date": "2031-06-02 19:00:00", "instructor_id": lea.pk}
    assert api_client.put(f"/api/course-sessions/{session.pk}", body, format="json").status_code == 403
    assert (
        api_client.post(f"/api/course-sessions/{session.pk}/cancel", {"reason": "x"}, format="json").status_code == 403
    )


def test_staff_still_reach_every_sheet(api_client, staff, lea):
    session = soon(lea, "Pole")
    api_client.force_authenticate(staff)
    assert api_client.get(sheet(session.pk)).status_code == 200


def test_visitors_are_asked_to_log_in(api_client, lea):
    assert api_client.get(MINE).status_code in (401, 403)
    assert api_client.get(sheet(soon(lea, "Pole").pk)).status_code in (401, 403)


# --- Pages ---


def test_the_instructor_page_lists_their_classes_and_opens_their_sheets_only(client, lea, ines):
    own = soon(lea, "Pole Débutant")
    other = soon(ines, "Cerceau Avancé")
    client.force_login(lea.user)
    page = client.get("/instructor/classes")
    assert page.status_code == 200
    text = page.text
    assert "Pole Débutant" in text and "Cerceau Avancé" not in text
    assert f"/instructor/classes/{own.pk}" in text
    assert client.get(f"/instructor/classes/{own.pk}").status_code == 200
    assert client.get(f"/instructor/classes/{other.pk}").status_code == 404


def test_the_instructor_page_is_for_instructor_accounts(client, member):
    assert client.get("/instructor/classes").status_code == 302  # to the login page
    client.force_login(member)
    assert client.get("/instructor/classes").status_code == 403


def test_the_account_menu_links_instructors_to_their_classes(client, lea, member):
    client.force_login(lea.user)
    assert 'href="/instructor/classes"' in client.get("/my-courses").text
    client.force_login(member)
    assert 'href="/instructor/classes"' not in client.get("/my-courses").text


def test_the_classes_page_runs_the_same_queries_for_one_class_or_fifteen(client, lea):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(lea.user)
    ReservationFactory(session=soon(lea, "Cours 0"))
    client.get("/instructor/classes")  # warm the caches of the header
    with CaptureQueriesContext(connection) as one:
        client.get("/instructor/classes")
    for n in range(1, 15):
        ReservationFactory(session=soon(lea, f"Cours {n}"))
    with CaptureQueriesContext(connection) as fifteen:
        page = client.get("/instructor/classes")
    assert page.text.count("/instructor/classes/") == 15
    assert len(fifteen.captured_queries) == len(one.captured_queries)


@pytest.mark.parametrize("path", ["/instructor/classes", MINE])
def test_the_class_list_reads_each_courses_title_only(client, lea, path):
    """Sixty classes name their course by title: the list does not load each course's whole row (description,
    pictures and their renditions) nor the instructor again for each class."""
    import re

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for n in range(3):
        ReservationFactory(session=soon(lea, f"Cours {n}"))
    client.force_login(lea.user)
    with CaptureQueriesContext(connection) as listed:
        response = client.get(path)
    assert response.status_code == 200 and "Cours 2" in response.text
    selected = [query["sql"].split(" FROM ")[0] for query in listed.captured_queries]
    course_columns = {column for sql in selected for column in re.findall(r'"courses_course"\."(\w+)"', sql)}
    assert course_columns <= {"id", "title"}
    assert not any('"courses_instructor"' in sql and '"courses_coursesession"' in sql for sql in selected)
