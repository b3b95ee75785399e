"""A reservation keeps its own state: payments tells bookings where its card payment stands (`payment_pending`), and
every bookings service that ends a reservation says why (`cancel_reason`). Bookings decides from its own row, and
payments refunds in full only what the studio cancelled, never guessing from equal timestamps."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import transaction
from django.utils import timezone

from bookings.models import CancelReason, PaymentPending, Reservation, ReservationStatus
from bookings.services.availability import reservations_release_expired
from bookings.services.cancellation import (
    MSG_HOLD_PAYMENT_IN_PROGRESS,
    bookings_release_for_refund,
    reservation_cancel,
)
from bookings.services.class_cancellation import course_session_cancel
from bookings.services.common import ReservationError
from bookings.services.departure import member_future_bookings_cancel
from courses.models import SessionStatus
from courses.tests.factories import CourseSessionFactory
from payments.models import PaymentOrder, PaymentStatus
from payments.services.capture import payment_order_cancel, payment_order_capture, simulator_order_approve
from payments.services.class_refunds import class_cancelled_refund_reason, payment_orders_refund_cancelled_class
from payments.services.staff import payment_order_staff_update

from .conftest import open_reservation_order
from .test_class_cancellation import pay_by_card

pytestmark = pytest.mark.django_db


def _pending(reservation) -> str:
    return Reservation.objects.values_list("payment_pending", flat=True).get(pk=reservation.pk)


def _reason(reservation) -> str:
    return Reservation.objects.values_list("cancel_reason", flat=True).get(pk=reservation.pk)


def test_an_order_opened_approved_and_captured_moves_the_reservations_own_payment_state(member, make_reservation):
    held = make_reservation(member, participants=1)
    assert _pending(held) == PaymentPending.NONE
    order = open_reservation_order(member, held)
    assert _pending(held) == PaymentPending.OPEN
    simulator_order_approve(order_id=order.order_id, user=member, card_declined=False)
    assert _pending(held) == PaymentPending.APPROVED
    assert payment_order_capture(order_id=order.order_id, user=member).completed
    assert _pending(held) == PaymentPending.NONE


def test_an_order_the_payer_closed_leaves_no_payment_pending(member, make_reservation):
    held = make_reservation(member, participants=1)
    order = open_reservation_order(member, held)
    payment_order_cancel(order_id=order.order_id, user=member)
    assert _pending(held) == PaymentPending.NONE


def test_a_declined_card_keeps_the_payment_open_and_staff_closing_it_clears_it(member, make_reservation):
    held = make_reservation(member, participants=1)
    order = open_reservation_order(member, held)
    simulator_order_approve(order_id=order.order_id, user=member, card_declined=True)
    payment_order_capture(order_id=order.order_id, user=member)
    assert PaymentOrder.objects.get(pk=order.pk).status == PaymentStatus.DECLINED
    assert _pending(held) == PaymentPending.OPEN  # the member may try again: seats and price stay frozen
    data = {
        "order_id": order.order_id,
        "email": order.email,
        "amount": order.amount,
        "title": order.title,
        "date": order.date,
        "time": order.time,
        "status": PaymentStatus.VOIDED,
    }
    payment_order_staff_update(order_id=order.order_id, data=data)
    assert _pending(held) == PaymentPending.NONE


def test_bookings_reads_its_own_row_not_the_orders(member, make_reservation):
    """The hold is released or kept from `payment_pending` alone: an approved payment keeps it."""
    held = make_reservation(member, participants=1, payment_pending=PaymentPending.APPROVED)
    with pytest.raises(ReservationError) as refused:
        reservation_cancel(user=member, reservation_id=held.pk)
    assert refused.value.message == MSG_HOLD_PAYMENT_IN_PROGRESS
    other = make_reservation(member, participants=1, session=CourseSessionFactory())
    reservation_cancel(user=member, reservation_id=other.pk)
    assert (_reason(other), Reservation.objects.get(pk=other.pk).status) == (
        CancelReason.MEMBER,
        ReservationStatus.CANCELLED,
    )


def test_each_way_a_reservation_ends_says_why(member, other_member, make_reservation):
    mine = make_reservation(member, participants=1, status=ReservationStatus.CONFIRMED)
    reservation_cancel(user=member, reservation_id=mine.pk)
    assert _reason(mine) == CancelReason.MEMBER

    session = CourseSessionFactory(price_per_participant=Decimal("25.00"))
    booked = make_reservation(other_member, participants=1, session=session, status=ReservationStatus.CONFIRMED)
    course_session_cancel(session_id=session.pk, reason="Salle inondée")
    assert _reason(booked) == CancelReason.STUDIO

    lapsed = make_reservation(member, participants=1, expires_in=timedelta(minutes=-1))
    reservations_release_expired(session_id=lapsed.session_id)
    assert (_reason(lapsed), Reservation.objects.get(pk=lapsed.pk).status) == (
        CancelReason.EXPIRED,
        ReservationStatus.EXPIRED,
    )

    soon = CourseSessionFactory(start=timezone.now() + timedelta(hours=2), end=timezone.now() + timedelta(hours=3))
    late = make_reservation(other_member, participants=1, session=soon, status=ReservationStatus.CONFIRMED)
    member_future_bookings_cancel(user=other_member)
    assert _reason(late) == CancelReason.LATE


def test_a_refunded_payment_takes_back_its_booking_with_the_reason_refunded(member, make_reservation):
    held = make_reservation(member, participants=1)
    order = pay_by_card(member, held)
    with transaction.atomic():
        bookings_release_for_refund(order=PaymentOrder.objects.get(pk=order.pk))
    assert _reason(held) == CancelReason.REFUNDED


def test_payments_refunds_what_the_studio_cancelled_not_a_members_cancellation_at_the_same_instant(
    member, make_reservation
):
    """A member's own cancellation (an 'avoir') recorded at the very instant the class was cancelled is not the
    studio's: payments reads the reason bookings recorded, not two equal timestamps."""
    held = make_reservation(member, participants=1)
    order = pay_by_card(member, held)
    reservation_cancel(user=member, reservation_id=held.pk)
    cancelled_at = Reservation.objects.values_list("cancelled_at", flat=True).get(pk=held.pk)
    held.session.__class__.objects.filter(pk=held.session_id).update(
        status=SessionStatus.CANCELLED, cancelled_at=cancelled_at, cancellation_reason="Salle inondée"
    )
    assert class_cancelled_refund_reason(reservation_id=held.pk) == ""
    assert payment_orders_refund_cancelled_class(session_id=held.session_id) == 0
    assert PaymentOrder.objects.get(pk=order.pk).status == PaymentStatus.COMPLETED
