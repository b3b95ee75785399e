"""`make run` seeds the demo studio on every start, over a database people have used in between: seeding again never
fails and keeps what they did (bookings and payments, staff edits of the catalogue, members' own details)."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.models import User
from bookings.models import Reservation, ReservationStatus
from courses.management.commands.seed_demo import DEFAULT_MEMBER_EMAIL, DEFAULT_MEMBER_PASSWORD
from courses.models import Course, CourseSession, Tariff
from payments.models import PaymentOrder, PaymentStatus

pytestmark = pytest.mark.django_db(transaction=True)

CREATE = "/api/paypal/create-order"
APPROVE = "/api/paypal/simulator/approve"
CAPTURE = "/api/paypal/capture-payment"


def _book_and_pay(client, member):
    session = (
        CourseSession.objects.filter(start__gt=timezone.now(), cancelled_at=None)
        .exclude(reservations__user=member)
        .order_by("start")
        .first()
    )
    reservation = Reservation.objects.create(
        session=session,
        user=member,
        participants=1,
        unit_price=session.price_per_participant,
        first_name=member.first_name,
        last_name=member.last_name,
        email=member.email,
        status=ReservationStatus.HELD,
        hold_expires_at=timezone.now() + timedelta(minutes=15),
    )
    payload = {
        "amount": f"{reservation.total_amount:.2f}",
        "title": session.course.title,
        "type": "cours",
        "email": member.email,
        "first_name": member.first_name,
        "last_name": member.last_name,
        "date": "2030-01-01",
        "time": "18:30",
        "message": "",
        "reservation_id": reservation.pk,
    }
    order_id = client.post(CREATE, payload, content_type="application/json").json()["id"]
    assert (
        client.post(APPROVE, {"orderId": order_id, "outcome": "approve"}, content_type="application/json").status_code
        == 200
    )
    assert client.post(CAPTURE, {"orderId": order_id}, content_type="application/json").status_code == 200
    return reservation, order_id


def test_seeding_again_over_a_used_database_keeps_what_people_did(client):
    call_command("seed_demo")
    member = User.objects.get(email=DEFAULT_MEMBER_EMAIL)
    client.force_login(member)
    reservation, order_id = _book_and_pay(client, member)
    member.phone = "0698765432"
    member.save(update_fields=["phone"])
    card = Tariff.objects.get(title="Carte 10 cours")
    card.title = "Carte dix cours"
    card.save(update_fields=["title"])
    course = Course.objects.order_by("position").first()
    course.description = "Texte réécrit par le studio."
    course.save(update_fields=["description"])
    tariffs, courses = Tariff.objects.count(), Course.objects.count()

    for _ in range(3):
        call_command("seed_demo")

    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    (order,) = PaymentOrder.objects.filter(reservation=reservation)
    assert order.order_id == order_id and order.status == PaymentStatus.COMPLETED
    member.refresh_from_db()
    assert member.phone == "0698765432" and member.check_password(DEFAULT_MEMBER_PASSWORD)
    assert Tariff.objects.count() == tariffs and Tariff.objects.filter(title="Carte dix cours").exists()
    assert Course.objects.count() == courses
    assert Course.objects.get(pk=course.pk).description == "Texte réécrit par le studio."
