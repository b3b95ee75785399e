"""The member's reservations and feedback, and how a reservation was paid."""

from datetime import datetime

from django.db.models import QuerySet
from django.utils import timezone

from courses.booking_windows import free_cancellation_text
from studio.fields import rfc3339

from ..models import CourseFeedback, Reservation, ReservationStatus
from ..services.availability import active_reservations_q
from ..services.cancellation import cancellation_deadline


def member_reservations(*, user) -> QuerySet:
    """The member's confirmed reservations and live holds with their session and course, soonest first."""
    now = timezone.now()
    return (
        Reservation.objects.filter(user=user)
        .filter(active_reservations_q(now))
        .select_related("session__course", "session__instructor", "paid_with_pass")
        .order_by("session__start", "id")
    )


def member_feedback_by_course(*, user) -> dict[int, CourseFeedback]:
    return {fb.course_id: fb for fb in CourseFeedback.objects.filter(user=user)}


def reservation_payment_data(reservation: Reservation, *, now: datetime) -> dict:
    """How a reservation was paid (card or which pass) and until when the member may cancel it."""
    paid_with = reservation.paid_with_pass
    deadline = cancellation_deadline(reservation.session)
    confirmed = reservation.status == ReservationStatus.CONFIRMED
    return {
        "paid_with_pass": (
            {"id": paid_with.pk, "title": paid_with.title, "kind": paid_with.kind} if paid_with is not None else None
        ),
        "credits_spent": reservation.credits_spent,
        "desk_payment": reservation.desk_payment,  # "due": booked by staff, to settle at the desk (decisions.md 50)
        "cancel_deadline": rfc3339(deadline),
        "free_cancellation_until": rfc3339(deadline),
        "free_cancellation_text": free_cancellation_text(deadline),
        # Until the class starts; after the deadline it is a late cancellation (docs/decisions.md 44).
        "can_cancel": confirmed and now < reservation.session.start,
        "cancel_is_late": confirmed and now > deadline,
    }
