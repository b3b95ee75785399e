"""Staff edits of payment orders (create, update, delete). The API's serializer has already checked and typed the
values (payments/apis/staff.py); these functions apply the studio's rules: euros only, one order id, and a payment
that moved money is never deleted."""

from django.db import IntegrityError, transaction
from django.db.models import ProtectedError, RestrictedError

from ..choices import CURRENCY_EUR
from ..models import PaymentOrder, PaymentStatus
from ..signals import payment_completed, payment_refunded
from .common import (
    PaymentError,
    reservation_payment_follow,
)
from .locking import lock_payment_order

__all__ = [
    "STAFF_FIELDS",
    "STAFF_REQUIRED",
    "payment_order_staff_create",
    "payment_order_staff_delete",
    "payment_order_staff_update",
]

STAFF_FIELDS = ("order_id", "email", "first_name", "last_name", "title", "amount", "date", "time", "type", "status")
STAFF_REQUIRED = ("email", "order_id", "amount", "title", "date", "time")


def _staff_values(data: dict) -> dict:
    """The model fields of a staff edit: the known names only, in euros (docs/decisions.md 16); a blank status or type
    keeps the order's (or the model's default)."""
    values = {name: data[name] for name in (*STAFF_FIELDS, "message") if data.get(name) is not None}
    if any(values.get(name) in (None, "") for name in STAFF_REQUIRED):
        raise PaymentError.of("required_fields")
    for name in ("status", "type"):
        if values.get(name) == "":
            values.pop(name)
    values["currency"] = CURRENCY_EUR
    return values


def payment_order_staff_create(*, data: dict) -> PaymentOrder:
    values = _staff_values(data)
    if PaymentOrder.objects.filter(order_id=values["order_id"]).exists():
        raise PaymentError.of("order_id_taken")
    try:
        with transaction.atomic():
            order = PaymentOrder.objects.create(provider="manual", **values)
            _announce_status_change(order=order, before="")
            return order
    except IntegrityError:
        raise PaymentError.of("order_id_taken") from None


# Staff closing a completed payment (docs/decisions.md 33): the money went back or the payment is void.
CLOSED_AFTER_PAYMENT = (PaymentStatus.VOIDED, PaymentStatus.REFUNDED)


def _announce_status_change(*, order: PaymentOrder, before: str) -> None:
    """A payment staff recorded as completed is invoiced; one they void or mark refunded gets its credit note
    (docs/decisions.md 40: invoices' receivers, in this transaction)."""
    if order.status == before:
        return
    reservation_payment_follow(order)
    if order.status == PaymentStatus.COMPLETED:
        payment_completed.send(sender=PaymentOrder, order_id=order.pk)
    elif before == PaymentStatus.COMPLETED and order.status in CLOSED_AFTER_PAYMENT:
        payment_refunded.send(sender=PaymentOrder, order_id=order.pk, reason=order.message)


@transaction.atomic
def payment_order_staff_update(*, order_id: str, data: dict) -> PaymentOrder:
    order = lock_payment_order(order_id, missing_ok=True)
    if order is None:
        raise PaymentError.of("order_not_found")
    values = _staff_values(data)
    if values["order_id"] != order.order_id and PaymentOrder.objects.filter(order_id=values["order_id"]).exists():
        raise PaymentError.of("order_id_taken")
    before = order.status
    for name, value in values.items():
        setattr(order, name, value)
    try:
        with transaction.atomic():
            order.save()
            _announce_status_change(order=order, before=before)
    except IntegrityError:
        raise PaymentError.of("order_live_taken") from None  # one live order per reservation (docs/decisions.md 14)
    return order


def payment_order_staff_delete(*, order_id: str) -> None:
    """Delete an order typed in by mistake. A payment that moved money stays in the records (docs/decisions.md 33)."""
    order = PaymentOrder.objects.filter(order_id=order_id).first()
    if order is None:
        raise PaymentError.of("order_not_found")
    if order.capture_id or order.status in (PaymentStatus.COMPLETED, PaymentStatus.REFUND_PENDING):
        raise PaymentError.of("paid_not_deleted")
    try:
        deleted, _ = PaymentOrder.objects.filter(pk=order.pk).exclude(status=PaymentStatus.COMPLETED).delete()
    except (ProtectedError, RestrictedError):  # an invoice or a credit note refers to it: the accounting records stay
        raise PaymentError.of("paid_not_deleted") from None
    if not deleted:
        raise PaymentError.of("paid_not_deleted")
