"""An unpaid hold is paid later, or released, from "Mes cours": its row says what it costs, until when it is held,
that it can be paid (through the usual create-order / capture flow) and cancelled (through the member's
cancellation, which releases the seats and charges nothing)."""

from decimal import Decimal

from django.utils import timezone

from bookings.models import Reservation, ReservationStatus
from bookings.services.availability import session_seats_left
from bookings.services.cancellation import MSG_HOLD_PAYMENT_IN_PROGRESS, MSG_HOLD_RELEASED
from payments.models import PaymentOrder, PaymentStatus
from payments.tests.conftest import reservation_payload

CREATE = "/api/paypal/create-order"
APPROVE = "/api/paypal/simulator/approve"
CAPTURE = "/api/paypal/capture-payment"
CANCEL = "/api/reservations-courses/{}/cancel"


def _history(api_client, member):
    return api_client.get(f"/api/course-feedback/user/{member.pk}?page=1").json()["results"]


def test_a_held_booking_in_my_courses_says_it_can_be_paid_and_cancelled(api_client, member, make_reservation):
    held = make_reservation(member, participants=2, price=Decimal("25.00"))
    api_client.force_login(member)
    (row,) = _history(api_client, member)
    assert row["reservation_id"] == held.pk and row["status"] == ReservationStatus.HELD
    assert row["total_amount"] == "50.00"
    assert row["hold_expires_at"] == timezone.localtime(held.hold_expires_at).isoformat()
    assert row["can_pay"] is True and row["can_cancel"] is True


def test_a_confirmed_booking_cannot_be_paid_again(api_client, member, make_reservation):
    make_reservation(member, status=ReservationStatus.CONFIRMED)
    api_client.force_login(member)
    (row,) = _history(api_client, member)
    assert row["can_pay"] is False and row["hold_expires_at"] is None and row["total_amount"] == "50.00"


def test_the_hold_is_paid_later_through_the_usual_order_flow(api_client, member, make_reservation):
    held = make_reservation(member)
    api_client.force_login(member)
    order = api_client.post(CREATE, reservation_payload(held), format="json")
    assert order.status_code == 201
    assert api_client.post(APPROVE, {"orderId": order.json()["id"]}, format="json").status_code == 200
    assert api_client.post(CAPTURE, {"orderId": order.json()["id"]}, format="json").status_code == 200
    held.refresh_from_db()
    assert held.status == ReservationStatus.CONFIRMED
    (row,) = _history(api_client, member)
    assert row["status"] == ReservationStatus.CONFIRMED and row["can_pay"] is False


def test_cancelling_a_hold_releases_its_seats_and_charges_nothing(api_client, member, make_reservation, mailoutbox):
    held = make_reservation(member, participants=3)
    seats_before = session_seats_left(session=held.session)
    api_client.force_login(member)
    response = api_client.post(CANCEL.format(held.pk))
    assert response.status_code == 200
    assert response.json()["message"] == MSG_HOLD_RELEASED and response.json()["credit_pass"] is None
    held.refresh_from_db()
    assert held.status == ReservationStatus.CANCELLED
    assert session_seats_left(session=held.session) == seats_before + 3
    assert not member.passes.exists()  # nothing was paid, so no 'avoir'
    assert _history(api_client, member) == []


def test_a_hold_whose_payment_is_being_captured_is_not_released(api_client, member, make_reservation):
    held = make_reservation(member)
    api_client.force_login(member)
    order_id = api_client.post(CREATE, reservation_payload(held), format="json").json()["id"]
    api_client.post(APPROVE, {"orderId": order_id}, format="json")
    assert PaymentOrder.objects.get(order_id=order_id).status == PaymentStatus.APPROVED
    response = api_client.post(CANCEL.format(held.pk))
    assert response.status_code == 409 and response.json()["error"] == MSG_HOLD_PAYMENT_IN_PROGRESS
    assert Reservation.objects.get(pk=held.pk).status == ReservationStatus.HELD


def test_another_members_hold_is_not_found(api_client, member, other_member, make_reservation):
    held = make_reservation(other_member)
    api_client.force_login(member)
    assert api_client.post(CANCEL.format(held.pk)).status_code == 404
    assert Reservation.objects.get(pk=held.pk).status == ReservationStatus.HELD
