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
