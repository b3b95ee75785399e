"""Attendance at the studio door (docs/decisions.md 38): present/absent per booked member, no-shows counted on
the member's record, walk-ins added with a pass credit or as paid at the desk."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import PassAdjustment, PassAdjustmentAction, ReservationStatus
from bookings.models_operations import Attendance, AttendanceStatus
from bookings.services.attendance import (
    MSG_ATTENDANCE_NOT_OPEN,
    MSG_ATTENDANCE_SAVED,
    MSG_WALK_IN_ALREADY_BOOKED,
    MSG_WALK_IN_MEMBER_NOT_FOUND,
    MSG_WALK_IN_NO_SEATS,
)
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseSessionFactory

SHEET = "/api/course-sessions/{}/attendance"
WALK_IN = "/api/course-sessions/{}/walk-ins"


@pytest.fixture
def class_now(db):
    start = timezone.now() - timedelta(minutes=5)
    return CourseSessionFactory(start=start, end=start + timedelta(minutes=75), max_attendees=3)


def test_staff_mark_present_and_absent_and_no_shows_are_counted(api_client, staff, class_now):
    emma = ReservationFactory(session=class_now, participants=2, user__last_name="Petit")
    zoe = ReservationFactory(session=class_now, user__last_name="Martin")
    earlier = CourseSessionFactory(
        start=class_now.start - timedelta(days=7), end=class_now.start - timedelta(days=7, minutes=-60)
    )
    Attendance.objects.create(reservation=ReservationFactory(session=earlier, user=zoe.user), status="absent")
    api_client.force_authenticate(staff)

    first = api_client.post(SHEET.format(class_now.pk), {"reservation_id": emma.pk, "present": True}, format="json")
    assert first.status_code == 200 and first.json()["message"] == MSG_ATTENDANCE_SAVED
    second = api_client.post(SHEET.format(class_now.pk), {"reservation_id": zoe.pk, "present": False}, format="json")
    body = second.json()
    assert body["counts"] == {"booked": 3, "present": 1, "absent": 1, "unmarked": 0}
    rows = {r["reservation_id"]: r for r in body["results"]}
    assert rows[emma.pk]["attendance"] == "present" and rows[emma.pk]["participants"] == 2
    assert rows[zoe.pk]["attendance"] == "absent" and rows[zoe.pk]["no_shows"] == 2
    assert rows[emma.pk]["payment"] == "Carte bancaire"
    assert Attendance.objects.get(reservation=zoe).marked_by == staff


def test_the_sheet_costs_a_fixed_number_of_queries(api_client, staff, class_now, django_assert_max_num_queries):
    for _ in range(3):
        Attendance.objects.create(reservation=ReservationFactory(session=class_now), status="present")
    api_client.force_authenticate(staff)
    with django_assert_max_num_queries(6):
        response = api_client.get(SHEET.format(class_now.pk))
    assert len(response.json()["results"]) == 3


def test_attendance_opens_two_hours_before_the_class(api_client, staff):
    session = CourseSessionFactory(start=timezone.now() + timedelta(hours=3))
    reservation = ReservationFactory(session=session)
    api_client.force_authenticate(staff)
    response = api_client.post(
        SHEET.format(session.pk), {"reservation_id": reservation.pk, "present": True}, format="json"
    )
    assert response.status_code == 409 and response.json()["error"] == MSG_ATTENDANCE_NOT_OPEN


def test_a_walk_in_with_a_class_card_spends_a_credit(api_client, staff, class_now, member):
    card = PassFactory(member=member, credits_total=10)
    api_client.force_authenticate(staff)
    response = api_client.post(
        WALK_IN.format(class_now.pk), {"email": member.email.upper(), "paid_with": "pass"}, format="json"
    )
    assert response.status_code == 201, response.json()
    name = f"{member.first_name} {member.last_name}"
    assert response.json()["message"] == f"{name} est ajouté(e) au cours et pointé(e) présent(e)."
    line = next(r for r in response.json()["results"] if r["user_id"] == member.pk)
    assert line["attendance"] == "present" and line["walk_in"] is True
    assert line["payment"] == "Carte de cours (Carte 10 cours) : 1 crédit(s)"
    card.refresh_from_db()
    assert card.credits_left == 9
    assert PassAdjustment.objects.filter(pass_ref=card, action=PassAdjustmentAction.SPEND, credits_delta=-1).exists()


def test_a_walk_in_paid_at_the_desk(api_client, staff, class_now, member):
    api_client.force_authenticate(staff)
    response = api_client.post(
        WALK_IN.format(class_now.pk), {"email": member.email, "paid_with": "desk", "participants": 2}, format="json"
    )
    assert response.status_code == 201
    line = next(r for r in response.json()["results"] if r["user_id"] == member.pk)
    assert line["payment"] == "Payé à l'accueil" and line["participants"] == 2
    reservation = class_now.reservations.get(user=member)
    assert reservation.status == ReservationStatus.CONFIRMED and reservation.total_amount == Decimal("50.00")
    assert reservation.attendance.paid_at_desk and reservation.attendance.status == AttendanceStatus.PRESENT


def test_walk_in_refusals_are_in_french(api_client, staff, class_now, member):
    api_client.force_authenticate(staff)
    unknown = api_client.post(
        WALK_IN.format(class_now.pk), {"email": "personne@example.fr", "paid_with": "desk"}, format="json"
    )
    assert unknown.status_code == 404 and unknown.json()["error"] == MSG_WALK_IN_MEMBER_NOT_FOUND
    ReservationFactory(session=class_now, user=member)
    again = api_client.post(WALK_IN.format(class_now.pk), {"email": member.email, "paid_with": "desk"}, format="json")
    assert again.status_code == 409 and again.json()["error"] == MSG_WALK_IN_ALREADY_BOOKED
    other = UserFactory()
    full = api_client.post(
        WALK_IN.format(class_now.pk), {"email": other.email, "paid_with": "desk", "participants": 3}, format="json"
    )
    assert full.status_code == 409 and full.json()["error"] == MSG_WALK_IN_NO_SEATS.format(seats=2)
    bad = api_client.post(WALK_IN.format(class_now.pk), {"email": other.email, "paid_with": "cash"}, format="json")
    assert bad.status_code == 400
    assert "Le paiement doit être « pass » (carte ou abonnement) ou « desk » (payé à l'accueil)." in str(bad.json())


def test_supervisors_take_attendance_and_members_cannot(api_client, supervisor, member, class_now):
    api_client.force_authenticate(member)
    assert api_client.get(SHEET.format(class_now.pk)).status_code == 403
    api_client.force_authenticate(supervisor)
    assert api_client.get(SHEET.format(class_now.pk)).status_code == 200


def test_an_ancient_date_is_still_rfc3339_in_the_sheet(api_client, staff):
    """schemathesis found a session typed in year 441: Paris's offset then was +00:09:21 (local mean time), which RFC
    3339 cannot write, so the answer broke its `format: date-time` schema. Such instants are written in UTC."""
    from datetime import UTC, datetime

    session = CourseSessionFactory(start=datetime(441, 7, 15, 23, 41, 30, tzinfo=UTC))
    api_client.force_authenticate(staff)
    response = api_client.get(f"/api/course-sessions/{session.pk}/attendance")
    assert response.status_code == 200
    assert response.json()["session"]["date"] == "0441-07-15T23:41:30+00:00"
