"""Late cancellations (docs/decisions.md 44): what a member paid for a class they cancelled inside its
free-cancellation window comes back only if the class fills back before it starts.

A late cancellation records the class's confirmed seats just before it (`seats_taken_before`). Every path that
confirms seats on a class (a card payment's capture, a booking with a pass, the waiting list's automatic booking, a
walk-in) queues `late_cancellations_settle_task` after its commit, with the moment of the confirmation; the task, in
its own transaction under the session lock, gives back to each pending late cancellation whose class is back to that
level, if the seat was taken before the start: once, the credits on its class card or, for a card payment, an
'avoir' (a class card of one credit per participant, as a cancellation in time gets), and an e-mail. A
subscription's place and a free booking have nothing to give back: no late cancellation is recorded. A class the
studio cancels gives back its pending late cancellations too (class_cancellation.py, under the same locks).

Its own transaction keeps the lock order of locking.py (session → passes, by id → rows): the booking that took the
seat has locked its own pass and reservation already, and the pass given back may be another member's. Late
cancellation rows are created and changed only under their session's lock, which orders them.
"""

from datetime import datetime

from django.db import transaction
from django.db.models import Sum
from django.tasks import task
from django.utils import timezone

from courses.models import CourseSession
from courses.services.locking import lock_session
from studio.queue import enqueue_after_commit

from ..cancellation_emails import send_late_cancellation_returned
from ..models import (
    DeskPayment,
    Pass,
    PassAdjustment,
    PassAdjustmentAction,
    PassKind,
    PassOrigin,
    Reservation,
    ReservationStatus,
)
from ..models_operations import LateCancellation, LateCancellationStatus
from .common import _fr_date, add_months
from .locking import lock_pass

CANCELLATION_CREDIT_TITLE = "Avoir d'annulation"
CANCELLATION_CREDIT_MONTHS = 6  # a reservation paid by card and cancelled becomes credits valid 6 months

MSG_CANCELLED_LATE = (
    "Annulation tardive enregistrée : votre place est remise en vente. Le studio conserve {what}, sauf si la place "
    "est reprise avant le cours : {back} vous sera alors rendu automatiquement."
)
LATE_KEPT_CREDITS = "le(s) {credits} crédit(s) utilisé(s)"
LATE_BACK_CREDITS = "le crédit"
LATE_KEPT_PAYMENT = "votre paiement"
LATE_BACK_PAYMENT = "un avoir"
MSG_CANCELLED_LATE_NOTHING = "Annulation tardive enregistrée : votre place est remise en vente."
RETURNED_CREDITS = "Les {credits} crédit(s) utilisé(s) sont rendus sur votre {title}."
RETURNED_AVOIR = "Un avoir de {credits} crédit(s) valable(s) jusqu'au {date} est ajouté à vos cartes."
RETURN_REASON = "Annulation tardive : place reprise"
RETURN_REASON_CLASS_CANCELLED = "Annulation tardive : cours annulé par le studio"


def paid_in_money(reservation: Reservation) -> bool:
    """Whether the member paid money for the booking (by card or at the desk): a booking "à régler" at the desk
    (docs/decisions.md 50) has not been paid, so cancelling it gives nothing back and keeps nothing."""
    return reservation.total_amount > 0 and reservation.desk_payment != DeskPayment.DUE


def late_cancellation_message(reservation: Reservation) -> str:
    """What the member is told when they cancel late: what the studio keeps, unless the seat is taken again."""
    pass_obj = reservation.paid_with_pass
    if pass_obj is not None:
        if pass_obj.kind == PassKind.CARD and reservation.credits_spent:
            what = LATE_KEPT_CREDITS.format(credits=reservation.credits_spent)
            return MSG_CANCELLED_LATE.format(what=what, back=LATE_BACK_CREDITS)
        return MSG_CANCELLED_LATE_NOTHING
    if paid_in_money(reservation):
        return MSG_CANCELLED_LATE.format(what=LATE_KEPT_PAYMENT, back=LATE_BACK_PAYMENT)
    return MSG_CANCELLED_LATE_NOTHING


def has_something_to_give_back(reservation: Reservation) -> bool:
    pass_obj = reservation.paid_with_pass
    if pass_obj is not None:
        return pass_obj.kind == PassKind.CARD and reservation.credits_spent > 0
    return paid_in_money(reservation)


def confirmed_seats(session_id: int) -> int:
    return (
        Reservation.objects.filter(session_id=session_id, status=ReservationStatus.CONFIRMED).aggregate(
            total=Sum("participants")
        )["total"]
        or 0
    )


def late_cancellation_record(*, reservation: Reservation, seats_taken_before: int) -> LateCancellation | None:
    """Under the session and reservation locks, in the cancellation's transaction: remember what may come back."""
    if not has_something_to_give_back(reservation):
        return None
    return LateCancellation.objects.create(
        reservation=reservation, session_id=reservation.session_id, seats_taken_before=seats_taken_before
    )


