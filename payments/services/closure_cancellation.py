"""Cancelling every class planned inside a closure of the studio (docs/decisions.md 27, 51): "Annuler les cours de la
fermeture".

Each class is cancelled exactly as staff cancel one (bookings' `course_session_cancel`: its locks, credits back,
waiting list cleared, e-mails, and `session_cancelled`, which queues the refunds of its card payments), one class per
transaction: a class cancelled is cancelled for good even if a later one fails, and running the action again cancels
only what is left. A class another staff member cancelled meanwhile (or one already over) is passed over, so two
staff running it at once cancel each class once and refund each booking once. It lives in payments because its answer
counts the refunds it queued, which bookings does not see."""

from dataclasses import dataclass

from django.utils import timezone

from bookings.services.class_cancellation import ClassCancellationError, course_session_cancel
from courses.models import CourseSession, SessionStatus
from courses.services.closures import closure_get_or_404

from ..models import PaymentOrder, PaymentStatus

# A captured card payment of a booking the class cancellation ended: refunded by the task it queued (whether the task
# already ran, failed for a retry, or waits).
_PAID = [PaymentStatus.COMPLETED, PaymentStatus.REFUND_PENDING, PaymentStatus.REFUNDED]


def _card_payments_of(reservation_ids: list[int]) -> int:
    if not reservation_ids:
        return 0
    return PaymentOrder.objects.filter(reservation_id__in=reservation_ids, status__in=_PAID).count()


MSG_CLOSURE_SESSIONS_CANCELLED = (
    "{sessions} cours annulé(s) pendant la fermeture « {label} » : {bookings} réservation(s) annulée(s), "
    "{refunds} remboursement(s) par carte en cours. Les inscrits sont prévenus par e-mail."
)
MSG_CLOSURE_NOTHING_TO_CANCEL = "Aucun cours à annuler pendant la fermeture « {label} »."

# Refusals that mean "nothing left to do for this class": another cancellation won, or the class is over.
_PASSED_OVER = {"session_already_cancelled", "session_cancel_past", "session_not_found"}


@dataclass(frozen=True)
class ClosureCancellation:
    label: str
    sessions_cancelled: int
    bookings_cancelled: int
    refunds_queued: int

    @property
    def message(self) -> str:
        if not self.sessions_cancelled:
            return MSG_CLOSURE_NOTHING_TO_CANCEL.format(label=self.label)
        return MSG_CLOSURE_SESSIONS_CANCELLED.format(
            sessions=self.sessions_cancelled,
            label=self.label,
            bookings=self.bookings_cancelled,
            refunds=self.refunds_queued,
        )


def closure_sessions_cancel(*, closure_id: int, reason: str) -> ClosureCancellation:
    """Cancel the classes not cancelled and not over inside the closure, each in its own transaction; the reason is
    required (class cancellation's French refusal) and sent to the members."""
    if not (reason or "").strip():
        raise ClassCancellationError.of("cancel_reason_required", field="reason")
    closure = closure_get_or_404(closure_id=closure_id)
    start, end = closure.bounds
    session_ids = list(
        CourseSession.objects.filter(start__gte=start, start__lt=end, end__gt=timezone.now())
        .exclude(status=SessionStatus.CANCELLED)
        .order_by("start", "pk")
        .values_list("pk", flat=True)
    )
    sessions = bookings = refunds = 0
    for session_id in session_ids:
        try:
            cancelled = course_session_cancel(session_id=session_id, reason=reason)
        except ClassCancellationError as exc:
            if exc.code in _PASSED_OVER:
                continue
            raise
        sessions += 1
        bookings += len(cancelled.cancelled_reservation_ids)
        refunds += _card_payments_of(cancelled.cancelled_reservation_ids)
    return ClosureCancellation(
        label=closure.label, sessions_cancelled=sessions, bookings_cancelled=bookings, refunds_queued=refunds
    )
