"""Attendance (docs/decisions.md 38): staff mark, per booked member, present or absent; an absence is a no-show
on the member's record (counted, no fee). Walk-ins added at the door are bookings like any other, confirmed at once,
paid with a pass credit (spent under the pass lock, with a ledger line) or recorded as paid at the desk.

Locks (locking.py): a mark takes the reservation row alone; a walk-in takes the session, then the pass, then the
member's reservation, like every booking, so the seats and credits are never counted twice.
"""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from courses.models import SessionStatus
from courses.services.locking import lock_session
from studio.errors import CONFLICT, NOT_FOUND

from ..models import Pass, Reservation, ReservationStatus
from ..models_operations import Attendance, AttendanceStatus
from .availability import session_seats_taken
from .common import ReservationError
from .late_cancellation import late_cancellations_settle_after_commit
from .locking import lock_member_live_reservation, lock_pass, lock_reservation
from .overlap import lock_member_bookings
from .passes import PASS_REFUSALS, pass_check_booking, pass_spend

# Attendance opens this long before the class starts (the door opens early) and stays open afterwards.
ATTENDANCE_OPENS_BEFORE = timedelta(hours=2)

MSG_ATTENDANCE_SAVED = "Présence enregistrée."
MSG_WALK_IN_ADDED = "{name} est ajouté(e) au cours et pointé(e) présent(e)."
MSG_ATTENDANCE_NOT_OPEN = "La feuille de présence s'ouvre 2 heures avant le début du cours."
MSG_ATTENDANCE_CANCELLED = "Ce cours est annulé : pas de feuille de présence."
MSG_ATTENDANCE_NOT_BOOKED = "Cette personne n'a pas de réservation confirmée pour ce cours."
MSG_WALK_IN_CANCELLED = (
    "Ce cours est annulé : personne ne peut y être ajouté, ni avec une carte ou un abonnement, ni payé à l'accueil."
)
MSG_WALK_IN_MEMBER_NOT_FOUND = "Aucun compte n'existe avec cet e-mail : créez d'abord le compte de la personne."
MSG_WALK_IN_ACCOUNT_CLOSED = (
    "Ce compte est fermé (supprimé ou désactivé) : cette personne ne peut pas être ajoutée au cours."
)
MSG_WALK_IN_ALREADY_BOOKED = "Cette personne a déjà une réservation pour ce cours : pointez-la dans la liste."
MSG_WALK_IN_NO_SEATS = "Il ne reste que {seats} place(s) pour ce cours."
MSG_WALK_IN_PASS_REQUIRED = (
    "Cette personne n'a ni carte de cours ni abonnement valable : enregistrez-la comme payée à l'accueil."
)
MSG_WALK_IN_PASS_NOT_FOUND = "Cette carte ou cet abonnement n'appartient pas à cette personne."


class AttendanceError(ReservationError):
    """A refused attendance mark or walk-in (404 for what does not exist, 409 for the class's or booking's state)."""

    messages = {
        "attendance_not_open": MSG_ATTENDANCE_NOT_OPEN,
        "attendance_cancelled": MSG_ATTENDANCE_CANCELLED,
        "attendance_not_booked": MSG_ATTENDANCE_NOT_BOOKED,
        "session_not_found": "Cette session n'existe pas.",
        "walk_in_cancelled": MSG_WALK_IN_CANCELLED,
        "walk_in_member_not_found": MSG_WALK_IN_MEMBER_NOT_FOUND,
        "walk_in_account_closed": MSG_WALK_IN_ACCOUNT_CLOSED,
        "walk_in_already_booked": MSG_WALK_IN_ALREADY_BOOKED,
        "walk_in_no_seats": MSG_WALK_IN_NO_SEATS,
        "walk_in_pass_required": MSG_WALK_IN_PASS_REQUIRED,
        "walk_in_pass_not_found": MSG_WALK_IN_PASS_NOT_FOUND,
    }
    statuses = {
        "attendance_not_open": CONFLICT,
        "attendance_cancelled": CONFLICT,
        "attendance_not_booked": CONFLICT,
        "session_not_found": NOT_FOUND,
        "walk_in_cancelled": CONFLICT,
        "walk_in_member_not_found": NOT_FOUND,
        "walk_in_account_closed": CONFLICT,  # a deleted (anonymised) or deactivated account books nothing
        "walk_in_already_booked": CONFLICT,
        "walk_in_no_seats": CONFLICT,
        "walk_in_pass_required": CONFLICT,  # well formed; the person's passes refuse it
        "walk_in_pass_not_found": NOT_FOUND,
    }


def attendance_opens_at(session) -> datetime:
    """When the session's attendance sheet opens (marks and walk-ins are accepted from then on)."""
    return session.start - ATTENDANCE_OPENS_BEFORE


