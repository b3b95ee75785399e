"""Capture an order once and fulfil it once: what is confirmed equals what was paid, under the order's row lock.

Provider calls (HTTP) run outside database transactions; every state change then happens under a row lock on the
PaymentOrder (the lock order of docs/architecture.md), so two captures, or a capture and a webhook, fulfil an order
exactly once (docs/decisions.md 14).

A reservation has at most one live order (CREATED, APPROVED, DECLINED or COMPLETED; a database constraint),
and money captured for nothing in return (seats lost, reservation changed or paid already, order cancelled) is never
kept: the order becomes REFUND_PENDING under its lock, the provider refunds it after the commit (idempotency key
`refund-<order id>`), then REFUNDED, the member told in the answer and by e-mail.
"""

import logging

from bookings.models import Reservation, ReservationStatus

from ..models import PaymentOrder, PaymentStatus
from ..provider_types import (
    CAPTURE_COMPLETED,
    CAPTURE_DECLINED,
    CAPTURE_FAILED,
    CAPTURE_PENDING,
    ProviderCapture,
    ProviderError,
)
from ..providers import get_provider
from ..simulator import (
    ISSUE_AUTHENTICATION_FAILED,
    ISSUE_AUTHENTICATION_REQUIRED,
    RAW_SCENARIO,
    SCENARIO_DECLINED,
)
from .common import (
    MSG_AUTHENTICATION_PENDING,
    MSG_AUTHENTICATION_REFUSED,
    MSG_BANK_DECLINED,
    MSG_BANK_DECLINED_HOLD,
    MSG_DECLINED,
    MSG_DECLINED_TARIFF,
    MSG_NOT_APPROVED,
    MSG_PENDING,
    OPEN_STATUSES,
    CaptureOutcome,
    PaymentError,
    _local,
    _mark,
    _owned_order,
)
from .fulfilment import payment_order_fulfil
from .offers import order_gift_card_release
from .provider_choice import provider_order_voided
from .refunds import _refund_outcome, payment_order_refund
from .simulator_approval import NOT_PAID, simulator_order_approve, simulator_order_authenticate

# Fulfilment and the simulator's approval have modules of their own; the checkout and simulator APIs, the webhooks,
# the desk and other apps import their names from here, with the capture's.
__all__ = [
    "CAPTURE_REFUSALS",
    "NOT_PAID",
    "payment_order_cancel",
    "payment_order_capture",
    "payment_order_fulfil",
    "simulator_order_approve",
    "simulator_order_authenticate",
]

logger = logging.getLogger(__name__)

# A capture refused for a reason the member can act on, by the provider's issue (the simulator's 3-D Secure, and
# PayPal's name for the same step); any other refusal says the payment was not validated.
CAPTURE_REFUSALS = {
    ISSUE_AUTHENTICATION_REQUIRED: MSG_AUTHENTICATION_PENDING,
    ISSUE_AUTHENTICATION_FAILED: MSG_AUTHENTICATION_REFUSED,
}


def _declined_message(order: PaymentOrder, result: ProviderCapture | None = None) -> str:
    # The simulator's "declined" scenario says it as a French bank does; PayPal's decline and the simulator's
    # older "decline" outcome keep their words.
    by_bank = result is not None and result.raw.get(RAW_SCENARIO) == SCENARIO_DECLINED
    if order.reservation_id:
        reservation = Reservation.objects.only("hold_expires_at", "status").get(pk=order.reservation_id)
        if reservation.status == ReservationStatus.HELD and reservation.hold_expires_at:
            until = _local(reservation.hold_expires_at).strftime("%H:%M")
            return (MSG_BANK_DECLINED_HOLD if by_bank else MSG_DECLINED).format(until=until)
    return MSG_BANK_DECLINED if by_bank else MSG_DECLINED_TARIFF


def _apply_capture(order: PaymentOrder, result: ProviderCapture) -> CaptureOutcome:
    if result.capture_status == CAPTURE_COMPLETED or (result.order_status == "COMPLETED" and not result.capture_status):
        return payment_order_fulfil(
            order_id=order.order_id,
            capture_id=result.capture_id,
            amount=result.amount,
            currency=result.currency,
            order_pk=order.pk,
        )
    if result.capture_status in (CAPTURE_DECLINED, CAPTURE_FAILED):
        order = _mark(order_id=order.order_id, status=PaymentStatus.DECLINED, only_from=OPEN_STATUSES)
        return CaptureOutcome(order=order, completed=False, message=_declined_message(order, result))
    if result.capture_status == CAPTURE_PENDING:
        order = _mark(order_id=order.order_id, status=PaymentStatus.APPROVED, note=MSG_PENDING, only_from=OPEN_STATUSES)
        return CaptureOutcome(order=order, completed=False, message=MSG_PENDING)
    return CaptureOutcome(order=order, completed=False, message=MSG_NOT_APPROVED)


def payment_order_capture(*, order_id: str, user) -> CaptureOutcome:
    """Capture an approved order for its member. Capturing a paid order again answers the same success."""
    order = _owned_order(order_id=order_id, user=user)
    if order.status == PaymentStatus.COMPLETED:
        return CaptureOutcome(order=order, completed=True, message=order.provider_note)
    if order.status == PaymentStatus.REFUND_PENDING:
        return _refund_outcome(payment_order_refund(order_id=order.order_id))
    if order.status == PaymentStatus.REFUNDED and order.capture_id:
        return _refund_outcome(order)  # captured, then refunded: say so again
    if order.status in (PaymentStatus.VOIDED, PaymentStatus.REFUNDED):
        raise PaymentError.of("order_closed")
    provider = get_provider()
    if provider.name != order.provider:
        raise PaymentError.of("order_closed")
    try:
        # One idempotency key per order: PayPal answers a retried capture with the first capture's result.
        result = provider.capture_order(order_id=order.order_id, request_id=f"capture-{order.order_id}")
    except ProviderError as exc:
        logger.warning("Capture of %s refused: %s (%s)", order_id, exc.message, exc.issue)
        if exc.status_code is None or exc.status_code >= 500:
            raise PaymentError.of("provider_down") from exc
        return CaptureOutcome(order=order, completed=False, message=CAPTURE_REFUSALS.get(exc.issue, MSG_NOT_APPROVED))
    return _apply_capture(order, result)


def payment_order_cancel(*, order_id: str, user) -> PaymentOrder:
    """The buyer closed the payment window: an open order becomes VOIDED. The reservation keeps its hold."""
    order = _owned_order(order_id=order_id, user=user)
    order = _mark(order_id=order.order_id, status=PaymentStatus.VOIDED, only_from=OPEN_STATUSES)
    if order.status != PaymentStatus.VOIDED:
        # Paid, refunded or being refunded: saying "cancelled" (200) would mislead a client that reads the status.
        raise PaymentError.of("order_not_cancellable")
    provider_order_voided(order)
    order_gift_card_release(order_id=order.order_id)
    return order
