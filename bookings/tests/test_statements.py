"""An instructor's monthly statement (docs/decisions.md 52): computed here again from the attendance rows and the
rules, and compared with the API's JSON, its CSV and its PDF text."""

import csv
import io
from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from accounts.models import Role
from accounts.tests.factories import UserFactory
from bookings.apis.statements import MSG_STATEMENT_FORMAT, MSG_STATEMENT_INSTRUCTOR_NOT_FOUND, MSG_STATEMENT_MONTH
from bookings.models import Reservation, ReservationStatus
from bookings.models_operations import Attendance, AttendanceStatus
from bookings.selectors.instructor import MSG_NOT_AN_INSTRUCTOR
from bookings.selectors.statements import NO_RULE, instructor_statement
from bookings.statement_files import TOTAL
from bookings.tests.factories import ReservationFactory
from courses.models import SessionStatus
from courses.models_pay import InstructorPayRule, PayRuleKind
from courses.tests.factories import CourseFactory, CourseSessionFactory, InstructorFactory
from invoices.tests.helpers import pdf_text

pytestmark = pytest.mark.django_db

PARIS = ZoneInfo("Europe/Paris")
NAME = "Łukasz Nguyễn-Ōtsuka"


def _paris(*args) -> datetime:
    return datetime(*args, tzinfo=PARIS)


def _class(instructor, start, title, marks, **kwargs):
    """A class with one booking per (participants, mark) in `marks`; mark None leaves the booking unmarked."""
    session = CourseSessionFactory(
        instructor=instructor,
        start=start,
        end=start + timedelta(minutes=75),
        course=CourseFactory(title=title),
        **kwargs,
    )
    for participants, mark in marks:
        reservation = ReservationFactory(session=session, participants=participants)
        if mark is not None:
            Attendance.objects.create(reservation=reservation, status=mark)
    return session


@pytest.fixture
def october(db):
    """Léa's October under three rules, with what must not count: a cancelled class, a class on the evening of
    30 September (Paris), one on 1 November, another instructor's class, absent and unmarked bookings."""
    lea = InstructorFactory(name=NAME, user=UserFactory(role=Role.INSTRUCTOR))
    InstructorPayRule.objects.create(
        instructor=lea, starts_on=date(2026, 9, 1), kind=PayRuleKind.PER_CLASS, class_amount=Decimal("40.00")
    )
    InstructorPayRule.objects.create(
        instructor=lea, starts_on=date(2026, 10, 10), kind=PayRuleKind.PER_ATTENDEE, attendee_amount=Decimal("6.50")
    )
    InstructorPayRule.objects.create(
        instructor=lea,
        starts_on=date(2026, 10, 20),
        kind=PayRuleKind.BASE_PLUS_ATTENDEE,
        class_amount=Decimal("15.00"),
        attendee_amount=Decimal("2.25"),
    )
    present, absent = AttendanceStatus.PRESENT, AttendanceStatus.ABSENT
    _class(lea, _paris(2026, 10, 5, 19, 0), "Pole Flow", [(1, present), (2, present), (1, absent), (1, None)])
    _class(lea, _paris(2026, 10, 10, 0, 30), "Pole Débutant", [(1, present), (1, present), (3, present), (1, absent)])
    _class(lea, _paris(2026, 10, 22, 18, 0), "Souplesse", [(2, present), (1, None)])
    _class(lea, _paris(2026, 10, 31, 23, 15), "Exotic", [])
    _class(lea, _paris(2026, 10, 25, 18, 0), "Annulé", [(1, present)], status=SessionStatus.CANCELLED)
    _class(lea, _paris(2026, 9, 30, 23, 30), "Septembre", [(1, present)])
    _class(lea, _paris(2026, 11, 1, 0, 0), "Novembre", [(1, present)])
    _class(InstructorFactory(), _paris(2026, 10, 15, 18, 0), "Pas à elle", [(1, present)])
    # A booking marked present and cancelled afterwards is not an attendee.
    late = ReservationFactory(session=lea.sessions.get(course__title="Souplesse"), status=ReservationStatus.CANCELLED)
    Attendance.objects.create(reservation=late, status=present)
    return lea


