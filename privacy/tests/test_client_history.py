"""A client's history for staff (docs/decisions.md 50): `GET /api/users/{id}/history`."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.services.staff_actions import staff_action_record
from bookings.models_operations import Attendance, AttendanceStatus
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory, TariffFactory
from payments.tests.test_subscriptions import buy
from privacy.services import MSG_USER_NOT_FOUND
from privacy.tests.test_personal_data import a_month_of_classes
from studio.api import MSG_FORBIDDEN

pytestmark = pytest.mark.django_db

# The account, passes, upcoming and past bookings, orders, invoices, subscriptions (and their pauses, once one was
# frozen), staff actions: one query each whatever the history's length.
HISTORY_QUERIES = 9


@pytest.fixture
def yearly(db):
    return TariffFactory(
        title="Abonnement annuel illimité",
        type="abonnement",
        price=Decimal("55.00"),
        frequency="par mois",
        validity="12 mois",
        pass_unlimited=True,
        pass_validity_months=12,
    )


def history(api_client, user_id):
    return api_client.get(f"/api/users/{user_id}/history")


def a_past_class(member, *, title="Pole débutant", attended=AttendanceStatus.ABSENT):
    session = CourseSessionFactory(course=CourseFactory(title=title), start=timezone.now() - timedelta(days=3))
    reservation = ReservationFactory(session=session, user=member)
    Attendance.objects.create(reservation=reservation, status=attended)
    return reservation


def a_clients_life(api_client, member, staff, tariff, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        a_month_of_classes(api_client, member)
        buy(api_client, member, tariff)
    a_past_class(member)
    staff_action_record(member=member, staff=staff, action="client_created", summary="Compte créé à l'accueil")


def test_staff_read_a_clients_whole_file(
    api_client,
    member,
    other_member,
    supervisor,
    yearly,
    django_capture_on_commit_callbacks,
):
    a_clients_life(api_client, member, supervisor, yearly, django_capture_on_commit_callbacks)
    ReservationFactory(user=other_member)  # nobody else's line shows
    api_client.force_authenticate(supervisor)
    response = history(api_client, member.pk)
    assert response.status_code == 200, response.json()
    assert response["Cache-Control"] == "private, no-store"
    data = response.json()
    assert data["profile"]["email"] == "emma@example.fr" and data["profile"]["password_set"] is True
    assert data["profile"]["role_label"] == "Membre"
    titles = {row["title"]: row for row in data["passes"]}
    assert titles["Carte 5 cours"]["credits_left"] == 4 and titles["Carte 5 cours"]["state_label"] == "Valable"
    assert titles["Carte 5 cours"]["expires_on"] > timezone.localdate().isoformat()
    upcoming = data["upcoming_bookings"]
    assert [row["start"] for row in upcoming] == sorted(row["start"] for row in upcoming) and len(upcoming) == 3
    assert {row["status_label"] for row in upcoming} == {"Confirmée", "En attente de paiement"}
    assert any(row["pass_title"] == "Carte 5 cours" and row["credits_spent"] == 1 for row in upcoming)
    (past,) = data["past_bookings"]
    assert (past["course"], past["status_label"], past["attendance_label"]) == (
        "Pole débutant",
        "Confirmée",
        "Absent(e)",
    )
    assert {row["status_label"] for row in data["orders"]} == {"Payée"} and len(data["orders"]) == 3
    assert sorted(row["total_amount"] for row in data["invoices"]) == ["100.00", "50.00", "55.00"]
    assert all(row["pdf_url"] == f"/api/invoices/{row['id']}/pdf" for row in data["invoices"])
    (subscription,) = data["subscriptions"]
    assert (subscription["title"], subscription["status_label"]) == ("Abonnement annuel illimité", "Active")
    (line,) = data["staff_actions"]
    assert (line["summary"], line["staff_name"]) == ("Compte créé à l'accueil", "Paul Durand")
    assert other_member.email not in response.content.decode()


def test_the_file_is_read_in_a_fixed_number_of_queries(
    api_client,
    member,
    staff,
    yearly,
    django_assert_max_num_queries,
    django_capture_on_commit_callbacks,
):
    a_clients_life(api_client, member, staff, yearly, django_capture_on_commit_callbacks)
    api_client.force_authenticate(staff)
    with django_assert_max_num_queries(HISTORY_QUERIES):
        small = history(api_client, member.pk).json()
    for day in range(4):
        a_past_class(member, title=f"Cours {day}")
        staff_action_record(member=member, staff=staff, action="booked", summary=f"Cours réservé {day}")
    with django_capture_on_commit_callbacks(execute=True):
        a_month_of_classes(api_client, member)
    api_client.force_authenticate(staff)
    with django_assert_max_num_queries(HISTORY_QUERIES):
        large = history(api_client, member.pk).json()
    assert len(large["past_bookings"]) == len(small["past_bookings"]) + 4
    assert len(large["upcoming_bookings"]) == len(small["upcoming_bookings"]) + 3
    assert len(large["staff_actions"]) == 5 and len(large["orders"]) == len(small["orders"]) + 2


def test_a_client_created_at_the_desk_shows_no_password_yet(api_client, supervisor):
    api_client.force_authenticate(supervisor)
    created = api_client.post(
        "/api/users", {"first_name": "Inès", "last_name": "Moreau", "email": "ines@example.fr"}, format="json"
    ).json()
    data = history(api_client, created["id"]).json()
    assert data["profile"]["password_set"] is False
    assert [(line["summary"], line["staff_name"]) for line in data["staff_actions"]] == [
        ("Compte créé à l'accueil", "Paul Durand")
    ]
    assert data["passes"] == data["upcoming_bookings"] == data["past_bookings"] == data["orders"] == []


def test_a_missing_client_is_a_french_404(api_client, staff):
    api_client.force_authenticate(staff)
    for user_id in (99999999, 0):
        response = history(api_client, user_id)
        assert response.status_code == 404 and response.json()["error"] == MSG_USER_NOT_FOUND


@pytest.mark.parametrize("role", ["user", "instructor"])
def test_only_staff_read_a_clients_file(api_client, member, role):
    from accounts.tests.factories import UserFactory

    api_client.force_authenticate(UserFactory(role=role))
    response = history(api_client, member.pk)
    assert response.status_code == 403 and response.json()["error"] == MSG_FORBIDDEN
    api_client.force_authenticate(member)  # their own file is not theirs to read here either
    assert history(api_client, member.pk).status_code == 403
    api_client.force_authenticate(None)
    assert history(api_client, member.pk).status_code in (401, 403)
