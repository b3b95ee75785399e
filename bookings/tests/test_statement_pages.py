"""The statement page (docs/decisions.md 52): an instructor reads their own month, staff anyone's; the classes page
carries the substitutes island and the link to the statement."""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.utils.html import escape

from accounts.models import Role
from accounts.tests.factories import UserFactory
from bookings.models_operations import Attendance, AttendanceStatus
from bookings.selectors.instructor import MSG_NOT_AN_INSTRUCTOR
from bookings.tests.factories import ReservationFactory
from courses.models_pay import InstructorPayRule, PayRuleKind
from courses.tests.factories import CourseFactory, CourseSessionFactory, InstructorFactory

pytestmark = pytest.mark.django_db
PARIS = ZoneInfo("Europe/Paris")


@pytest.fixture
def lea():
    lea = InstructorFactory(name="Léa Garnier", user=UserFactory(role=Role.INSTRUCTOR))
    InstructorPayRule.objects.create(
        instructor=lea, starts_on=date(2026, 1, 1), kind=PayRuleKind.PER_ATTENDEE, attendee_amount=Decimal("617.25")
    )
    session = CourseSessionFactory(
        instructor=lea, course=CourseFactory(title="Pole Flow"), start=datetime(2026, 10, 6, 19, 0, tzinfo=PARIS)
    )
    for _ in range(2):
        Attendance.objects.create(reservation=ReservationFactory(session=session), status=AttendanceStatus.PRESENT)
    return lea


def test_the_instructor_reads_their_month_with_its_downloads(client, lea):
    client.force_login(lea.user)
    page = client.get("/instructor/statement?month=2026-10")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Relevé de octobre 2026" in html and "Léa Garnier" in html
    assert "06/10/2026 19:00" in html and "Pole Flow" in html
    assert "Par participant : 617,25 €" in html and "1 234,50 €" in html
    assert f"/api/instructors/{lea.pk}/statements?month=2026-10&amp;format=csv" in html
    assert f"/api/instructors/{lea.pk}/statements?month=2026-10&amp;format=pdf" in html
    assert "?month=2026-09" in html and "?month=2026-11" in html
    assert "Aucun cours donné ce mois-ci." in client.get("/instructor/statement?month=2026-08").content.decode()


def test_another_instructors_statement_is_a_404_and_a_member_is_refused(client, lea, member):
    other = InstructorFactory(user=UserFactory(role=Role.INSTRUCTOR))
    client.force_login(other.user)
    assert client.get(f"/instructor/statement/{lea.pk}?month=2026-10").status_code == 404
    client.force_login(member)
    refused = client.get("/instructor/statement")
    assert refused.status_code == 403 and escape(MSG_NOT_AN_INSTRUCTOR) in refused.content.decode()


def test_staff_read_any_instructors_statement(client, lea, staff):
    client.force_login(staff)
    page = client.get(f"/instructor/statement/{lea.pk}?month=2026-10")
    assert page.status_code == 200 and "1 234,50 €" in page.content.decode()
    assert client.get("/instructor/statement/999999").status_code == 404


def test_the_classes_page_carries_the_substitutes_island_and_the_statement_link(client, lea):
    client.force_login(lea.user)
    html = client.get("/instructor/classes").content.decode()
    assert 'data-island="instructor-substitutes"' in html
    assert 'href="/instructor/statement"' in html
