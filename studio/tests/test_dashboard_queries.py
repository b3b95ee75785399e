"""Every list the dashboard reads runs a fixed number of queries whatever the number of rows."""

import uuid
from datetime import date, time, timedelta
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.tests.factories import StaffFactory, UserFactory
from courses.tests import factories as course_factories


def _users(n):
    UserFactory.create_batch(n)


def _sessions(n):
    from bookings.models import Reservation, ReservationStatus

    for session in course_factories.CourseSessionFactory.create_batch(n):
        for _ in range(2):
            Reservation.objects.create(
                session=session,
                user=UserFactory(),
                participants=1,
                unit_price=Decimal("25.00"),
                first_name="Inès",
                last_name="Moreau",
                email="ines@example.fr",
                status=ReservationStatus.CONFIRMED,
                confirmed_at=timezone.now(),
            )


def _attendees(n):
    _sessions(1)


def _contact_messages(n):
    from messaging.services import contact_message_create

    for i in range(n):
        contact_message_create(name=f"Jeanne {i}", email="jeanne@example.fr", text="Bonjour")


def _rentals(n):
    from quotes.services.rentals import room_rental_request_create

    for _ in range(n):
        room_rental_request_create(
            name="Jeanne",
            email="jeanne@example.fr",
            phone="0612345678",
            event_type="Anniversaire",
            date=date.today() + timedelta(days=30),
            time=time(15, 0),
        )


def _orders(n):
    from payments.services.staff import payment_order_staff_create

    for _ in range(n):
        payment_order_staff_create(
            data={
                "order_id": f"MANUEL-{uuid.uuid4().hex[:10]}",
                "email": "jeanne@example.fr",
                "title": "Carte 10 cours",
                "amount": "190.00",
                "date": "2026-03-01",
                "time": "18:00",
            }
        )


def _instructors(n):
    course_factories.InstructorFactory.create_batch(n)


def _tariffs(n):
    course_factories.TariffFactory.create_batch(n)


def _testimonials(n):
    course_factories.TestimonialFactory.create_batch(n)


def _courses(n):
    course_factories.CourseFactory.create_batch(n)


LISTS = {
    "/api/users?page=1&page_size=10": _users,
    "/api/course-sessions?view=staff&page=1&page_size=10": _sessions,
    "/api/contact-messages?page=1": _contact_messages,
    "/api/rental-requests?page=1": _rentals,
    "/api/paypal/orders?page=1": _orders,
    "/api/evf-reservations?page=1": lambda n: None,
    "/api/instructors": _instructors,
    "/api/tarifs": _tariffs,
    "/api/testimonials": _testimonials,
    "/api/courses": _courses,
    "/api/slider": lambda n: None,
    "/api/slideshow-images": lambda n: None,
    "/api/media": lambda n: None,
}


def _count(client, path):
    cache.clear()  # public lists are cached: count the queries that build them
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, response.content[:300]
    return len(queries)


@pytest.mark.django_db
@pytest.mark.parametrize("path", sorted(LISTS))
def test_list_api_runs_a_fixed_number_of_queries(path):
    client = APIClient()
    client.force_authenticate(StaffFactory())
    make = LISTS[path]
    make(2)
    few = _count(client, path)
    make(10)
    assert _count(client, path) == few


@pytest.mark.django_db
def test_session_attendees_run_a_fixed_number_of_queries():
    client = APIClient()
    client.force_authenticate(StaffFactory())
    _sessions(1)
    from courses.models import CourseSession

    session = CourseSession.objects.get()
    few = _count(client, f"/api/course-sessions/{session.pk}/attendees")
    from bookings.models import Reservation, ReservationStatus

    for _ in range(6):
        Reservation.objects.create(
            session=session,
            user=UserFactory(),
            participants=1,
            unit_price=Decimal("25.00"),
            first_name="Léa",
            last_name="Roux",
            email="lea@example.fr",
            status=ReservationStatus.CONFIRMED,
            confirmed_at=timezone.now(),
        )
    assert _count(client, f"/api/course-sessions/{session.pk}/attendees") == few
