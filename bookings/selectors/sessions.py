"""Sessions with their seats taken, for the calendar feed and the dashboard, each in a fixed number of queries."""

from datetime import datetime

from django.db.models import Count, IntegerField, QuerySet, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from courses.models import CourseSession

from ..models import Reservation, ReservationStatus
from ..services.availability import active_reservations_q


def with_seats_taken(qs: QuerySet, now: datetime) -> QuerySet:
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
    qs = (
        CourseSession.objects.filter(start__lt=end, end__gt=start)
        .select_related("course", "instructor")
        .order_by("start", "id")
    )
    return with_seats_taken(qs, now)


def sessions_staff_list(*, ordering: str = "start", now: datetime | None = None) -> QuerySet:
    """Every session for the dashboard, with seats taken and the number of reservations that hold seats."""
    now = now or timezone.now()
    order = ["-start", "-id"] if ordering.startswith("-") else ["start", "id"]
    qs = CourseSession.objects.select_related("course", "instructor").order_by(*order)
    return with_seats_taken(qs, now).annotate(
        reservations_count=Count("reservations", filter=active_reservations_q(now, prefix="reservations__"))
    )


def sessions_staff_page_list(*, ordering: str = "start") -> QuerySet:
    """Every session for the dashboard's paginated list, with its course; seats are added per page by
    `sessions_with_seats`, so that counting and paging never aggregate over every session."""
    order = ["-start", "-id"] if ordering.startswith("-") else ["start", "id"]
    return CourseSession.objects.select_related("course", "instructor").order_by(*order)


def sessions_with_seats(sessions: list[CourseSession], *, now: datetime | None = None) -> list[CourseSession]:
    """Set `seats_taken` and `reservations_count` (live holds and confirmed) on these sessions: one query."""
    now = now or timezone.now()
    live = active_reservations_q(now)
    totals = {
        row["session_id"]: row
        for row in Reservation.objects.filter(live, session_id__in=[s.pk for s in sessions])
        .values("session_id")
        .annotate(seats=Sum("participants"), count=Count("id"))
        .order_by()
    }
    for session in sessions:
        row = totals.get(session.pk)
        session.seats_taken = row["seats"] if row else 0
        session.reservations_count = row["count"] if row else 0
    return sessions


def session_attendees(*, session_id: int) -> QuerySet:
    """Reservations of a session that hold or held seats, newest first (expired and cancelled ones excluded)."""
    return (
        Reservation.objects.filter(session_id=session_id)
        .filter(status__in=[ReservationStatus.HELD, ReservationStatus.CONFIRMED])
        .select_related("user")
        .order_by("status", "created_at", "id")
    )
