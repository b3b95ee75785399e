"""The attendance sheet learns only "À signaler" with its date for a member who answered "yes", and whether a member
still has to complete the declaration at the door (docs/decisions.md 48); never the answers."""

from datetime import timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from accounts.models import Role
from accounts.tests.factories import UserFactory
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory, InstructorFactory
from waivers.seed import QUESTIONS
from waivers.seed import run as publish_demo_set

pytestmark = pytest.mark.django_db


def _declare(api_client, member, answers):
    api_client.force_authenticate(member)
    body = {"questionnaire_version": 1, "waiver_version": 1, "house_rules_version": 1}
    assert api_client.post("/api/health/declaration", {**body, "answers": answers, "accepted": True}, format="json")


def test_the_sheet_shows_a_flag_with_its_date_and_what_is_missing_nothing_more(api_client, staff):
    publish_demo_set()
    account = UserFactory(role=Role.INSTRUCTOR)
    session = CourseSessionFactory(
        course=CourseFactory(title="Pole"),
        instructor=InstructorFactory(user=account),
        start=timezone.now() + timedelta(minutes=30),
    )
    careful, fine, undeclared = UserFactory(), UserFactory(), UserFactory()
    with freeze_time("2026-11-02 09:00:00"):
        _declare(api_client, careful, [False, False, True, False])
    _declare(api_client, fine, [False] * 4)
    for member in (careful, fine, undeclared):
        ReservationFactory(session=session, user=member)

    for reader in (account, staff):
        api_client.force_authenticate(reader)
        response = api_client.get(f"/api/course-sessions/{session.pk}/attendance")
        assert response.status_code == 200
        lines = {line["user_id"]: line for line in response.json()["results"]}
        assert lines[careful.pk]["health_flag_since"].startswith("2026-11-02")
        assert lines[fine.pk]["health_flag_since"] is None
        assert [lines[m.pk]["health_missing"] for m in (careful, fine, undeclared)] == [False, False, True]
        text = response.content.decode()
        for question in QUESTIONS:  # neither a question nor its advice
            assert question["text"][:20] not in text and question["advice"][:20] not in text
        assert "oui" not in text.lower().split('"')  # no answer value
