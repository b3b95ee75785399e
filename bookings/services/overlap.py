"""An automatic booking never makes a member's bookings overlap (docs/decisions.md 53).

A member in two waiting lists with automatic booking on classes at overlapping times gets at most one of them: the
automatic booking checks, under the member's bookings lock, that none of the member's live reservations (confirmed,
or a hold not yet lapsed) is on a class that is not cancelled and overlaps this one. Two sessions' offers run in two
transactions each under its own session lock, so the member's lock is what makes the second one see the first:
a transaction-scoped advisory lock on PostgreSQL (taken after the session and the pass, before the reservations: the
order of locking.py); SQLite runs one writing transaction at a time, so nothing is needed there. Every other booking
of the member takes the same lock before writing its reservation (`member_hold_with_seats_checked`, the walk-in): a
booking the member makes on another class while a seat is offered to them is committed before the automatic
booking's check, which then sees it, or waits until that check's transaction is over.
"""

from django.db import connection

from courses.models import SessionStatus

from ..models import Reservation
from .availability import active_reservations_q

MEMBER_BOOKINGS_LOCK_SPACE = 0x6F76  # "ov": its own space, apart from the member-tariff locks
MSG_WAITLIST_OVERLAP = (
    "Vous avez déjà un cours réservé à cette heure-là ({course} à {time}) : la réservation automatique n'a pas été "
    "faite, pour ne pas vous inscrire à deux cours en même temps."
)


def lock_member_bookings(*, member_id: int) -> None:
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [MEMBER_BOOKINGS_LOCK_SPACE, member_id % 2**31])


def overlapping_booking(*, member_id: int, session, now) -> Reservation | None:
    """The member's live reservation on another class (not cancelled) that overlaps `session`, if any."""
    return (
        Reservation.objects.filter(active_reservations_q(now), user_id=member_id)
        .exclude(session_id=session.pk)
        .exclude(session__status=SessionStatus.CANCELLED)
        .filter(session__start__lt=session.end, session__end__gt=session.start)
        .select_related("session__course")
        .order_by("session__start")
        .first()
    )
