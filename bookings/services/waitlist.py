"""Waiting lists (docs/decisions.md 28, 35): join a full session's list, leave it, offer freed seats in order.

Every write of a session's waiting list takes the session row lock first (locking.py), like every seat write: the
entries of a session are therefore read and changed by one transaction at a time, and an offer sees the true seats.

An offer, in one transaction under the session lock (`waitlist_offer_freed_seats`):
  - lapsed holds are released and lapsed offers closed (EXPIRED: an offer is made once);
  - from 1 hour before the class, nothing is offered (WAITLIST_OFFER_STOP_HOURS);
  - the WAITING entries are read in order (joined first, offered first); the first whose participants fit the free
    seats gets them: booked at once with its pass when the member chose automatic booking and the pass pays now
    (credits spent under the pass lock, e-mailed confirmation), skipped (SKIPPED, never charged, e-mailed why) when
    the pass no longer pays or its plan's rules now refuse the class (`pass_check_booking`, as for a direct booking);
    otherwise a hold on the seats until `offer_expires_at` (2 hours, never later than 1 hour before the class) and an
    e-mail with the link to pay. Nobody is ever charged without clicking to pay.
  - quiet hours (22:00-08:00 Paris, docs/decisions.md 53): the line stops at its first automatic-booking entry, which
    keeps its place until 08:00, when the scheduler's sweep books it; an automatic booking that would overlap another
    of the member's bookings is skipped (overlap.py);
  - beside each e-mail, a push to the member's phone when they turned it on (notifications), with a one-tap accept
    for a held seat (waitlist_accept.py).

Lock order inside an offer: session → (the auto-booking member's pass) → new reservation rows only, which nobody else
can hold: the order of locking.py. Seats freed elsewhere (a member's cancellation, a staff raise of the places, a
lapsed hold) reach the list through `waitlist_offer_session` (a task queued after the commit) and the scheduler's
sweep every minute (`bookings.tasks.waitlist_offers_sweep`), which also passes unclaimed offers on.
"""

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.tasks import task
from django.utils import timezone

from courses.services.locking import lock_session
from notifications.quiet_hours import in_quiet_hours
from studio.errors import CONFLICT, NOT_FOUND
from studio.queue import enqueue_after_commit
from waivers.services import declaration_require

from ..emails import send_waitlist_email
from ..models import CancelReason, PassAdjustment, PassAdjustmentAction, PaymentPending, Reservation, ReservationStatus
from ..models_operations import WAITLIST_LIVE_STATUSES, WaitlistEntry, WaitlistStatus
from .availability import reservations_release_expired, session_seats_left
from .common import WAITLIST_OFFER_STOP_HOURS, ReservationError, _as_id
from .late_cancellation import late_cancellations_settle_after_commit
from .locking import lock_member_live_reservation, lock_pass, lock_reservation
from .overlap import MSG_WAITLIST_OVERLAP, lock_member_bookings, overlapping_booking
from .passes import PASS_REFUSALS, PassError, pass_check_booking
from .session_status import refuse_if_not_open
from .waitlist_accept import waitlist_push

WAITLIST_OFFER_HOURS = 2  # an e-mailed offer holds the seats this long...

MSG_WAITLIST_JOINED = "Vous êtes inscrit(e) sur la liste d'attente : position {position}."
MSG_WAITLIST_LEFT = "Vous avez quitté la liste d'attente."
MSG_WAITLIST_NOT_FULL = "Il reste des places pour cette session : réservez directement."
MSG_WAITLIST_ALREADY_BOOKED = "Vous avez déjà une réservation pour cette session."
MSG_WAITLIST_ALREADY_IN = "Vous êtes déjà sur la liste d'attente de cette session (position {position})."
MSG_WAITLIST_NOT_IN = "Vous n'êtes pas sur la liste d'attente de cette session."
MSG_WAITLIST_CLOSED = "La liste d'attente est fermée : le cours commence dans moins d'une heure."
MSG_WAITLIST_SESSION_CANCELLED = "Ce cours est annulé par le studio : il n'a plus de liste d'attente."
MSG_WAITLIST_SESSION_STARTED = "Ce cours a déjà commencé : la liste d'attente est fermée."
MSG_WAITLIST_SESSION_ENDED = "Ce cours est terminé : la liste d'attente est fermée."
MSG_WAITLIST_AUTO_BOOK_NEEDS_PASS = "Choisissez la carte ou l'abonnement qui paiera la réservation automatique."
MSG_WAITLIST_PARTICIPANTS_OVER_PLACES = (
    "Ce cours compte {places} places : la liste d'attente ne peut pas en demander plus."
)


