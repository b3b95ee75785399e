"""Instructors are people: the staff CRUD of GET/POST /api/instructors and PUT/DELETE /api/instructors/{id},
with its French refusals; visitors read the active instructors' public shape only."""

import pytest

from courses.models import Instructor
from courses.serializers.instructors import (
    MSG_INSTRUCTOR_ACTIVE_INVALID,
    MSG_INSTRUCTOR_NAME_REQUIRED,
    MSG_INSTRUCTOR_NAME_TOO_LONG,
    MSG_INSTRUCTOR_USER_INVALID,
)
from courses.services.catalogue import MSG_INSTRUCTOR_EXISTS, MSG_INSTRUCTOR_HAS_SESSIONS, MSG_INSTRUCTOR_NAME_EXISTS
from courses.tests.factories import CourseSessionFactory, InstructorFactory

LIST = "/api/instructors"


def test_visitors_read_the_active_instructors_without_their_accounts(api_client, member):
    InstructorFactory(name="Léa Garnier", user=member, bio="Cerceau", specialties="Aérien")
    InstructorFactory(name="Ancienne Prof", active=False)
    assert api_client.get(LIST).json() == [
        {
            "id": Instructor.objects.get(name="Léa Garnier").pk,
            "name": "Léa Garnier",
            "bio": "Cerceau",
            "specialties": "Aérien",
        }
    ]


def test_staff_read_every_instructor_with_account_and_flag(api_client, staff, member, django_assert_max_num_queries):
    for n in range(5):
        InstructorFactory(name=f"Prof {n}", user=member if n == 0 else None, active=n != 4)
    api_client.force_authenticate(staff)
    with django_assert_max_num_queries(3):  # the session's user, the instructors with their accounts
        rows = api_client.get(LIST).json()
    assert [(r["name"], r["user_email"], r["active"]) for r in rows][:2] == [
        ("Prof 0", member.email, True),
        ("Prof 1", None, True),
    ]
    assert rows[4]["active"] is False


def test_staff_create_edit_unlink_and_delete_an_instructor(api_client, staff, member):
    api_client.force_authenticate(staff)
    created = api_client.post(LIST, {"name": "  Inès   Moreau ", "user_id": member.pk, "bio": "Danse"}, format="json")
    assert created.status_code == 201
    body = created.json()
    assert (body["name"], body["user_id"], body["active"], body["bio"]) == ("Inès Moreau", member.pk, True, "Danse")
    path = f"{LIST}/{body['id']}"
    edited = api_client.put(path, {"active": False, "user_id": None}, format="json")
    assert edited.status_code == 200 and (edited.json()["active"], edited.json()["user_id"]) == (False, None)
    assert api_client.delete(path).status_code == 204
    assert not Instructor.objects.exists()


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [
        ({}, "name", MSG_INSTRUCTOR_NAME_REQUIRED),
        ({"name": "   "}, "name", MSG_INSTRUCTOR_NAME_REQUIRED),
        ({"name": "x" * 151}, "name", MSG_INSTRUCTOR_NAME_TOO_LONG),
        ({"name": "Léa", "user_id": "quelqu'un"}, "user_id", MSG_INSTRUCTOR_USER_INVALID),
        ({"name": "Léa", "active": "peut-être"}, "active", MSG_INSTRUCTOR_ACTIVE_INVALID),
        # JSON's true or false only (schemathesis: {"active": 0} was taken for false).
        ({"name": "Léa", "active": 0}, "active", MSG_INSTRUCTOR_ACTIVE_INVALID),
        ({"name": "Léa", "active": "true"}, "active", MSG_INSTRUCTOR_ACTIVE_INVALID),
    ],
)
def test_bad_instructor_input_is_refused_in_french(api_client, staff, payload, field, message):
    api_client.force_authenticate(staff)
    response = api_client.post(LIST, payload, format="json")
    assert response.status_code == 400 and response.json()["errors"][field] == [message]
    assert not Instructor.objects.exists()


@pytest.mark.database  # the unique constraint on LOWER(name): SQLite lowers ASCII only, PostgreSQL every letter
def test_names_are_unique_whatever_their_case_and_spaces(api_client, staff):
    InstructorFactory(name="Léa Garnier")
    api_client.force_authenticate(staff)
    response = api_client.post(LIST, {"name": " LÉa  garnier"}, format="json")
    duplicate = api_client.post(LIST, {"name": "léa garnier"}, format="json")
    assert duplicate.status_code == 409 and duplicate.json()["errors"]["name"] == [MSG_INSTRUCTOR_NAME_EXISTS]
    assert response.status_code in (201, 409)  # accents fold on PostgreSQL, not in SQLite's LOWER
    other = InstructorFactory(name="Inès Moreau")
    renamed = api_client.put(f"{LIST}/{other.pk}", {"name": "LÉA GARNIER".lower()}, format="json")
    assert renamed.status_code == 409 and renamed.json()["error"] == MSG_INSTRUCTOR_NAME_EXISTS


def test_one_account_teaches_as_one_instructor(api_client, staff, member):
    InstructorFactory(name="Emma", user=member)
    api_client.force_authenticate(staff)
    response = api_client.post(LIST, {"name": "Emma bis", "user_id": member.pk}, format="json")
    assert response.status_code == 409 and response.json()["error"] == MSG_INSTRUCTOR_EXISTS


def test_an_instructor_who_taught_is_deactivated_not_deleted(api_client, staff):
    session = CourseSessionFactory(instructor="Léa Garnier")
    api_client.force_authenticate(staff)
    response = api_client.delete(f"{LIST}/{session.instructor_id}")
    assert response.status_code == 409 and response.json()["error"] == MSG_INSTRUCTOR_HAS_SESSIONS
    assert Instructor.objects.filter(pk=session.instructor_id).exists()
