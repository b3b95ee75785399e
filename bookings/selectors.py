"""Reads shared by the bookings pages and APIs, each in a fixed number of queries."""

from datetime import date, datetime

from django.db.models import Count, IntegerField, Prefetch, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from courses.models import CourseSession
from studio.fields import rfc3339

from .models import (
    CourseFeedback,
    PartyRequestEvent,
    PartyReservation,
    Pass,
    PassAdjustment,
    PassKind,
    Reservation,
    ReservationStatus,
)
from .services.availability import active_reservations_q
from .services.cancellation import cancellation_deadline


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
    qs = (
        CourseSession.objects.filter(start__lt=end, end__gt=start)
        .select_related("course", "instructor")
        .order_by("start", "id")
    )
    return _with_seats_taken(qs, now)


def sessions_staff_list(*, ordering: str = "start", now: datetime | None = None) -> QuerySet:
    """Every session for the dashboard, with seats taken and the number of reservations that hold seats."""
    now = now or timezone.now()
    order = ["-start", "-id"] if ordering.startswith("-") else ["start", "id"]
    qs = CourseSession.objects.select_related("course", "instructor").order_by(*order)
    return _with_seats_taken(qs, now).annotate(
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


def _with_history(parties: QuerySet) -> QuerySet:
    """Parties with their history and who wrote each line: three queries whatever their number."""
    return parties.select_related("user").prefetch_related(
        Prefetch("events", queryset=PartyRequestEvent.objects.select_related("actor").order_by("created_at", "id"))
    )


def party_reservations_list(*, status: str | None = None) -> QuerySet:
    parties = PartyReservation.objects.order_by("-created_at", "-id")
    if status:
        parties = parties.filter(status=status)
    return _with_history(parties)


def party_requests_of_member(*, user) -> QuerySet:
    return _with_history(PartyReservation.objects.filter(user=user).order_by("-created_at", "-id"))


def party_request_get(*, party_id: int) -> PartyReservation | None:
    return _with_history(PartyReservation.objects.filter(pk=party_id)).first()


def member_reservations(*, user) -> QuerySet:
    """The member's confirmed reservations and live holds with their session and course, soonest first."""
    now = timezone.now()
    return (
        Reservation.objects.filter(user=user)
        .filter(active_reservations_q(now))
        .select_related("session__course", "session__instructor", "paid_with_pass")
        .order_by("session__start", "id")
    )


def member_reservations_in_range(*, user, start: datetime, end: datetime, now: datetime) -> dict[int, dict]:
    """{session id: {id, status, participants}} of the member's live reservations on sessions overlapping the range:
    the calendar feed's overlay, one narrow query."""
    rows = (
        Reservation.objects.filter(active_reservations_q(now), user=user)
        .filter(session__start__lt=end, session__end__gt=start)
        .order_by()
        .values_list("session_id", "pk", "status", "participants")
    )
    return {sid: {"id": pk, "status": status, "participants": n} for sid, pk, status, n in rows}


def member_feedback_by_course(*, user) -> dict[int, CourseFeedback]:
    return {fb.course_id: fb for fb in CourseFeedback.objects.filter(user=user)}


def reservation_payment_data(reservation: Reservation, *, now: datetime) -> dict:
    """How a reservation was paid (card or which pass) and until when the member may cancel it."""
    paid_with = reservation.paid_with_pass
    deadline = cancellation_deadline(reservation.session)
    return {
        "paid_with_pass": (
            {"id": paid_with.pk, "title": paid_with.title, "kind": paid_with.kind} if paid_with is not None else None
        ),
        "credits_spent": reservation.credits_spent,
        "cancel_deadline": rfc3339(deadline),
        "can_cancel": reservation.status == ReservationStatus.CONFIRMED and now <= deadline,
    }


# --- Passes ---


def pass_state(pass_obj: Pass, *, today: date) -> str:
    """'active', 'upcoming', 'expired' or 'used' (a card with no credit left)."""
    return _state(pass_obj.kind, pass_obj.credits_left, pass_obj.starts_on, pass_obj.expires_on, today)


def _state(kind: str, credits_left: int | None, starts_on: date, expires_on: date, today: date) -> str:
    if expires_on < today:
        return "expired"
    if kind == PassKind.CARD and not credits_left:
        return "used"
    if starts_on > today:
        return "upcoming"
    return "active"


USABLE_STATES = ("active", "upcoming")
PASS_STATE_LABELS = {"active": "Valable", "upcoming": "À venir", "expired": "Expirée", "used": "Épuisée"}


def member_passes(*, user) -> list[Pass]:
    """The member's passes, usable ones first then by end date: one query."""
    today = timezone.localdate()
    passes = list(Pass.objects.filter(member=user).select_related("tariff").order_by("-expires_on", "-id"))
    for p in passes:
        p.state = pass_state(p, today=today)
        p.state_label = PASS_STATE_LABELS[p.state]
    usable = sorted((p for p in passes if p.state in USABLE_STATES), key=lambda p: (p.expires_on, p.pk))
    return usable + [p for p in passes if p.state not in USABLE_STATES]


def member_pass_rows(*, member_id: int) -> list[dict]:
    """What the profile shows of `member_passes` (same order, same states), as dicts: one query."""
    today = timezone.localdate()
    usable, others = [], []
    rows = (
        Pass.objects.filter(member_id=member_id)
        .order_by("-expires_on", "-id")
        .values_list(
            "id", "kind", "title", "credits_total", "credits_left", "starts_on", "expires_on", "rule__weekly_cap"
        )
    )
    for pk, kind, title, total, left, starts_on, expires_on, weekly_cap in rows:
        state = _state(kind, left, starts_on, expires_on, today)
        row = {
            "pk": pk,
            "title": title,
            "state": state,
            "state_label": PASS_STATE_LABELS[state],
            "is_card": kind == PassKind.CARD,
            "credits_total": total,
            "credits_left": left,
            "starts_on": starts_on,
            "expires_on": expires_on,
            "weekly_cap": weekly_cap or 0,  # its plan's classes a week (0: no cap)
        }
        (usable if state in USABLE_STATES else others).append(row)
    usable.sort(key=lambda row: (row["expires_on"], row["pk"]))
    return usable + others


def member_usable_passes(*, user) -> list[Pass]:
    """Passes that can pay for a booking from today (the session's own day is checked by the booking)."""
    return [p for p in member_passes(user=user) if p.state in USABLE_STATES]


PASS_ORDERINGS = {"expires_on", "-expires_on", "created_at", "-created_at", "member", "-member"}


def passes_staff_list(*, search: str = "", ordering: str = "-created_at") -> QuerySet:
    """Every pass with its member and tariff, for the dashboard: filtered by member name or e-mail."""
    qs = Pass.objects.select_related("member", "tariff")
    search = (search or "").strip()
    if search:
        qs = qs.filter(
            Q(member__email__icontains=search)
            | Q(member__first_name__icontains=search)
            | Q(member__last_name__icontains=search)
            | Q(title__icontains=search)
        )
    if ordering not in PASS_ORDERINGS:
        ordering = "-created_at"
    field = ordering.replace("member", "member__last_name")
    return qs.order_by(field, "-id")


def pass_adjustments(*, pass_id: int) -> QuerySet:
    return (
        PassAdjustment.objects.filter(pass_ref_id=pass_id)
        .select_related("by", "reservation__session__course")
        .order_by("-at", "-id")
    )
