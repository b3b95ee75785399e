"""Card payments of a class the studio cancelled are refunded in full (docs/decisions.md 27).

bookings cancels the class and sends `session_cancelled` after its commit; payments' receiver queues
`payment_cancelled_class_refund` (below), which calls `payment_orders_refund_cancelled_class`. Each paid
order whose reservation the cancellation itself cancelled (bookings records it with the reason "studio", so a
member's own earlier cancellation, which became an 'avoir', is left alone) becomes REFUND_PENDING under its row lock,
with the reason recorded on the order; then the provider refunds it (idempotency key `refund-<order id>`) and it becomes
REFUNDED. A refund the provider could not take stays REFUND_PENDING for `payment_refunds_retry`, and the periodic
sweep (no reservation ids) finds any order a lost task never marked: every payment is refunded once, until done.
"""

import logging

from django.db import transaction
from django.db.models import Q
from django.tasks import task
from django.utils import timezone

from bookings.models import CancelReason, Reservation, ReservationStatus
from courses.models import SessionStatus

from ..models import PaymentOrder, PaymentStatus
from .refunds import payment_order_refund

logger = logging.getLogger(__name__)

MSG_CLASS_CANCELLED_REFUND = "Le cours « {title} » du {date} a été annulé par le studio."


def _class_cancelled_reason(*, title: str, start) -> str:
    return MSG_CLASS_CANCELLED_REFUND.format(title=title, date=f"{timezone.localtime(start):%d/%m/%Y}")


def class_cancelled_refund_reason(*, reservation_id: int) -> str:
    """Why money captured for this reservation goes back when the studio cancelled its class ('' when it did not,
    or when the member had cancelled the booking before: the money then goes back because it bought nothing, as
    docs/decisions.md 14 says)."""
    row = (
        Reservation.objects.filter(pk=reservation_id, session__status=SessionStatus.CANCELLED)
        .filter(~Q(status=ReservationStatus.CANCELLED) | Q(cancel_reason=CancelReason.STUDIO))
        .values_list("session__course__title", "session__start")
        .first()
    )
    return _class_cancelled_reason(title=row[0], start=row[1]) if row else ""


def cancelled_class_orders(*, session_id: int | None = None, reservation_ids=None):
    """Paid orders (still COMPLETED) of reservations a class cancellation cancelled."""
    orders = PaymentOrder.objects.filter(
        status=PaymentStatus.COMPLETED,
        reservation__status=ReservationStatus.CANCELLED,
        reservation__session__status=SessionStatus.CANCELLED,
        reservation__cancel_reason=CancelReason.STUDIO,
    )
    if session_id is not None:
        orders = orders.filter(reservation__session_id=session_id)
    if reservation_ids is not None:
        orders = orders.filter(reservation_id__in=list(reservation_ids))
    return orders


def _mark_refund_pending(order_id: str) -> bool:
    with transaction.atomic():
        order = (
            PaymentOrder.objects.select_for_update(of=("self",))
            .select_related("reservation__session__course")
            .get(order_id=order_id)
        )
        if order.status != PaymentStatus.COMPLETED:
            return False
        session = order.reservation.session
        order.status = PaymentStatus.REFUND_PENDING
        order.provider_note = _class_cancelled_reason(title=session.course.title, start=session.start)
        order.save(update_fields=["status", "provider_note", "updated_at"])
        return True


def payment_orders_refund_cancelled_class(*, session_id: int | None = None, reservation_ids=None) -> int:
    """Refund in full the card payments of a cancelled class (all cancelled classes when no session is given).
    Idempotent and safe to run from several workers at once. Returns how many orders are now REFUNDED."""
    order_ids = list(
        cancelled_class_orders(session_id=session_id, reservation_ids=reservation_ids).values_list(
            "order_id", flat=True
        )
    )
    for order_id in order_ids:
        _mark_refund_pending(order_id)
    pending = PaymentOrder.objects.filter(
        status=PaymentStatus.REFUND_PENDING, reservation__session__status=SessionStatus.CANCELLED
    )
    if session_id is not None:
        pending = pending.filter(reservation__session_id=session_id)
    done = 0
    for order_id in list(pending.values_list("order_id", flat=True)):
        if payment_order_refund(order_id=order_id).status == PaymentStatus.REFUNDED:
            done += 1
    return done


@task
def payment_cancelled_class_refund(session_id: int, reservation_ids: list[int]) -> int:
    """A class the studio cancelled (docs/decisions.md 27): refund its card payments in full, once each (queued by the
    receiver of bookings' `session_cancelled`)."""
    return payment_orders_refund_cancelled_class(session_id=session_id, reservation_ids=reservation_ids)