def attendance_is_open(session, now) -> bool:
    """Whether marks and walk-ins are accepted now: the rule `_check_open` enforces, for the sheet to show."""
    return session.status != SessionStatus.CANCELLED and now >= attendance_opens_at(session)


def _check_open(session, now) -> None:
    if session.status == SessionStatus.CANCELLED:
        raise AttendanceError.of("attendance_cancelled")
    if now < attendance_opens_at(session):
        raise AttendanceError.of("attendance_not_open")


@transaction.atomic
def attendance_mark(*, session_id: int, reservation_id: int, present: bool, by=None) -> Attendance:
    """Mark a confirmed booking of the session present or absent (changing a mark is allowed)."""
    session = lock_session(session_id)
    if session is None:
        raise AttendanceError.of("session_not_found")
    _check_open(session, timezone.now())
    if not Reservation.objects.filter(pk=reservation_id, session_id=session.pk).exists():
        raise AttendanceError.of("attendance_not_booked")
    reservation = lock_reservation(reservation_id)
    if reservation.status != ReservationStatus.CONFIRMED:
        raise AttendanceError.of("attendance_not_booked")
    attendance, _created = Attendance.objects.update_or_create(
        reservation=reservation,
        defaults={"status": AttendanceStatus.PRESENT if present else AttendanceStatus.ABSENT, "marked_by": by},
    )
    return attendance


def pass_choose_for_member(*, member, session, pass_id, participants, now):
    """Under the session lock: the member's pass that pays, locked, and its cost in credits; the named one, else the
    first of their passes still valid that can (the one ending first), under every pass rule (`pass_check_booking`).
    Used by the walk-in and by staff booking on a member's behalf (staff_bookings.py)."""
    today = timezone.localdate(now)
    if pass_id is not None:
        candidates = [pass_id]
    else:
        candidates = list(
            Pass.objects.filter(member=member, expires_on__gte=today)
            .order_by("expires_on", "pk")
            .values_list("pk", flat=True)
        )
        if not candidates:
            raise AttendanceError.of("walk_in_pass_required", field="pass_id")
    refusal = None
    for candidate in sorted(candidates):  # pass locks in id order: two walk-ins never deadlock
        pass_obj = lock_pass(candidate, member=member)
        if pass_obj is None:
            raise AttendanceError.of("walk_in_pass_not_found", field="pass_id")
        try:
            return pass_obj, pass_check_booking(
                pass_obj=pass_obj, session=session, participants=participants, today=today
            )
        except PASS_REFUSALS as exc:
            refusal = exc
    raise refusal


@transaction.atomic
def attendance_walk_in_add(
    *, session_id: int, email: str, paid_with: str, participants: int = 1, pass_id: int | None = None, by=None
) -> Reservation:
    """Add someone at the door: a confirmed booking marked present, paid with their pass (`paid_with="pass"`: the
    pass `pass_id`, or the first of their passes that can pay) or recorded as paid at the desk (`"desk"`) at the
    session's price."""
    session = lock_session(session_id)
    if session is None:
        raise AttendanceError.of("session_not_found")
    now = timezone.now()
    if session.status == SessionStatus.CANCELLED:  # said for a walk-in, whatever the way they would pay
        raise AttendanceError.of("walk_in_cancelled")
    _check_open(session, now)
    member = User.objects.filter(email__iexact=email.strip()).first()
    if member is None:
        raise AttendanceError.of("walk_in_member_not_found", field="email")
    if not member.is_active:
        raise AttendanceError.of("walk_in_account_closed", field="email")
    pass_obj, credits = None, 0
    if paid_with == "pass":
        pass_obj, credits = pass_choose_for_member(
            member=member, session=session, pass_id=pass_id, participants=participants, now=now
        )
    lock_member_bookings(member_id=member.pk)  # before the reservations (locking.py)
    if lock_member_live_reservation(session=session, user=member) is not None:
        raise AttendanceError.of("walk_in_already_booked")
    seats = session.max_attendees - session_seats_taken(session=session, now=now)
    if participants > seats:
        raise AttendanceError.of("walk_in_no_seats", seats=max(seats, 0), field="participants")
    reservation = Reservation.objects.create(
        session=session,
        user=member,
        participants=participants,
        unit_price=session.price_per_participant,
        first_name=member.first_name,
        last_name=member.last_name,
        email=member.email,
        status=ReservationStatus.CONFIRMED,
        confirmed_at=now,
        paid_with_pass=pass_obj,
        credits_spent=credits,
        message="Ajouté(e) à l'accueil",
    )
    if pass_obj is not None:
        pass_spend(pass_obj=pass_obj, reservation=reservation, credits=credits)
    Attendance.objects.create(
        reservation=reservation,
        status=AttendanceStatus.PRESENT,
        walk_in=True,
        paid_at_desk=pass_obj is None,
        marked_by=by,
    )
    late_cancellations_settle_after_commit(session=session, now=now)
    return reservation
