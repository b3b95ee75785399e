"""The studio cancels a class (docs/decisions.md 27, 35).

In one transaction, under the documented locks (locking.py: session → passes → reservations), the session becomes
"Annulé" with its reason, and every booking of it held or confirmed is cancelled with the session's own
`cancelled_at` and the reason "studio" (`CancelReason.STUDIO`: how payments tells these cancellations from a
member's own): credits spent on a class card
go back to it (a ledger line), a subscription simply frees the place, the waiting list is cleared. After the
commit, `session_cancelled` is sent with the cancelled reservations (payments refunds in full the card payments that
confirmed them, in tasks, retried until done) and every member whose booking was confirmed is e-mailed the reason with
an iCalendar CANCEL of the event their confirmation carried (a task per e-mail, queued after the commit).

A card payment captured later for a hold of this class finds the reservation cancelled and is refunded by the capture
itself (docs/decisions.md 14): whatever the order of a cancellation, a booking and a capture, no booking stays
confirmed and every payment is refunded once.
"""

from dataclasses import dataclass, field

from django.db import transaction
from django.tasks import task
from django.utils import timezone

from courses.models import CourseSession, SessionStatus
from courses.services.locking import lock_session
from studio.cache import bump_public_cache
from studio.errors import CONFLICT
from studio.queue import enqueue_after_commit

from ..cache import bump_session_feeds
from ..cancellation_emails import send_class_cancelled, send_waitlist_class_cancelled
from ..models import CancelReason, PassAdjustment, PassAdjustmentAction, PassKind, Reservation, ReservationStatus
from ..models_operations import WaitlistEntry, WaitlistStatus
from ..signals import session_cancelled
from .common import SessionError
from .late_cancellation import late_cancellation_give_back, late_cancellations_pending
from .locking import lock_pass
from .phone_pushes import class_cancelled_push

MSG_SESSION_CANCELLED = (
    "Le cours est annulé : {count} réservation(s) annulée(s), les inscrits sont prévenus par e-mail."
)
MSG_CANCEL_REASON_REQUIRED = "Indiquez le motif de l'annulation : il est envoyé aux inscrits."
MSG_SESSION_ALREADY_CANCELLED = "Ce cours est déjà annulé."
MSG_SESSION_CANCEL_PAST = "Ce cours a déjà eu lieu : il ne peut plus être annulé."
MAX_REASON_LENGTH = 1000


class ClassCancellationError(SessionError):
    """A refused class cancellation (404 for an unknown session, 409 when already cancelled or past)."""

    messages = {
        **SessionError.messages,
        "cancel_reason_required": MSG_CANCEL_REASON_REQUIRED,
        "session_already_cancelled": MSG_SESSION_ALREADY_CANCELLED,
        "session_cancel_past": MSG_SESSION_CANCEL_PAST,
    }
    statuses = {**SessionError.statuses, "session_already_cancelled": CONFLICT, "session_cancel_past": CONFLICT}


@dataclass(frozen=True)
class ClassCancellation:
    session: CourseSession
    cancelled_reservation_ids: list[int] = field(default_factory=list)
    credits_returned: dict[int, int] = field(default_factory=dict)  # reservation id → credits back on its card

    @property
    def message(self) -> str:
        return MSG_SESSION_CANCELLED.format(count=len(self.cancelled_reservation_ids))


def _live(session_id: int):
    return Reservation.objects.filter(
        session_id=session_id, status__in=[ReservationStatus.HELD, ReservationStatus.CONFIRMED]
    )


