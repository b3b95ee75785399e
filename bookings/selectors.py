"""Reads shared by the bookings pages and APIs, each in a fixed number of queries."""

from datetime import datetime

from django.db.models import Count, IntegerField, QuerySet, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from courses.models import CourseSession

from .models import CourseFeedback, PartyReservation, Reservation, ReservationStatus
from .services import active_reservations_q


def _with_seats_taken(qs: QuerySet, now: datetime) -> QuerySet:
    """Annotate `seats_taken`: participants of confirmed reservations and live holds (expired holds are free)."""
    return qs.annotate(
        seats_taken=Coalesce(
            Sum("reservations__participants", filter=active_reservations_q(now, prefix="reservations__")),
            Value(0),
            output_field=IntegerField(),
        )
    )


def sessions_in_range(*, start: datetime, end: datetime, now: datetime | None = None) -> QuerySet:
    """Sessions overlapping [start, end) with their course and seats taken: one query whatever their number."""
    now = now or timezone.now()
    qs = CourseSession.objects.filter(start__lt=end, end__gt=start).select_related("course").order_by("start", "id")
    return _with_seats_taken(qs, now)


def sessions_staff_list(*, ordering: str = "start", now: datetime | None = None) -> QuerySet:
    """Every session for the dashboard, with seats taken and the number of reservations that hold seats."""
    now = now or timezone.now()
    order = ["-start", "-id"] if ordering.startswith("-") else ["start", "id"]
    qs = CourseSession.objects.select_related("course").order_by(*order)
    return _with_seats_taken(qs, now).annotate(
        reservations_count=Count("reservations", filter=active_reservations_q(now, prefix="reservations__"))
    )


def session_attendees(*, session_id: int) -> QuerySet:
    """Reservations of a session that hold or held seats, newest first (expired and cancelled ones excluded)."""
    return (
        Reservation.objects.filter(session_id=session_id)
        .filter(status__in=[ReservationStatus.HELD, ReservationStatus.CONFIRMED])
        .select_related("user")
        .order_by("status", "created_at", "id")
    )


def party_reservations_list() -> QuerySet:
    return PartyReservation.objects.select_related("user").order_by("-created_at", "-id")


def member_reservations(*, user) -> QuerySet:
    """The member's confirmed reservations and live holds with their session and course, soonest first."""
    now = timezone.now()
    return (
        Reservation.objects.filter(user=user)
        .filter(active_reservations_q(now))
        .select_related("session__course")
        .order_by("session__start", "id")
    )


def member_feedback_by_course(*, user) -> dict[int, CourseFeedback]:
    return {fb.course_id: fb for fb in CourseFeedback.objects.filter(user=user)}


def member_followed_courses(*, user) -> list[dict]:
    """SPEC.md 3 'followed course with feedback': one row per reserved session, with the member's course feedback.

    Two queries: reservations (with session and course) and feedback.
    """
    now = timezone.now()
    feedback = member_feedback_by_course(user=user)
    rows = []
    for reservation in member_reservations(user=user):
        session, course = reservation.session, reservation.session.course
        fb = feedback.get(course.pk)
        rows.append(
            {
                "id": course.pk,
                "course_id": course.pk,
                "session_id": session.pk,
                "reservation_id": reservation.pk,
                "title": course.title,
                "description": course.description,
                "level": session.level or course.level,
                "date": timezone.localtime(session.start).isoformat(),
                "end_date": timezone.localtime(session.end).isoformat(),
                "instructor": session.instructor,
                "participants": reservation.participants,
                "status": reservation.status,
                "status_label": reservation.get_status_display(),
                "is_past": session.start <= now,
                "can_give_feedback": session.start <= now and reservation.status == ReservationStatus.CONFIRMED,
                "rating": fb.rating if fb else None,
                "comment": fb.comment if fb else "",
            }
        )
    return rows