def cancellation_credit_pass_create(*, reservation: Reservation, now: datetime) -> Pass:
    """An 'avoir' for a reservation paid by card: a class card of one credit per participant, valid
    CANCELLATION_CREDIT_MONTHS months, tied to the reservation (once: `source_reservation` is unique)."""
    today = timezone.localdate(now)
    expires_on = add_months(today, CANCELLATION_CREDIT_MONTHS)
    credit_pass = Pass.objects.create(
        member_id=reservation.user_id,
        kind=PassKind.CARD,
        origin=PassOrigin.CANCELLATION,
        title=CANCELLATION_CREDIT_TITLE,
        credits_total=reservation.participants,
        credits_left=reservation.participants,
        starts_on=today,
        expires_on=expires_on,
        source_reservation=reservation,
    )
    PassAdjustment.objects.create(
        pass_ref=credit_pass,
        action=PassAdjustmentAction.CANCELLATION_CREDIT,
        credits_delta=reservation.participants,
        expires_on_after=expires_on,
        reservation=reservation,
        reason=f"Annulation de la réservation {reservation.pk}",
    )
    return credit_pass


def late_cancellations_settle_after_commit(*, session: CourseSession, now: datetime) -> None:
    """Seats were just confirmed on the session at `now`: settle its late cancellations once this commits (cheap when
    there are none: the session's pending rows are read first, in the booking's transaction)."""
    if (
        now < session.start
        and LateCancellation.objects.filter(session_id=session.pk, status=LateCancellationStatus.PENDING).exists()
    ):
        enqueue_after_commit(late_cancellations_settle_task, session_id=session.pk, at=now.isoformat())


@task
def late_cancellations_settle_task(session_id: int, at: str) -> int:
    """Give back what a class filling back makes good (queued after the commit of a confirmation). Idempotent."""
    return len(late_cancellations_settle(session_id=session_id, at=datetime.fromisoformat(at)))


@transaction.atomic
def late_cancellations_settle(*, session_id: int, at: datetime) -> list[LateCancellation]:
    """Under the session lock: each pending late cancellation whose class is back to its level gets what it paid
    back, if seats were confirmed (`at`) before the class started. Idempotent (a RETURNED row is never read again).
    Returns the late cancellations given back now."""
    session = lock_session(session_id)
    if session is None or at >= session.start:
        return []
    pending = late_cancellations_pending(session.pk)
    seats = confirmed_seats(session.pk) if pending else 0
    due = [late for late in pending if seats >= late.seats_taken_before]
    pass_ids = sorted({late.reservation.paid_with_pass_id for late in due if late.reservation.paid_with_pass_id})
    passes = {pass_id: lock_pass(pass_id) for pass_id in pass_ids}  # by id: two settlements never cross
    now = timezone.now()
    for late in due:
        late_cancellation_give_back(late=late, pass_obj=passes.get(late.reservation.paid_with_pass_id), now=now)
    return due


def late_cancellations_pending(session_id: int) -> list[LateCancellation]:
    """Under the session lock: its late cancellations whose credit the studio still keeps, oldest first."""
    return list(
        LateCancellation.objects.filter(session_id=session_id, status=LateCancellationStatus.PENDING)
        .select_related("reservation")
        .order_by("cancelled_at", "id")
    )


def late_cancellation_give_back(
    *, late: LateCancellation, pass_obj: Pass | None, now: datetime, class_cancelled: bool = False
) -> None:
    """Under the session lock and the lock of the reservation's pass (`pass_obj`, None for a card payment): give
    back once what the late cancellation kept, and e-mail the member after the commit. `class_cancelled`: the studio
    cancelled the class, so it keeps nothing of it either."""
    reservation = late.reservation
    if pass_obj is not None:
        pass_obj.credits_left += reservation.credits_spent
        pass_obj.save(update_fields=["credits_left"])
        PassAdjustment.objects.create(
            pass_ref=pass_obj,
            action=PassAdjustmentAction.RETURN,
            credits_delta=reservation.credits_spent,
            reservation=reservation,
            reason=RETURN_REASON_CLASS_CANCELLED if class_cancelled else RETURN_REASON,
        )
        outcome = RETURNED_CREDITS.format(credits=reservation.credits_spent, title=pass_obj.title)
    else:
        credit_pass = cancellation_credit_pass_create(reservation=reservation, now=now)
        outcome = RETURNED_AVOIR.format(credits=credit_pass.credits_total, date=_fr_date(credit_pass.expires_on))
    late.status, late.returned_at = LateCancellationStatus.RETURNED, now
    late.save(update_fields=["status", "returned_at"])
    enqueue_after_commit(
        late_cancellation_returned_send, late_cancellation_id=late.pk, outcome=outcome, class_cancelled=class_cancelled
    )


@task
def late_cancellation_returned_send(late_cancellation_id: int, outcome: str, class_cancelled: bool = False) -> None:
    """The e-mail telling a member their seat was taken again (or the class cancelled by the studio) and what came
    back; queued after the commit."""
    send_late_cancellation_returned(
        late_cancellation_id=late_cancellation_id, outcome=outcome, class_cancelled=class_cancelled
    )
