"""The member's overlay on the calendar feed: their reservations that take seats on the feed's sessions, which the
feed shows as each event's `my_reservation` (bookings/apis/feed.py)."""

from datetime import datetime

from ..models import Reservation
from ..services.availability import active_reservations_q


def member_reservations_in_range(*, user, start: datetime, end: datetime, now: datetime) -> dict[int, dict]:
    """{session id: {id, status, participants}} of the member's reservations that take seats (confirmed, or held and
    not expired) on the sessions overlapping [start, end), as the feed selects them: one query, also for a range
    without sessions."""
    rows = Reservation.objects.filter(
        active_reservations_q(now), user=user, session__start__lt=end, session__end__gt=start
    ).values_list("session_id", "pk", "status", "participants")
    return {session_id: {"id": pk, "status": status, "participants": n} for session_id, pk, status, n in rows}
