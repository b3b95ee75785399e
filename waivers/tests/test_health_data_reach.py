"""Health answers are read by the member and the admins only (docs/decisions.md 48): a supervisor exporting a member's
data gets everything but them; the staff's CSV exports carry no answer, nor the attendance sheet's e-mails."""

from datetime import date, timedelta

import pytest
from django.utils import timezone

from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseSessionFactory
from payments.exports import EXPORTS, export_file
from waivers.seed import QUESTIONS
from waivers.seed import run as publish_demo_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def declared(api_client, member):
    publish_demo_set()
    api_client.force_authenticate(member)
    body = {"questionnaire_version": 1, "waiver_version": 1, "house_rules_version": 1}
    answer = api_client.post(
        "/api/health/declaration", {**body, "answers": [True] * 4, "accepted": True}, format="json"
    )
    assert answer.status_code == 201
    return member


def test_a_supervisors_export_of_a_member_has_no_health_answers_an_admins_has(api_client, declared, supervisor, staff):
    url = f"/api/users/{declared.pk}/export"
    api_client.force_authenticate(supervisor)
    response = api_client.get(url)
    assert response.status_code == 200
    assert response.json()["health_declaration"] is None
    assert QUESTIONS[0]["text"][:25] not in response.content.decode()
    api_client.force_authenticate(staff)
    answers = api_client.get(url).json()["health_declaration"]["answers"]
    assert [a["answer"] for a in answers] == ["oui"] * 4
    api_client.force_authenticate(declared)
    assert api_client.get("/api/users/me/export").json()["health_declaration"]["answers"][0]["answer"] == "oui"


def test_the_staff_exports_carry_no_answer(declared):
    session = CourseSessionFactory(start=timezone.now() + timedelta(days=1))
    ReservationFactory(session=session, user=declared)
    today = timezone.localdate()
    for kind in EXPORTS:
        _, content = export_file(kind, start=date(today.year - 1, 1, 1), end=today + timedelta(days=30))
        text = content.decode("utf-8-sig")
        for question in QUESTIONS:
            assert question["text"][:25] not in text and question["advice"][:25] not in text, kind
        assert "signaler" not in text.lower(), kind


@pytest.mark.database  # the scan runs on PostgreSQL too
def test_deleting_the_account_leaves_no_health_answer_in_any_column(
    api_client, member, staff, django_capture_on_commit_callbacks
):
    """The answers, written as the database keeps them, are searched in every text and JSON column of every table:
    found where they belong while the account lives (the scan works), nowhere once it is deleted — after an admin
    read them and the member downloaded them."""
    import json

    from accounts.tests.factories import DEFAULT_PASSWORD
    from privacy.tests.test_personal_data import where_is
    from waivers.models import HealthDeclaration

    publish_demo_set()
    answers = [False, True, True, False]  # a pattern no other row holds
    api_client.force_authenticate(member)
    body = {"questionnaire_version": 1, "waiver_version": 1, "house_rules_version": 1}
    declared = api_client.post("/api/health/declaration", {**body, "answers": answers, "accepted": True}, format="json")
    assert declared.status_code == 201
    needle = json.dumps(answers)
    assert where_is(needle) == ["waivers_healthdeclaration.answers"]

    api_client.force_authenticate(staff)
    assert api_client.get(f"/api/users/{member.pk}/health-declaration").status_code == 200
    api_client.force_authenticate(member)
    assert api_client.get("/api/users/me/export").json()["health_declaration"]["answers"]
    with django_capture_on_commit_callbacks(execute=True):
        assert api_client.delete("/api/users/me", {"password": DEFAULT_PASSWORD}, format="json").status_code == 200

    assert where_is(needle) == []
    assert not HealthDeclaration.objects.exists()