@transaction.atomic
def course_session_cancel(*, session_id: int, reason: str) -> ClassCancellation:
    """Cancel a class that has not started: see the module's docstring. Refused when already cancelled or past."""
    reason = (reason or "").strip()
    if not reason:
        raise ClassCancellationError.of("cancel_reason_required", field="reason")
    session = lock_session(session_id)
    if session is None:
        raise ClassCancellationError.of("session_not_found")
    if session.status == SessionStatus.CANCELLED:
        raise ClassCancellationError.of("session_already_cancelled")
    now = timezone.now()
    if session.end <= now:
        raise ClassCancellationError.of("session_cancel_past")
    # Under the session lock no booking of this session can appear or change (every writer locks it first).
    # A late cancellation of this class gets its credit back too: the studio keeps nothing of a class it cancels.
    late_ones = late_cancellations_pending(session.pk)
    live_pass_ids = set(_live(session.pk).values_list("paid_with_pass_id", flat=True))
    late_pass_ids = {late.reservation.paid_with_pass_id for late in late_ones}
    pass_ids = sorted(pid for pid in live_pass_ids | late_pass_ids if pid)
    passes = {pid: lock_pass(pid) for pid in pass_ids}  # by id (locking.py)
    reservations = list(_live(session.pk).select_for_update().order_by("pk"))
    credits_returned: dict[int, int] = {}
    confirmed_ids = [r.pk for r in reservations if r.status == ReservationStatus.CONFIRMED]
    for reservation in reservations:
        reservation.status, reservation.cancelled_at = ReservationStatus.CANCELLED, now
        reservation.cancel_reason = CancelReason.STUDIO  # payments refunds these in full (docs/decisions.md 27)
        reservation.save(update_fields=["status", "cancelled_at", "cancel_reason"])
        pass_obj = passes.get(reservation.paid_with_pass_id)
        if pass_obj is not None and pass_obj.kind == PassKind.CARD and reservation.credits_spent:
            pass_obj.credits_left += reservation.credits_spent
            pass_obj.save(update_fields=["credits_left"])
            PassAdjustment.objects.create(
                pass_ref=pass_obj,
                action=PassAdjustmentAction.RETURN,
                credits_delta=reservation.credits_spent,
                reservation=reservation,
                reason=f"Cours annulé par le studio : {reason}",
            )
            credits_returned[reservation.pk] = reservation.credits_spent
    for late in late_ones:
        late_cancellation_give_back(
            late=late, pass_obj=passes.get(late.reservation.paid_with_pass_id), now=now, class_cancelled=True
        )
    # The waiting list is cleared (docs/decisions.md 27): no one waits for, nor is offered, a class that will not
    # happen; each member who was on it is told.
    waiting = WaitlistEntry.objects.filter(
        session_id=session.pk, status__in=[WaitlistStatus.WAITING, WaitlistStatus.OFFERED]
    )
    waiting_ids = list(waiting.order_by("pk").values_list("pk", flat=True))
    waiting.update(status=WaitlistStatus.EXPIRED, ended_at=now)
    session.status, session.cancelled_at, session.cancellation_reason = SessionStatus.CANCELLED, now, reason
    session.save(update_fields=["status", "cancelled_at", "cancellation_reason"])
    ids = [r.pk for r in reservations]
    transaction.on_commit(
        lambda: session_cancelled.send(sender=CourseSession, session_id=session.pk, reservation_ids=ids)
    )
    for reservation_id in confirmed_ids:
        enqueue_after_commit(class_cancelled_email_send, reservation_id=reservation_id)
    for entry_id in waiting_ids:
        enqueue_after_commit(waitlist_class_cancelled_email_send, entry_id=entry_id)
    confirmed_user_ids = [r.user_id for r in reservations if r.pk in confirmed_ids]
    class_cancelled_push(session=session, user_ids=confirmed_user_ids, reason=reason, now=now)
    bump_public_cache()
    bump_session_feeds(session)
    return ClassCancellation(session=session, cancelled_reservation_ids=ids, credits_returned=credits_returned)


@task
def class_cancelled_email_send(reservation_id: int) -> None:
    """A booked member's e-mail of a class the studio cancelled (the reason, what happens to the payment, the
    calendar CANCEL), recorded in the outbox; queued after the cancellation's commit."""
    send_class_cancelled(reservation_id=reservation_id)


@task
def waitlist_class_cancelled_email_send(entry_id: int) -> None:
    """A waiting member's e-mail of a class the studio cancelled; queued after the cancellation's commit."""
    send_waitlist_class_cancelled(entry_id=entry_id)