class WaitlistError(ReservationError):
    """A refused waiting-list action: French text and HTTP status by code (studio/errors.py)."""

    default_code = "waitlist_invalid"
    messages = {
        "session_not_found": ReservationError.messages["session_not_found"],
        "session_past": ReservationError.messages["session_past"],
        "waitlist_not_full": MSG_WAITLIST_NOT_FULL,
        "waitlist_already_booked": MSG_WAITLIST_ALREADY_BOOKED,
        "waitlist_already_in": MSG_WAITLIST_ALREADY_IN,
        "waitlist_not_in": MSG_WAITLIST_NOT_IN,
        "waitlist_closed": MSG_WAITLIST_CLOSED,
        "waitlist_session_cancelled": MSG_WAITLIST_SESSION_CANCELLED,
        "waitlist_session_started": MSG_WAITLIST_SESSION_STARTED,
        "waitlist_session_ended": MSG_WAITLIST_SESSION_ENDED,
        "waitlist_auto_book_needs_pass": MSG_WAITLIST_AUTO_BOOK_NEEDS_PASS,
        "waitlist_participants_over_places": MSG_WAITLIST_PARTICIPANTS_OVER_PLACES,
    }
    statuses = {
        "session_not_found": NOT_FOUND,
        "session_past": CONFLICT,
        "waitlist_auto_book_needs_pass": CONFLICT,
        "waitlist_not_full": CONFLICT,
        "waitlist_already_booked": CONFLICT,
        "waitlist_already_in": CONFLICT,
        "waitlist_not_in": NOT_FOUND,
        "waitlist_closed": CONFLICT,
        "waitlist_session_cancelled": CONFLICT,
        "waitlist_session_started": CONFLICT,
        "waitlist_session_ended": CONFLICT,
        "waitlist_participants_over_places": CONFLICT,
    }


def offers_close_at(session) -> datetime:
    """From this moment no offer is made and no offer holds seats any longer."""
    return session.start - timedelta(hours=WAITLIST_OFFER_STOP_HOURS)


def _session_cancelled(session) -> bool:
    """The studio cancelled the class (the session's `status`): no line, no offer."""
    return getattr(session, "status", "") == "cancelled"


def _refuse_if_line_closed(session, now) -> None:
    """No line for a cancelled, started or ended class, nor within the last hour before it: each said as it is."""
    if _session_cancelled(session):
        raise WaitlistError.of("waitlist_session_cancelled")
    if session.end <= now:
        raise WaitlistError.of("waitlist_session_ended")
    if session.start <= now:
        raise WaitlistError.of("waitlist_session_started")
    if now >= offers_close_at(session):
        raise WaitlistError.of("waitlist_closed")


def waitlist_position(entry: WaitlistEntry) -> int | None:
    """The entry's true place in line (1 = next offered), or None when it is no longer waiting."""
    if entry.status != WaitlistStatus.WAITING:
        return None
    ahead = WaitlistEntry.objects.filter(session_id=entry.session_id, status=WaitlistStatus.WAITING).filter(
        Q(created_at__lt=entry.created_at) | Q(created_at=entry.created_at, pk__lt=entry.pk)
    )
    return ahead.count() + 1


def _live_entry(*, session, user) -> WaitlistEntry | None:
    return WaitlistEntry.objects.filter(session=session, user=user, status__in=WAITLIST_LIVE_STATUSES).first()


@transaction.atomic
def waitlist_join(
    *, user, session_id: int, auto_book: bool = False, pass_id: int | None = None, participants: int = 1
) -> WaitlistEntry:
    """Put the member in line for a full session (free of charge) for `participants` seats, never more than
    the class has. With `auto_book`, the pass must pay today for all of them. The health questionnaire and documents
    are asked first (docs/decisions.md 48): an offer may book the member automatically."""
    declaration_require(member=user)
    now = timezone.now()
    session = lock_session(_as_id(session_id) or 0, with_course=True)
    if session is None:
        raise WaitlistError.of("session_not_found")
    _refuse_if_line_closed(session, now)
    refuse_if_not_open(session, now)
    reservations_release_expired(session_id=session.pk, now=now)
    if lock_member_live_reservation(session=session, user=user) is not None:
        raise WaitlistError.of("waitlist_already_booked")
    existing = _live_entry(session=session, user=user)
    if existing is not None:
        raise WaitlistError.of("waitlist_already_in", position=waitlist_position(existing) or 1)
    if participants > session.max_attendees:
        raise WaitlistError.of("waitlist_participants_over_places", places=session.max_attendees, field="participants")
    waiting = WaitlistEntry.objects.filter(session=session, status=WaitlistStatus.WAITING).exists()
    if session_seats_left(session=session, now=now) > 0 and not waiting:
        raise WaitlistError.of("waitlist_not_full")
    pass_obj = None
    if auto_book:
        if pass_id is None:
            raise WaitlistError.of("waitlist_auto_book_needs_pass", field="pass_id")
        pass_obj = lock_pass(_as_id(pass_id) or 0, member=user)
        if pass_obj is None:
            raise PassError.of("pass_not_found", field="pass_id")
        try:  # the rules a direct booking with this pass checks, so the line is no way around them
            pass_check_booking(
                pass_obj=pass_obj, session=session, participants=participants, today=timezone.localdate(now)
            )
        except PASS_REFUSALS as exc:  # valid request, but this pass cannot pay this class: a conflict with its state
            raise WaitlistError(exc.message, code=exc.code, status=CONFLICT) from exc
    return WaitlistEntry.objects.create(
        session=session, user=user, auto_book=bool(auto_book), pass_ref=pass_obj, participants=participants
    )


