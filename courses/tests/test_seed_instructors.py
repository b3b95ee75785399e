"""The demo studio's instructors are people with accounts: each session of the demo names one of them,
and one of them signs in as the demo instructor (role `instructor`) to see their own classes."""

import pytest
from django.core.management import call_command

from accounts.models import Role, User
from courses.management.commands.seed_demo import DEFAULT_INSTRUCTOR_EMAIL, DEFAULT_INSTRUCTOR_PASSWORD
from courses.models import CourseSession, Instructor

pytestmark = pytest.mark.django_db


def test_the_demo_instructor_signs_in_and_teaches_demo_classes(client, capsys):
    call_command("seed_demo")
    call_command("seed_demo")  # idempotent
    assert Instructor.objects.count() == 3
    assert not CourseSession.objects.filter(instructor=None).exists()
    account = User.objects.get(email=DEFAULT_INSTRUCTOR_EMAIL)
    assert account.role == Role.INSTRUCTOR and account.check_password(DEFAULT_INSTRUCTOR_PASSWORD)
    assert CourseSession.objects.filter(instructor__user=account).exists()
    assert f"Professeur : {DEFAULT_INSTRUCTOR_EMAIL} / {DEFAULT_INSTRUCTOR_PASSWORD}" in capsys.readouterr().out
    client.force_login(account)
    assert client.get("/instructor/classes").status_code == 200
