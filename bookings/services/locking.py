"""Locking: the one place the lock order of bookings' writes is written down, and the helpers every writer uses.

Lock order, always (a writer takes only the rows it needs, but never in another order):

    PaymentOrder  →  CourseSession  →  Pass  →  Reservation rows

Payments' own rows come first and are written down in payments/services/locking.py (PaymentOrder → Subscription →
SubscriptionCharge → ReducedRateDeclaration, then these); bookings never locks them (it hears of payments by signals).

- A payment capture or refund (payments) locks its PaymentOrder first, then calls bookings, which lock the rest.
- Every write that counts or changes seats locks the session row first (`lock_session`, courses/services/locking.py,
  which courses' own session writes take too; `lock_session_of_reservation` here): holds, bookings paid with a pass,
  confirmations, cancellations, refunds, the staff's session update and delete, and the card order recorded for a
  hold (payments' `_reservation_order_insert`).
- Then the pass (`lock_pass`): a pass's credits are read and changed only under its row lock, so a credit is never
  spent twice. Staff adjustments lock the pass alone. Several passes are locked by ascending id (a late
  cancellation made good gives credits back in its own transaction, late_cancellation.py).
- Then, for a pass whose tariff caps the future bookings a member holds with it (docs/decisions.md 45), the member's
  lock on that tariff (`lock_member_tariff`): the count covers every pass of the tariff, and each booking locks only
  the pass it spends, so two passes of one tariff would otherwise both see room for one more.
- Then, for every booking of a member (their own hold or booking with a pass, staff booking on their behalf, a
  walk-in, an automatic booking from a waiting list), the member's bookings lock (`lock_member_bookings`,
  overlap.py): an automatic booking checks under it that the member has no overlapping booking, so a booking made at
  the same moment on another class is either seen by that check or waits for it to end.
- Then the reservations (`lock_reservation`, `lock_member_live_reservation`).

A hold, a booking paid with a pass, a confirmation and a cancellation on the same session therefore never deadlock.

What is confirmed equals what was paid (docs/decisions.md 14): a card order for a hold is recorded under the session and
reservation locks (payments), and while one is open the hold's participants and price cannot change and no pass may
pay it (both read the reservation's `payment_pending`, which payments sets under the session lock,
`payment_open_on`). The capture confirms only a reservation whose participants and amount are the order's
(`reservation_confirm_for_payment`); otherwise payments refunds.
"""

from datetime import timedelta
from decimal import Decimal

from django.db import connection
from django.db.models import Exists, OuterRef, Subquery, Sum

from courses.models import CourseSession, SessionStatus
from courses.services.locking import lock_session

from ..models import Pass, PaymentPending, Reservation, ReservationStatus
from ..models_operations import WaitlistEntry
from .availability import _check_seats, active_reservations_q, reservations_release_expired
from .common import WAITLIST_OFFER_STOP_HOURS, ReservationError, session_full
from .overlap import lock_member_bookings
from .seat_state import seat_state
from .session_status import refuse_if_cancelled, refuse_if_not_open


def lock_session_of_reservation(reservation_id: int, *, user=None, with_course: bool = False) -> CourseSession | None:
    """The session of a reservation (the member's own when `user` is given), locked; None when there is no such
    reservation. The reservation itself is locked afterwards (`lock_reservation`), after any pass. One query: the
    session joined to the reservation, only the session's row locked (a reservation never changes session)."""
    sessions = CourseSession.objects.select_for_update(of=("self",)).filter(reservations__pk=reservation_id)
    if with_course:
        sessions = sessions.select_related("course")
    if user is not None:
        sessions = sessions.filter(reservations__user_id=user.pk)
    return sessions.first()


# The first key of the (member, tariff) advisory locks, so that they never meet another use of PostgreSQL's advisory
# locks: "bk" for bookings, in ASCII.
MEMBER_TARIFF_LOCK_SPACE = 0x626B


def lock_member_tariff(*, member_id: int, tariff_id: int) -> None:
    """Serialise, until the transaction ends, the bookings one member makes with the passes of one tariff. A
    transaction-scoped advisory lock on PostgreSQL (no row stands for "this member's bookings with this tariff");
    SQLite runs one writing transaction at a time, so nothing is needed there."""
    if connection.vendor != "postgresql":
        return
    key = (member_id * 1_000_003 + tariff_id) % 2**31
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [MEMBER_TARIFF_LOCK_SPACE, key])


def lock_pass(pass_id: int, *, member=None) -> Pass | None:
    """A pass row, locked (after the session, before the reservations); the member's own when `member` is given."""
    passes = Pass.objects.select_for_update().filter(pk=pass_id)
    if member is not None:
        passes = passes.filter(member=member)
    return passes.first()


def lock_reservation(reservation_id: int) -> Reservation:
    """A reservation row, locked (last: after its session and any pass). Reservation.DoesNotExist if there is none."""
    return Reservation.objects.select_for_update().get(pk=reservation_id)


def lock_member_live_reservation(*, session: CourseSession, user) -> Reservation | None:
    """Under the session lock: the member's held or confirmed reservation on the session, locked."""
    reservation = (
        Reservation.objects.select_for_update()
        .filter(
            session_id=session.pk, user_id=user.pk, status__in=[ReservationStatus.HELD, ReservationStatus.CONFIRMED]
        )
        .first()
    )
    if reservation is not None:
        reservation.session = session
    return reservation