def expected_statement(instructor, month_start: date) -> tuple[list[tuple], Decimal]:
    """Worked out from the rows alone: the month's classes not cancelled, present confirmed participants, the latest
    rule started on or before the class's Paris day."""
    rules = sorted(InstructorPayRule.objects.filter(instructor=instructor), key=lambda r: r.starts_on)
    rows = []
    for session in sorted(instructor.sessions.select_related("course"), key=lambda s: s.start):
        local = timezone.localtime(session.start, PARIS)
        if (local.year, local.month) != (month_start.year, month_start.month):
            continue
        if session.status == SessionStatus.CANCELLED:
            continue
        attendees = sum(
            a.reservation.participants
            for a in Attendance.objects.select_related("reservation").filter(reservation__session=session)
            if a.status == AttendanceStatus.PRESENT and a.reservation.status == ReservationStatus.CONFIRMED
        )
        applying = [r for r in rules if r.starts_on <= local.date()]
        rule = applying[-1] if applying else None
        if rule is None:
            amount = Decimal("0.00")
        elif rule.kind == PayRuleKind.PER_CLASS:
            amount = rule.class_amount
        elif rule.kind == PayRuleKind.PER_ATTENDEE:
            amount = rule.attendee_amount * attendees
        else:
            amount = rule.class_amount + rule.attendee_amount * attendees
        rows.append((local, session.course.title, attendees, rule.kind if rule else None, amount, rule))
    return rows, sum((r[4] for r in rows), Decimal("0.00"))


def _comma(amount: Decimal) -> str:
    return f"{amount:.2f}".replace(".", ",")


def _rule(rule) -> str:
    if rule.kind == PayRuleKind.PER_CLASS:
        return f"Par cours : {_comma(rule.class_amount)} €"
    if rule.kind == PayRuleKind.PER_ATTENDEE:
        return f"Par participant : {_comma(rule.attendee_amount)} €"
    return f"Forfait + par participant : {_comma(rule.class_amount)} € + {_comma(rule.attendee_amount)} €"


def test_the_statement_matches_the_attendance_rows_under_each_kind_of_rule(api_client, october):
    rows, total = expected_statement(october, date(2026, 10, 1))
    # Each kind of rule is exercised, and what must not count does not.
    assert [r[3] for r in rows] == [
        PayRuleKind.PER_CLASS,
        PayRuleKind.PER_ATTENDEE,
        PayRuleKind.BASE_PLUS_ATTENDEE,
        PayRuleKind.BASE_PLUS_ATTENDEE,
    ]
    assert [r[1] for r in rows] == ["Pole Flow", "Pole Débutant", "Souplesse", "Exotic"]

    api_client.force_authenticate(october.user)
    answer = api_client.get(f"/api/instructors/{october.pk}/statements?month=2026-10")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["month_label"] == "octobre 2026"
    assert [(line["course_title"], line["attendees"], line["rule_kind"], line["amount"]) for line in body["lines"]] == [
        (title, attendees, kind, f"{amount:.2f}") for _, title, attendees, kind, amount, _ in rows
    ]
    assert body["total"] == f"{total:.2f}"

    # The CSV: BOM, `;`, DD/MM/YYYY, decimal comma, the same lines and total.
    content = api_client.get(body["csv_url"])
    assert content.status_code == 200
    assert content["Content-Type"] == "text/csv; charset=utf-8"
    raw = content.content
    assert raw.startswith("\ufeff".encode())
    table = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert table[0] == ["Date", "Heure", "Cours", "Participants présents", "Règle appliquée", "Montant"]
    assert [(r[0], r[1], r[2], r[3], r[5]) for r in table[1:-1]] == [
        (f"{local:%d/%m/%Y}", f"{local:%H:%M}", title, str(attendees), _comma(amount))
        for local, title, attendees, _, amount, _ in rows
    ]
    assert table[-1][2] == TOTAL and table[-1][5] == _comma(total)

    # The PDF: the instructor's name as written, then the table read back line by line: each class's date, time,
    # course, attendees, rule and amount, then the total.
    document = api_client.get(body["pdf_url"])
    assert document.status_code == 200 and document["Content-Type"] == "application/pdf"
    text = pdf_text(document.content).splitlines()
    assert text[:3] == ["Studio Pole Danse Lyon", "Relevé de octobre 2026", f"Professeur : {NAME}"]
    table_start = text.index("Montant") + 1
    expected = []
    for local, title, attendees, _, amount, rule in rows:
        expected += [f"{local:%d/%m/%Y}", f"{local:%H:%M}", title, str(attendees), _rule(rule), f"{_comma(amount)} €"]
    assert text[table_start:] == [*expected, TOTAL, f"{_comma(total)} €"]