@transaction.atomic
def waitlist_leave(*, user, session_id: int) -> None:
    """Leave the line at any time (free). An offer being paid is withdrawn and its seats offered to the next."""
    session = lock_session(_as_id(session_id) or 0)
    if session is None:
        raise WaitlistError.of("session_not_found")
    entry = _live_entry(session=session, user=user)
    if entry is None:
        raise WaitlistError.of("waitlist_not_in")
    now = timezone.now()
    if entry.status == WaitlistStatus.OFFERED and entry.reservation_id:
        hold = lock_reservation(entry.reservation_id)
        if hold.status == ReservationStatus.HELD and hold.payment_pending == PaymentPending.NONE:
            hold.status, hold.cancelled_at, hold.cancel_reason = ReservationStatus.CANCELLED, now, CancelReason.MEMBER
            hold.save(update_fields=["status", "cancelled_at", "cancel_reason"])
    entry.status = WaitlistStatus.LEFT
    entry.ended_at = now
    entry.save(update_fields=["status", "ended_at"])
    _offer_on_locked_session(session=session, now=now)


def _close_lapsed_offers(*, session, now) -> None:
    """Offers whose hold was paid become BOOKED; those whose hold lapsed or was dropped become EXPIRED (once)."""
    offered = WaitlistEntry.objects.filter(session=session, status=WaitlistStatus.OFFERED).select_related("reservation")
    for entry in offered:
        hold = entry.reservation
        if hold is not None and hold.status == ReservationStatus.CONFIRMED:
            entry.status = WaitlistStatus.BOOKED
        elif hold is not None and hold.status == ReservationStatus.HELD and hold.hold_expires_at > now:
            continue
        else:
            entry.status = WaitlistStatus.EXPIRED
        entry.ended_at = now
        entry.save(update_fields=["status", "ended_at"])


def _offer_on_locked_session(*, session, now) -> list[WaitlistEntry]:
    """Under the session lock: offer the free seats to the line, in order. Returns the entries offered or booked."""
    reservations_release_expired(session_id=session.pk, now=now)
    _close_lapsed_offers(session=session, now=now)
    if now >= offers_close_at(session) or _session_cancelled(session):
        return []
    seats = session_seats_left(session=session, now=now)
    offered = []
    if seats <= 0:
        return offered
    waiting = WaitlistEntry.objects.filter(session=session, status=WaitlistStatus.WAITING).select_related("user")
    for entry in waiting.order_by("created_at", "id"):
        if seats <= 0:
            break
        if entry.participants > seats:
            continue
        if Reservation.objects.filter(
            session=session, user_id=entry.user_id, status__in=[ReservationStatus.HELD, ReservationStatus.CONFIRMED]
        ).exists():
            # The member booked directly meanwhile: the line no longer concerns them.
            _end(entry, WaitlistStatus.LEFT, now)
            continue
        if entry.auto_book:
            if in_quiet_hours(now):
                break  # no automatic booking at night: this entry keeps its place, the 08:00 sweep books it
            if _auto_book(entry=entry, session=session, now=now):
                offered.append(entry)
                seats -= entry.participants
            continue
        _offer_hold(entry=entry, session=session, now=now)
        offered.append(entry)
        seats -= entry.participants
    return offered


def _end(entry: WaitlistEntry, status: str, now) -> None:
    entry.status = status
    entry.ended_at = now
    entry.save(update_fields=["status", "ended_at"])


def _reservation_fields(entry: WaitlistEntry, session) -> dict:
    user = entry.user
    return {
        "session": session,
        "user": user,
        "participants": entry.participants,
        "unit_price": session.price_per_participant,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "email": user.email,
    }


