"""Substitutes (docs/decisions.md 52): an instructor asks on a coming class, another accepts it from their page, the
class changes instructor, members booked and staff are e-mailed after the commit; staff hear of a request still open
48 h before its class, once."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from freezegun import freeze_time

from accounts.models import Role
from accounts.tests.factories import UserFactory
from bookings.apis.substitutes import MSG_SUBSTITUTE_MESSAGE
from bookings.models import ReservationStatus
from bookings.models_operations import Attendance, AttendanceStatus
from bookings.models_team import SubstituteRequest, SubstituteStatus
from bookings.selectors.instructor import MSG_NOT_AN_INSTRUCTOR
from bookings.selectors.statements import instructor_statement
from bookings.services.substitutes import (
    MSG_SUBSTITUTE_ACCEPTED,
    MSG_SUBSTITUTE_ALREADY_ASKED,
    MSG_SUBSTITUTE_ASKED,
    MSG_SUBSTITUTE_CLOSED,
    MSG_SUBSTITUTE_NOT_FOUND,
    MSG_SUBSTITUTE_OWN,
    MSG_SUBSTITUTE_SESSION_CANCELLED,
    MSG_SUBSTITUTE_SESSION_NOT_FOUND,
    MSG_SUBSTITUTE_SESSION_STARTED,
    MSG_SUBSTITUTE_TAKEN,
    MSG_SUBSTITUTE_WITHDRAWN,
    SUBJECT_SUBSTITUTE_ALERT,
    substitute_accepted_send,
    substitute_alerts_send,
)
from bookings.tasks import substitute_alerts
from bookings.tests.factories import ReservationFactory
from courses.models import CourseSession, SessionStatus
from courses.models_pay import InstructorPayRule, PayRuleKind
from courses.tests.factories import CourseFactory, CourseSessionFactory, InstructorFactory
from studio.models import OutgoingEmail

pytestmark = pytest.mark.django_db


def _teacher(name):
    return InstructorFactory(name=name, user=UserFactory(role=Role.INSTRUCTOR))


@pytest.fixture
def lea():
    return _teacher("Léa Garnier")


@pytest.fixture
def ines():
    return _teacher("Inès Moreau")


@pytest.fixture
def coming(lea):
    return CourseSessionFactory(
        instructor=lea, course=CourseFactory(title="Pole Flow"), start=timezone.now() + timedelta(days=5)
    )


def _ask(api_client, instructor, session, message="Je suis malade."):
    api_client.force_authenticate(instructor.user)
    return api_client.post(
        f"/api/course-sessions/{session.pk}/substitute-requests", {"message": message}, format="json"
    )


def _accept(api_client, instructor, request_id):
    api_client.force_authenticate(instructor.user)
    return api_client.post(f"/api/substitute-requests/{request_id}/accept")


def test_an_accepted_request_changes_the_instructor_and_mails_the_booked_members_and_staff(
    api_client, lea, ines, coming, django_capture_on_commit_callbacks
):
    emma = ReservationFactory(session=coming, user=UserFactory(first_name="Emma", email="emma@example.fr"))
    ReservationFactory(session=coming, user=UserFactory(email="parti@example.fr"), status=ReservationStatus.CANCELLED)
    asked = _ask(api_client, lea, coming)
    assert asked.status_code == 201, asked.json()
    assert asked.json()["confirmation"] == MSG_SUBSTITUTE_ASKED
    request_id = asked.json()["id"]

    # Inès sees it on her page's list, and may accept it; Léa may only withdraw it.
    api_client.force_authenticate(ines.user)
    listed = api_client.get("/api/substitute-requests").json()
    assert [(r["id"], r["requested_by"], r["message"], r["can_accept"]) for r in listed] == [
        (request_id, "Léa Garnier", "Je suis malade.", True)
    ]
    api_client.force_authenticate(lea.user)
    assert [(r["can_accept"], r["can_withdraw"]) for r in api_client.get("/api/substitute-requests").json()] == [
        (False, True)
    ]

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        accepted = _accept(api_client, ines, request_id)
    assert accepted.status_code == 200
    assert accepted.json()["confirmation"] == MSG_SUBSTITUTE_ACCEPTED
    assert accepted.json()["accepted_by"] == "Inès Moreau"
    assert CourseSession.objects.get(pk=coming.pk).instructor == ines
    assert not OutgoingEmail.objects.exists()  # nothing is mailed inside the request
    for callback in callbacks:
        callback()

    member_mail = OutgoingEmail.objects.get(to=[emma.email])
    assert "Inès Moreau" in member_mail.body_text and "Léa Garnier" in member_mail.body_text
    day = f"{timezone.localtime(coming.start):%d/%m/%Y}"
    assert member_mail.subject == f"{settings.STUDIO['name']} – Changement de professeur pour votre cours du {day}"
    assert not OutgoingEmail.objects.filter(to=["parti@example.fr"]).exists()
    staff_mail = OutgoingEmail.objects.get(to=[settings.STAFF_NOTIFICATION_EMAIL])
    assert staff_mail.subject.endswith(
        "Remplacement accepté : Pole Flow du " + f"{timezone.localtime(coming.start):%d/%m/%Y}"
    )
    # A second run of the task (a retry, a second worker) sends nothing again.
    assert substitute_accepted_send.call(request_id=request_id) == 0
    assert OutgoingEmail.objects.count() == 2


def test_a_taken_request_is_refused_to_the_next_instructor_in_french(api_client, lea, ines, coming):
    request_id = _ask(api_client, lea, coming).json()["id"]
    assert _accept(api_client, ines, request_id).status_code == 200
    late = _accept(api_client, _teacher("Zoé Martin"), request_id)
    assert late.status_code == 409
    assert late.json()["message"] == MSG_SUBSTITUTE_TAKEN
    assert CourseSession.objects.get(pk=coming.pk).instructor == ines


def test_the_requester_withdraws_and_nobody_may_accept_afterwards(api_client, lea, ines, coming):
    request_id = _ask(api_client, lea, coming).json()["id"]
    api_client.force_authenticate(ines.user)
    not_hers = api_client.post(f"/api/substitute-requests/{request_id}/withdraw")
    assert not_hers.status_code == 404 and not_hers.json()["message"] == MSG_SUBSTITUTE_NOT_FOUND
    api_client.force_authenticate(lea.user)
    withdrawn = api_client.post(f"/api/substitute-requests/{request_id}/withdraw")
    assert withdrawn.status_code == 200 and withdrawn.json()["confirmation"] == MSG_SUBSTITUTE_WITHDRAWN
    again = api_client.post(f"/api/substitute-requests/{request_id}/withdraw")
    assert again.status_code == 409 and again.json()["message"] == MSG_SUBSTITUTE_CLOSED
    refused = _accept(api_client, ines, request_id)
    assert refused.status_code == 409 and refused.json()["message"] == MSG_SUBSTITUTE_CLOSED
    assert CourseSession.objects.get(pk=coming.pk).instructor == lea
    api_client.force_authenticate(ines.user)
    assert api_client.get("/api/substitute-requests").json() == []
    # Once withdrawn, Léa may ask again.
    assert _ask(api_client, lea, coming).status_code == 201


def test_asking_is_refused_in_french_where_it_makes_no_sense(api_client, lea, ines, coming):
    assert _ask(api_client, lea, coming).status_code == 201
    twice = _ask(api_client, lea, coming)
    assert twice.status_code == 409 and twice.json()["message"] == MSG_SUBSTITUTE_ALREADY_ASKED

    not_hers = _ask(api_client, ines, coming)
    assert not_hers.status_code == 404 and not_hers.json()["message"] == MSG_SUBSTITUTE_SESSION_NOT_FOUND
    unknown = _ask(api_client, lea, CourseSession(pk=999999))
    assert unknown.status_code == 404

    started = CourseSessionFactory(instructor=lea, start=timezone.now() - timedelta(minutes=5))
    answer = _ask(api_client, lea, started)
    assert answer.status_code == 409 and answer.json()["message"] == MSG_SUBSTITUTE_SESSION_STARTED

    cancelled = CourseSessionFactory(instructor=lea, status=SessionStatus.CANCELLED)
    answer = _ask(api_client, lea, cancelled)
    assert answer.status_code == 409 and answer.json()["message"] == MSG_SUBSTITUTE_SESSION_CANCELLED

    too_long = _ask(api_client, lea, CourseSessionFactory(instructor=lea), message="x" * 1001)
    assert too_long.status_code == 400 and too_long.json()["message"] == MSG_SUBSTITUTE_MESSAGE


def test_accepting_is_refused_for_ones_own_request_a_started_or_cancelled_class(api_client, lea, ines, coming):
    request_id = _ask(api_client, lea, coming).json()["id"]
    own = _accept(api_client, lea, request_id)
    assert own.status_code == 409 and own.json()["message"] == MSG_SUBSTITUTE_OWN
    CourseSession.objects.filter(pk=coming.pk).update(status=SessionStatus.CANCELLED)
    cancelled = _accept(api_client, ines, request_id)
    assert cancelled.status_code == 409 and cancelled.json()["message"] == MSG_SUBSTITUTE_SESSION_CANCELLED
    CourseSession.objects.filter(pk=coming.pk).update(status=SessionStatus.SCHEDULED)
    with freeze_time(coming.start + timedelta(minutes=1)):
        started = _accept(api_client, ines, request_id)
    assert started.status_code == 409 and started.json()["message"] == MSG_SUBSTITUTE_SESSION_STARTED
    # Staff gave the class to someone else meanwhile: the request no longer stands.
    CourseSession.objects.filter(pk=coming.pk).update(instructor=_teacher("Zoé Martin"))
    moved = _accept(api_client, ines, request_id)
    assert moved.status_code == 409 and moved.json()["message"] == MSG_SUBSTITUTE_CLOSED
    unknown = _accept(api_client, ines, 999999)
    assert unknown.status_code == 404 and unknown.json()["message"] == MSG_SUBSTITUTE_NOT_FOUND


def test_members_and_inactive_instructors_cannot_ask_or_accept(api_client, lea, coming, member):
    request_id = _ask(api_client, lea, coming).json()["id"]
    api_client.force_authenticate(member)
    assert api_client.post(f"/api/substitute-requests/{request_id}/accept").status_code == 403
    assert api_client.get("/api/substitute-requests").status_code == 403
    retired = InstructorFactory(user=UserFactory(role=Role.INSTRUCTOR), active=False)
    answer = _accept(api_client, retired, request_id)
    assert answer.status_code == 403 and answer.json()["message"] == MSG_NOT_AN_INSTRUCTOR
    assert SubstituteRequest.objects.get(pk=request_id).status == SubstituteStatus.OPEN


def test_a_class_given_by_a_substitute_is_paid_to_the_substitute(api_client, lea, ines, coming):
    for teacher in (lea, ines):
        InstructorPayRule.objects.create(
            instructor=teacher, starts_on=coming.start.date() - timedelta(days=40), kind=PayRuleKind.PER_CLASS,
            class_amount="30.00",
        )  # fmt: skip
    Attendance.objects.create(reservation=ReservationFactory(session=coming), status=AttendanceStatus.PRESENT)
    request_id = _ask(api_client, lea, coming).json()["id"]
    _accept(api_client, ines, request_id)
    month = timezone.localtime(coming.start).date().replace(day=1)
    assert instructor_statement(instructor=lea, month=month).lines == []
    paid = instructor_statement(instructor=ines, month=month)
    assert [(line.session_id, line.attendees, str(line.amount)) for line in paid.lines] == [(coming.pk, 1, "30.00")]


def test_staff_are_alerted_once_when_nobody_accepted_48_hours_before(api_client, lea, coming):
    far = CourseSessionFactory(instructor=lea, start=timezone.now() + timedelta(days=10))
    request_id = _ask(api_client, lea, coming).json()["id"]
    _ask(api_client, lea, far)
    alert_subject = SUBJECT_SUBSTITUTE_ALERT.format(
        title="Pole Flow", date=f"{timezone.localtime(coming.start):%d/%m/%Y}"
    )
    with freeze_time(coming.start - timedelta(hours=49)):
        assert substitute_alerts.call() == 0
    with freeze_time(coming.start - timedelta(hours=47)):
        assert substitute_alerts.call() == 1
        assert substitute_alerts_send() == 0  # once per request
    mails = OutgoingEmail.objects.filter(
        to=[settings.STAFF_NOTIFICATION_EMAIL], subject=f"{settings.STUDIO['name']} – {alert_subject}"
    )
    assert mails.count() == 1
    assert "Je suis malade." in mails.get().body_text
    assert SubstituteRequest.objects.get(pk=request_id).staff_alerted_at is not None


def test_an_accepted_or_withdrawn_request_raises_no_alert(api_client, lea, ines, coming):
    request_id = _ask(api_client, lea, coming).json()["id"]
    _accept(api_client, ines, request_id)
    with freeze_time(coming.start - timedelta(hours=10)):
        assert substitute_alerts_send() == 0


def test_the_list_reads_in_a_fixed_number_of_queries(api_client, lea, ines, django_assert_max_num_queries):
    for day in range(1, 8):
        session = CourseSessionFactory(instructor=lea, start=timezone.now() + timedelta(days=day))
        _ask(api_client, lea, session)
    api_client.force_authenticate(ines.user)
    with django_assert_max_num_queries(6):  # session, user, instructor record, the requests with their joins
        listed = api_client.get("/api/substitute-requests").json()
    assert len(listed) == 7 and all(r["can_accept"] for r in listed)