def priced_total(session: CourseSession, participants: int) -> Decimal:
    return (session.price_per_participant * participants).quantize(Decimal("0.01"))


def total_as_priced(session: CourseSession, participants: int, expected_total: Decimal | None) -> bool:
    """The total the browser showed (when it sent one) is the server's price (docs/decisions.md 12)."""
    return expected_total is None or expected_total.quantize(Decimal("0.01")) == priced_total(session, participants)


def plainly_full_for(*, session_id, user, participants: int, first_name, last_name, email, now, expected_total=None):
    """Before any lock: the refusal a member would get under the lock, when the committed state already says the
    class is full for them (every earlier check of the request passes, they have no live reservation on it, and no
    seat is left or its waiting line is owed the seats). Else None, and the locked path decides.

    At a class opening nearly everyone asks after the last seat went; they are answered from one read instead of
    queuing behind the seat lock of those still booking. Only a refusal is decided here: seats only ever free up
    later (a cancellation, a lapsed hold), so a class full in a committed state was full when the member asked, and
    a seat is still only given under the lock.
    """
    if not (first_name.strip() and last_name.strip() and email.strip()) or participants < 1:
        return None
    state = seat_state(session_id)  # the committed state, cached between its changes (seat_state.py)
    if (
        state is None
        or state.start <= now
        or state.status == SessionStatus.CANCELLED
        or state.held_or_confirmed_by(user.pk)
    ):
        return None
    if not total_as_priced(state, participants, expected_total):
        return None
    if _line_is_owed(state, state.waiting, now) or state.max_attendees - state.seats_taken(now) <= 0:
        return session_full(state, now)
    return None


def checked_request_on_locked_session(
    *, session_id: int, participants: int, first_name, last_name, email, now, booking_window: bool = True
):
    """The checks every reservation request passes, in the calendar form's order (names and e-mail, then participants),
    then the session row locked (first lock), existing, not started, not cancelled and, for a member's own booking
    (`booking_window`), open for booking: staff booking on a member's behalf are not held to the window
    (docs/decisions.md 45). Returns the trimmed names and e-mail, the participant count and the locked session."""
    first_name, last_name, email = first_name.strip(), last_name.strip(), email.strip()
    if not (first_name and last_name and email):
        raise ReservationError.of("reservation_required")
    if participants < 1:
        raise ReservationError.of("participants_min", field="participants")
    session = lock_session(session_id, with_course=True)
    if session is None:
        raise ReservationError.of("session_not_found", field="session_id")
    if session.start <= now:
        raise ReservationError.of("session_past")
    refuse_if_cancelled(session)
    if booking_window:
        refuse_if_not_open(session, now)
    return first_name, last_name, email, participants, session


def payment_open_on(reservation: Reservation | None) -> bool:
    """Whether a card payment order is being paid for this hold (read under the session lock, which payments takes
    too when it records an order's change, `reservation_payment_pending_set`, so none can appear meanwhile)."""
    return reservation is not None and reservation.payment_pending != PaymentPending.NONE


def waiting_line_is_owed_the_seats(*, session: CourseSession, now) -> bool:
    """Under the session lock: members wait for this class and offers are still made (until 1 hour before it), so a
    freed seat is theirs first (docs/decisions.md 13, 28); the waiting list's offer takes it within the minute."""
    return session.start - timedelta(hours=WAITLIST_OFFER_STOP_HOURS) > now and _waiting(session).exists()


def _waiting(session: CourseSession):
    return WaitlistEntry.objects.filter(session=session, status="waiting")


def _seats_taken(now) -> Subquery:
    """A session query's annotation: the participants its live reservations take (None when there are none)."""
    return Subquery(
        Reservation.objects.filter(active_reservations_q(now), session_id=OuterRef("pk"))
        .order_by()
        .values("session_id")
        .annotate(total=Sum("participants"))
        .values("total")[:1]
    )


def _line_is_owed(session: CourseSession, waiting: bool, now) -> bool:
    """Members wait for the class and offers are still made: a seat is theirs first (docs/decisions.md 13, 28)."""
    return waiting and session.start - timedelta(hours=WAITLIST_OFFER_STOP_HOURS) > now


def member_hold_with_seats_checked(*, session: CourseSession, user, participants: int, now) -> Reservation | None:
    """Under the session lock: free lapsed holds, refuse a second confirmed reservation, check the seats.

    Returns the member's unpaid hold on this session, which the caller updates instead of creating another.
    """
    # Before the reservations: an automatic booking racing this one sees it (docs/decisions.md 59).
    lock_member_bookings(member_id=user.pk)
    reservations_release_expired(session_id=session.pk, now=now)
    existing = lock_member_live_reservation(session=session, user=user)
    if existing is not None and existing.status == ReservationStatus.CONFIRMED:
        raise ReservationError.of("already_reserved")
    # What `waiting_line_is_owed_the_seats` and the seat count read, in one query.
    taken, waiting = (
        CourseSession.objects.filter(pk=session.pk)
        .annotate(
            taken=_seats_taken(now),
            waiting=Exists(_waiting(OuterRef("pk"))),
        )
        .values_list("taken", "waiting")
        .get()
    )
    if existing is None and _line_is_owed(session, waiting, now):
        raise session_full(session, now)
    _check_seats(session=session, existing=existing, participants=participants, now=now, taken=taken or 0)
    return existing