def _auto_book(*, entry: WaitlistEntry, session, now) -> bool:
    """Book with the entry's pass when it pays now and its plan's rules allow it today (under its lock), as a direct
    booking would; otherwise skip the entry, charging nothing, and tell the member why."""
    pass_obj = lock_pass(entry.pass_ref_id, member=entry.user) if entry.pass_ref_id else None
    try:
        if pass_obj is None:
            raise PassError.of("pass_not_found")
        credits = pass_check_booking(
            pass_obj=pass_obj, session=session, participants=entry.participants, today=timezone.localdate(now)
        )
    except PASS_REFUSALS as refusal:
        return _skip(entry, now, reason=refusal.message)
    lock_member_bookings(member_id=entry.user_id)
    other = overlapping_booking(member_id=entry.user_id, session=session, now=now)
    if other is not None:
        start = timezone.localtime(other.session.start)
        return _skip(entry, now, reason=MSG_WAITLIST_OVERLAP.format(course=other.session.course, time=f"{start:%H:%M}"))
    reservation = Reservation.objects.create(
        **_reservation_fields(entry, session),
        status=ReservationStatus.CONFIRMED,
        confirmed_at=now,
        paid_with_pass=pass_obj,
        credits_spent=credits,
    )
    if credits:
        pass_obj.credits_left -= credits
        pass_obj.save(update_fields=["credits_left"])
    PassAdjustment.objects.create(
        pass_ref=pass_obj, action=PassAdjustmentAction.SPEND, credits_delta=-credits, reservation=reservation
    )
    entry.status = WaitlistStatus.BOOKED
    entry.offered_at = now
    entry.ended_at = now
    entry.reservation = reservation
    entry.save(update_fields=["status", "offered_at", "ended_at", "reservation"])
    late_cancellations_settle_after_commit(session=session, now=now)
    enqueue_after_commit(waitlist_email_send, kind="waitlist_booked", entry_id=entry.pk)
    waitlist_push(entry=entry, session=session, booked=True)
    return True


def _skip(entry: WaitlistEntry, now, *, reason: str) -> bool:
    """The entry's turn passes without a booking or a charge; the member is told why by e-mail."""
    _end(entry, WaitlistStatus.SKIPPED, now)
    enqueue_after_commit(waitlist_email_send, kind="waitlist_skipped", entry_id=entry.pk, reason=reason)
    return False


def _offer_hold(*, entry: WaitlistEntry, session, now) -> None:
    expires = min(now + timedelta(hours=WAITLIST_OFFER_HOURS), offers_close_at(session))
    reservation = Reservation.objects.create(
        **_reservation_fields(entry, session), status=ReservationStatus.HELD, hold_expires_at=expires
    )
    entry.status = WaitlistStatus.OFFERED
    entry.offered_at = now
    entry.offer_expires_at = expires
    entry.reservation = reservation
    entry.save(update_fields=["status", "offered_at", "offer_expires_at", "reservation"])
    enqueue_after_commit(waitlist_email_send, kind="waitlist_offered", entry_id=entry.pk)
    waitlist_push(entry=entry, session=session, booked=False)


@task
def waitlist_email_send(kind: str, entry_id: int, reason: str = "") -> None:
    """A waiting-list e-mail (an offer, a booking made with the pass, a skipped turn), recorded in the outbox;
    queued after the commit of the offer, which stands even if the mail cannot be recorded (the task fails alone)."""
    send_waitlist_email(kind=kind, entry_id=entry_id, reason=reason)


@transaction.atomic
def waitlist_offer_freed_seats(*, session_id: int, now=None) -> list[WaitlistEntry]:
    """Offer a session's free seats to its line, in one transaction under the session lock. Idempotent."""
    now = now or timezone.now()
    session = lock_session(session_id)
    if session is None:
        return []
    return _offer_on_locked_session(session=session, now=now)


@task
def waitlist_offer_session(session_id: int) -> int:
    """Offer a session's freed seats to its waiting list: queued after the commit of a write that freed seats (a
    cancellation, a raise of the places, a released hold); the scheduler's sweep every minute is the safety net."""
    return len(waitlist_offer_freed_seats(session_id=session_id))


def waitlist_sweep(*, now=None) -> int:
    """The scheduler's pass over every upcoming session with a live line: unclaimed offers pass on, freed seats are
    offered. One transaction per session, each under its lock: two schedulers running it at once offer each seat
    once. Returns how many entries were offered or booked."""
    now = now or timezone.now()
    session_ids = (
        WaitlistEntry.objects.filter(status__in=WAITLIST_LIVE_STATUSES, session__start__gt=now)
        .values_list("session_id", flat=True)
        .distinct()
    )
    return sum(len(waitlist_offer_freed_seats(session_id=pk, now=now)) for pk in sorted(set(session_ids)))