def test_a_class_before_any_rule_pays_nothing_and_says_so(october):
    early = InstructorFactory(name="Inès Moreau")
    _class(early, _paris(2026, 10, 2, 18, 0), "Pole Flow", [(1, AttendanceStatus.PRESENT)])
    statement = instructor_statement(instructor=early, month=date(2026, 10, 1))
    assert [(line.rule_text, line.amount) for line in statement.lines] == [(NO_RULE, Decimal("0.00"))]
    assert statement.total == Decimal("0.00")


def test_the_statement_reads_in_a_fixed_number_of_queries(october, django_assert_max_num_queries):
    for day in range(1, 20):
        _class(october, _paris(2026, 10, day, 12, 0), f"Cours {day}", [(1, AttendanceStatus.PRESENT)])
    with django_assert_max_num_queries(2):
        statement = instructor_statement(instructor=october, month=date(2026, 10, 1))
    assert len(statement.lines) == 23


def test_staff_read_anyone_an_instructor_only_their_own_a_member_nobody(api_client, october, staff, member):
    url = f"/api/instructors/{october.pk}/statements?month=2026-10"
    api_client.force_authenticate(staff)
    assert api_client.get(url).status_code == 200
    other = InstructorFactory(user=UserFactory(role=Role.INSTRUCTOR))
    api_client.force_authenticate(other.user)
    for suffix in ("", "&format=csv", "&format=pdf"):
        refused = api_client.get(url + suffix)
        assert refused.status_code == 404
        assert refused.json()["message"] == MSG_STATEMENT_INSTRUCTOR_NOT_FOUND
    api_client.force_authenticate(member)
    assert api_client.get(url).status_code == 403
    # An instructor account linked to no active record is told why.
    api_client.force_authenticate(UserFactory(role=Role.INSTRUCTOR))
    unlinked = api_client.get(url)
    assert unlinked.status_code == 403 and unlinked.json()["message"] == MSG_NOT_AN_INSTRUCTOR


@pytest.mark.parametrize("month", ["2026-13", "10-2026", "2026-1", "abc", ""])
def test_a_badly_written_month_is_answered_in_french(api_client, staff, october, month):
    api_client.force_authenticate(staff)
    answer = api_client.get(f"/api/instructors/{october.pk}/statements?month={month}")
    assert answer.status_code == 400
    assert answer.json()["message"] == MSG_STATEMENT_MONTH


def test_a_cell_a_spreadsheet_would_read_as_a_formula_is_neutralised(api_client, staff):
    lea = InstructorFactory(name="=HYPERLINK(1)")
    _class(lea, _paris(2026, 10, 2, 18, 0), "=1+1", [(1, AttendanceStatus.PRESENT)])
    api_client.force_authenticate(staff)
    raw = api_client.get(f"/api/instructors/{lea.pk}/statements?month=2026-10&format=csv").content.decode("utf-8-sig")
    assert ";'=1+1;" in raw
    assert Reservation.objects.count() == 1


def test_without_a_month_the_current_paris_month_is_read_and_an_unknown_format_is_refused(api_client, october):
    api_client.force_authenticate(october.user)
    answer = api_client.get(f"/api/instructors/{october.pk}/statements")
    assert answer.status_code == 200
    assert answer.json()["month"] == f"{timezone.localdate():%Y-%m}"
    refused = api_client.get(f"/api/instructors/{october.pk}/statements?month=2026-10&format=xml")
    assert refused.status_code == 404
    assert refused.json()["message"] == MSG_STATEMENT_FORMAT
