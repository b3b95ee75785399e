"""GET /api/dashboard/stats is kept in the cache until a row it reads changes: the same question again costs no
query beyond the request's session and user, and the answer after a booking, a payment, a class or a member
changes is the one a fresh computation gives."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from freezegun import freeze_time

from accounts.models import User
from bookings.models import Reservation, ReservationStatus
from courses.models import CourseSession
from payments.models import PaymentOrder, PaymentStatus

from .studio import NOW, build_studio
from .test_stats_api import REQUEST_QUERIES, URL, WEEK, YEAR


def _answer(client, query: str):
    response = client.get(f"{URL}?{query}")
    assert response.status_code == 200
    return response.json()


def _fresh(client, query: str):
    """The answer computed from the database, as if nothing were cached."""
    cache.clear()
    client.force_login(client.staff)
    return _answer(client, query)


@pytest.fixture
def staff_client(client, supervisor):
    client.force_login(supervisor)
    client.staff = supervisor
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("query", [WEEK, YEAR])
def test_the_same_question_again_reads_only_the_session_and_the_user(staff_client, query):
    with freeze_time(NOW):
        build_studio(sessions=40, members=10, reservations=80)
        first = _answer(staff_client, query)
        with CaptureQueriesContext(connection) as context:
            again = _answer(staff_client, query)
    assert again == first
    assert len(context.captured_queries) == REQUEST_QUERIES


def _book(studio_now):
    session = CourseSession.objects.filter(start__gte=studio_now, status="scheduled").order_by("start").first()
    member = User.objects.filter(role="user").exclude(reservations__session=session).first()
    Reservation.objects.create(
        session=session,
        user=member,
        status=ReservationStatus.CONFIRMED,
        participants=1,
        unit_price=Decimal("25.00"),
        first_name=member.first_name,
        last_name=member.last_name,
        email=member.email,
        confirmed_at=studio_now,
    )


def _pay(studio_now):
    member = User.objects.filter(role="user").first()
    PaymentOrder.objects.create(
        order_id="CACHE-TEST",
        email=member.email,
        title="Cours à l'unité",
        amount=Decimal("17.00"),
        date=studio_now.date().isoformat(),
        status=PaymentStatus.COMPLETED,
        user=member,
        completed_at=studio_now - timedelta(hours=1),
    )


def _cancel_a_class(studio_now):
    session = CourseSession.objects.filter(start__lt=studio_now, status="scheduled").order_by("-start").first()
    session.status = "cancelled"
    session.save()


def _join(studio_now):
    User.objects.create_user(email="nouvelle@example.com", password="x" * 12, first_name="Nina", last_name="Neuve")


def _delete_a_booking(studio_now):
    coming = {"session__start__gte": studio_now, "session__start__lt": studio_now + timedelta(days=7)}
    Reservation.objects.filter(status=ReservationStatus.CONFIRMED, **coming).first().delete()


@pytest.mark.django_db
@pytest.mark.parametrize("change", [_book, _pay, _cancel_a_class, _join, _delete_a_booking])
def test_a_change_shows_on_the_next_answer(staff_client, change):
    with freeze_time(NOW):
        build_studio(sessions=40, members=10, reservations=80)
        before = _answer(staff_client, WEEK)
        change(NOW)
        after = _answer(staff_client, WEEK)
        assert after != before
        assert after == _fresh(staff_client, WEEK)
