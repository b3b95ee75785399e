"""The member's history of followed courses: their reserved sessions (confirmed, or held and not lapsed), upcoming
ones first (soonest first), then past ones (most recent first), each with the member's feedback on its course, how it
was paid and until when it can be cancelled.

One queryset, which the API paginates: the count, then the page's rows joined to their session, course, instructor,
pass and the member's feedback on the course; two queries whatever the length of the history."""

from datetime import datetime

from django.db.models import Case, F, FilteredRelation, Q, QuerySet, When

from courses.booking_windows import free_cancellation_text

from .checkin_codes import reservation_checkin
from .models import Reservation, ReservationStatus
from .services.availability import active_reservations_q
from .services.cancellation import cancellation_deadline


def member_followed_reservations(*, member_id: int, now: datetime) -> QuerySet[Reservation]:
    """The member's reservations that take seats, in the history's order, each with `feedback_rating` and
    `feedback_comment` (None when the member gave no feedback on the session's course: one at most per course)."""
    upcoming_start = Case(When(session__start__gt=now, then=F("session__start")))
    return (
        Reservation.objects.filter(active_reservations_q(now), user_id=member_id)
        .select_related("session__course", "session__instructor", "paid_with_pass")
        .annotate(
            member_feedback=FilteredRelation(
                "session__course__feedbacks", condition=Q(session__course__feedbacks__user_id=member_id)
            ),
            feedback_rating=F("member_feedback__rating"),
            feedback_comment=F("member_feedback__comment"),
        )
        # Upcoming ones first, soonest first (past ones have no first key: last), then past ones, latest first.
        .order_by(upcoming_start.asc(nulls_last=True), F("session__start").desc(), "id")
    )


def followed_course(reservation: Reservation, *, now: datetime) -> dict:
    """A row of the history (the fields of FollowedCourseOutput) from one of `member_followed_reservations`."""
    session, course = reservation.session, reservation.session.course
    deadline = cancellation_deadline(session)
    is_past = session.start <= now
    confirmed = reservation.status == ReservationStatus.CONFIRMED
    # A live hold (the history keeps no lapsed one) is paid or released from the history until the class starts.
    held = reservation.status == ReservationStatus.HELD and not is_past
    paid_with = reservation.paid_with_pass
    rating = reservation.feedback_rating
    return {
        "id": course.pk,
        "course_id": course.pk,
        "session_id": session.pk,
        "reservation_id": reservation.pk,
        "title": course.title,
        "description": course.description,
        "level": session.level or course.level,
        "date": session.start,
        "end_date": session.end,
        "instructor": session.instructor_name,
        "participants": reservation.participants,
        "status": reservation.status,
        "status_label": reservation.get_status_display(),
        "is_past": is_past,
        "can_give_feedback": is_past and confirmed,
        "rating": rating,
        "comment": reservation.feedback_comment if rating is not None else "",
        "paid_with_pass": (
            {"id": paid_with.pk, "title": paid_with.title, "kind": paid_with.kind} if paid_with is not None else None
        ),
        "credits_spent": reservation.credits_spent,
        "desk_payment": reservation.desk_payment,  # "due": booked by staff, to settle at the desk (decisions.md 50)
        "cancel_deadline": deadline,
        "free_cancellation_text": free_cancellation_text(deadline),
        # Until the class starts; after the deadline a late cancellation (docs/decisions.md 44).
        "can_cancel": (confirmed and not is_past) or held,
        "cancel_is_late": confirmed and not is_past and now > deadline,
        "total_amount": reservation.total_amount,
        "hold_expires_at": reservation.hold_expires_at if reservation.status == ReservationStatus.HELD else None,
        "can_pay": held,
        "checkin": reservation_checkin(reservation, now=now),  # the QR shown at the door (docs/decisions.md 58)
    }
