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
from contextlib import nullcontext
from decimal import Decimal

from django.db import transaction
from django.db.models import Case, F, Value, When
from django.utils import timezone

from bookings.models import Reservation, ReservationStatus
from bookings.services.common import ReservationError
from bookings.services.passes import pass_grant_for_order
from bookings.services.reservations import reservation_confirm_for_payment
from quotes.workflow import QuoteError
from studio.errors import ApplicationError

from ..choices import PaymentMethod, PaymentProviderName
from ..models import PaymentOrder, PaymentStatus, SimulatedChallenge
from ..provider_types import (
    CAPTURE_COMPLETED,
    CAPTURE_DECLINED,
    CAPTURE_FAILED,
    CAPTURE_PENDING,
    ProviderCapture,
    ProviderError,
)
from ..providers import get_provider
from ..signals import payment_completed
from ..simulator import (
    ISSUE_AUTHENTICATION_FAILED,
    ISSUE_AUTHENTICATION_REQUIRED,
    ISSUE_NO_CHALLENGE,
    METHOD_CARD,
    RAW_SCENARIO,
    SCENARIO_DECLINED,
    SCENARIO_SUCCESS,
    WALLET_APPLE_PAY,
    SimulatorProvider,
    method_label,
)
from ..subscriptions.services.common import subscription_start_for_order
from .class_refunds import class_cancelled_refund_reason
from .common import (
    MSG_AMOUNT_CAPTURED_MISMATCH,
    MSG_AUTHENTICATION_PENDING,
    MSG_AUTHENTICATION_REFUSED,
    MSG_BANK_DECLINED,
    MSG_BANK_DECLINED_HOLD,
    MSG_DECLINED,
    MSG_DECLINED_TARIFF,
    MSG_NOT_APPROVED,
    MSG_ORDER_WAS_CANCELLED,
    MSG_PENDING,
    OPEN_STATUSES,
    CaptureOutcome,
    PaymentError,
    _local,
    _mark,
    reservation_payment_follow,
)
from .deposits import deposit_record_for_order
from .locking import lock_payment_order
from .offers import order_gift_card_release, order_offers_settle, order_provider_amount
from .provider_choice import provider_order_voided
from .refunds import _refund_outcome, payment_order_refund

logger = logging.getLogger(__name__)

# A capture refused for a reason the member can act on, by the provider's issue (the simulator's 3-D Secure, and
# PayPal's name for the same step); any other refusal says the payment was not validated.
CAPTURE_REFUSALS = {
    ISSUE_AUTHENTICATION_REQUIRED: MSG_AUTHENTICATION_PENDING,
    ISSUE_AUTHENTICATION_FAILED: MSG_AUTHENTICATION_REFUSED,
}
# The code of every answer that says the member has not paid (the capture's 402 answers it too).
NOT_PAID = "payment_not_completed"
PAYMENT_REQUIRED = 402
PAYPAL_LABEL = "PayPal"

# --- capture and fulfilment ------------------------------------------------------------------------------------


def _owned_order(*, order_id: str, user) -> PaymentOrder:
    order = PaymentOrder.objects.filter(order_id=order_id).first()
    if order is None or (order.user_id != user.pk and not user.is_studio_staff):
        raise PaymentError.of("order_not_found")
    return order


def _lock_order(*, order_id: str, order_pk: int | None) -> PaymentOrder:
    """The order locked, by its key when the caller has read it already (the member's capture), else by its id."""
    if order_pk is None:
        return lock_payment_order(order_id)
    order = PaymentOrder.objects.select_for_update().filter(pk=order_pk).first()
    if order is None or order.order_id != order_id:
        raise PaymentOrder.DoesNotExist("PaymentOrder matching query does not exist.")
    return order


def payment_order_fulfil(
    *,
    order_id: str,
    capture_id: str = "",
    amount: Decimal | None = None,
    currency: str = "",
    order_pk: int | None = None,
) -> CaptureOutcome:
    """Money was captured for this order: confirm what it paid for and send one receipt, once. Idempotent.

    Called by the browser's capture and by PayPal's webhooks, possibly at the same moment: the row lock decides.
    What is confirmed equals what was paid (docs/decisions.md 14): the order must still be open and, for a reservation,
    the reservation still held, unpaid, with the participants and amount of the order and its seats. Otherwise nothing
    is confirmed and the money goes back (REFUND_PENDING, then the provider's refund after the commit). `order_pk`,
    when the caller has read the order already, locks the same row by its key.
    """
    with transaction.atomic():
        order = _lock_order(order_id=order_id, order_pk=order_pk)
        if order.status == PaymentStatus.COMPLETED:
            return CaptureOutcome(order=order, completed=True, message=order.provider_note)
        if order.status in (PaymentStatus.REFUND_PENDING, PaymentStatus.REFUNDED):
            return _refund_outcome(order)
        # The provider captured the order's total less what a gift card paid of it (services/offers.py).
        captured = order_provider_amount(order)
        if amount is not None and (amount != captured or (currency and currency != order.currency)):
            order.provider_note = MSG_AMOUNT_CAPTURED_MISMATCH
            order.save(update_fields=["provider_note", "updated_at"])
            logger.error("Captured %s %s for order %s of %s", amount, currency, order_id, captured)
            return CaptureOutcome(order=order, completed=False, message=MSG_AMOUNT_CAPTURED_MISMATCH)
        if capture_id:
            order.capture_id = capture_id
        paid_with = _paid_with(order)
        if paid_with:
            order.payment_method, order.payment_method_label = paid_with
        refusal = ""
        if order.status == PaymentStatus.VOIDED:
            refusal = MSG_ORDER_WAS_CANCELLED
        elif order.reservation_id:
            # With a code or a card, a savepoint: the offers refused after the confirmation undo it (their locks come
            # after bookings'). Without, none: a refused confirmation keeps what it queued after the commit.
            offered = bool(order.promo_code_id or order.gift_card_id)
            try:
                with transaction.atomic() if offered else nullcontext():
                    # Its confirmation e-mail goes with the receipt, in one task (receipts.py).
                    reservation_confirm_for_payment(
                        reservation_id=order.reservation_id,
                        participants=order.quantity,
                        amount=order.amount + order.discount_amount,  # the class's price, before a promo code
                        notify=False,
                        at_desk=order.provider == PaymentProviderName.DESK,  # a desk sale may settle "à régler"
                    )
                    if offered:
                        order_offers_settle(order)
            except (ReservationError, ApplicationError) as exc:
                refusal = exc.message
        elif order.party_id or order.rental_id:
            try:
                deposit_record_for_order(order)  # the deposit of a quoted request, recorded once
            except QuoteError as exc:
                refusal = exc.message
        elif order.tariff_id or order.promo_code_id or order.gift_card_id:
            try:
                # The code's use counted once, the card's part still spent, a discovery offer still the person's first.
                order_offers_settle(order)
            except ApplicationError as exc:
                refusal = exc.message
        if refusal:
            logger.warning("Order %s captured but refused (%s): refunding", order_id, refusal)
            # The studio cancelled the class between the approval and the capture: the member paid for a class
            # and is refunded because it will not take place, as when it is cancelled after the payment. So the
            # payment is completed (its time recorded, the invoice issued in this transaction by invoices'
            # receiver), then refunded (the credit note comes with the refund). Money that bought nothing (seats
            # lost, a booking the member had cancelled) is refunded without either.
            class_cancelled = ""
            if order.reservation_id and order.status != PaymentStatus.VOIDED:
                class_cancelled = class_cancelled_refund_reason(reservation_id=order.reservation_id)
            order.status = PaymentStatus.REFUND_PENDING
            order.provider_note = class_cancelled or refusal
            fields = ["status", "capture_id", "provider_note", "payment_method", "payment_method_label", "updated_at"]
            if class_cancelled:
                order.completed_at = timezone.now()
                fields.append("completed_at")
            order.save(update_fields=fields)
            reservation_payment_follow(order)
            if class_cancelled:
                payment_completed.send(sender=PaymentOrder, order_id=order.pk)
        else:
            now = timezone.now()
            order.status = PaymentStatus.COMPLETED
            order.completed_at = now
            if order.tariff_id:
                # A tariff order grants its class card or subscription, once (the order row lock above
                # and PaymentOrder.granted_pass's uniqueness), in this same transaction.
                order.granted_pass = pass_grant_for_order(order=order)
            order.provider_note = ""
            order.save(
                update_fields=[
                    "status",
                    "completed_at",
                    "capture_id",
                    "provider_note",
                    "granted_pass",
                    "payment_method",
                    "payment_method_label",
                    "updated_at",
                ]
            )
            reservation_payment_follow(order)
            # A tariff priced per period starts its subscription (the order paid its first period).
            subscription_start_for_order(order=order)
            # The invoice is numbered in this transaction (invoices' receiver), so a rollback leaves no gap; the same
            # receiver queues, after the commit, the one task that renders a reservation's confirmation and the
            # receipt with the invoice's PDF (receipts.py); the receipt is recorded as sent once its mail has left.
            payment_completed.send(sender=PaymentOrder, order_id=order.pk, receipt=True)
            return CaptureOutcome(order=order, completed=True)
    return _refund_outcome(payment_order_refund(order_id=order_id))


def _paid_with(order: PaymentOrder) -> tuple[str, str] | None:
    """The method the captured money came from, as the provider knows it: PayPal's wallet hides the member's
    card, the simulator kept what its buyer approved with. None: leave what the order says."""
    if order.provider == PaymentProviderName.PAYPAL:
        return PaymentMethod.PAYPAL.value, PAYPAL_LABEL
    if order.provider == PaymentProviderName.SIMULATOR:
        return SimulatorProvider().payment_method_of(order_id=order.order_id)
    return None


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


def simulator_order_approve(
    *,
    order_id: str,
    user,
    card_declined: bool,
    declines_later: bool = False,
    method: str = METHOD_CARD,
    wallet: str = WALLET_APPLE_PAY,
    scenario: str = SCENARIO_SUCCESS,
) -> bool:
    """The simulator's stand-in for the buyer approving at the provider (only when the simulator is the provider),
    with a card or a wallet (`method`, `wallet`) and what its bank does (`scenario`). Returns True when the bank
    challenges the card: the order waits, unapproved, for `simulator_order_authenticate`."""
    order = _owned_order(order_id=order_id, user=user)
    provider = _simulator_of(order)
    if order.status not in OPEN_STATUSES:
        raise PaymentError.of("order_closed")
    try:
        challenged = provider.approve_order(
            order_id=order.order_id,
            card_declined=card_declined,
            declines_later=declines_later,
            method=method,
            wallet=wallet,
            scenario=scenario,
        )
    except ProviderError as exc:
        raise PaymentError.of("order_closed") from exc
    paid_with = (method, method_label(method, wallet))
    if challenged:
        _order_challenged(order_pk=order.pk, now=timezone.now(), paid_with=paid_with)
    else:
        _order_approved(order_pk=order.pk, now=timezone.now(), paid_with=paid_with)
    return challenged


def simulator_order_authenticate(*, order_id: str, user, passed: bool) -> None:
    """The member's answer to the simulated bank's 3-D Secure challenge (only its owner: the cardholder answers
    their bank, the staff cannot). Passed, the order is approved and may be captured; refused, it is declined as a
    declined card is (the reservation keeps its hold) and PaymentError (402) says so. The challenge is settled once:
    a repeated answer is told the same and changes nothing."""
    order = PaymentOrder.objects.filter(order_id=order_id).first()
    if order is None or order.user_id != user.pk:
        raise PaymentError.of("order_not_found")
    provider = _simulator_of(order)
    try:
        if provider.challenge_state(order_id=order.order_id) == SimulatedChallenge.PENDING:
            if order.status not in OPEN_STATUSES:
                raise PaymentError.of("order_closed")
        answer = provider.authenticate(order_id=order.order_id, passed=passed)
    except ProviderError as exc:
        if exc.issue == ISSUE_NO_CHALLENGE:
            raise PaymentError.of("no_challenge") from exc
        raise PaymentError.of("order_not_found") from exc
    if answer.state == SimulatedChallenge.PASSED:
        if answer.approved:
            # From CREATED or DECLINED only: an order approved already is left as it is (nothing changes).
            _order_approved(
                order_pk=order.pk,
                now=timezone.now(),
                from_statuses=(PaymentStatus.CREATED, PaymentStatus.DECLINED),
            )
        return
    _mark(
        order_id=order.order_id,
        status=PaymentStatus.DECLINED,
        only_from=(PaymentStatus.CREATED, PaymentStatus.APPROVED),
    )
    raise PaymentError(MSG_AUTHENTICATION_REFUSED, code=NOT_PAID, status_code=PAYMENT_REQUIRED)


def _simulator_of(order: PaymentOrder) -> SimulatorProvider:
    """The simulator, when it is the provider and this order is its own; else the order is not found (404)."""
    provider = get_provider()
    if not isinstance(provider, SimulatorProvider) or order.provider != provider.name:
        raise PaymentError.of("order_not_found")
    return provider


def _order_approved(
    *, order_pk: int, now, paid_with: tuple[str, str] | None = None, from_statuses=OPEN_STATUSES
) -> int:
    """The order APPROVED if it is still open, in one UPDATE whose row lock and WHERE decide against a concurrent
    capture as `_mark(..., only_from=OPEN_STATUSES)` would; returns how many rows changed (0 or 1). `paid_with`:
    the method (and its label) the buyer approved with, recorded in the same UPDATE."""
    values = {"status": PaymentStatus.APPROVED, "updated_at": now}
    if paid_with:
        values["payment_method"], values["payment_method_label"] = paid_with
    with transaction.atomic():
        changed = PaymentOrder.objects.filter(pk=order_pk, status__in=from_statuses).update(**values)
        if changed:  # the UPDATE holds the order's row lock: its reservation is told under it
            reservation_payment_follow(PaymentOrder.objects.only("reservation_id").get(pk=order_pk))
    return changed


def _order_challenged(*, order_pk: int, now, paid_with: tuple[str, str]) -> int:
    """The buyer chose a card its bank challenges: an open order records it, and an approval of an earlier attempt
    is taken back (CREATED) until the challenge is passed; one UPDATE, as `_order_approved`."""
    with transaction.atomic():
        changed = PaymentOrder.objects.filter(pk=order_pk, status__in=OPEN_STATUSES).update(
            status=Case(When(status=PaymentStatus.APPROVED, then=Value(PaymentStatus.CREATED)), default=F("status")),
            payment_method=paid_with[0],
            payment_method_label=paid_with[1],
            updated_at=now,
        )
        if changed:
            reservation_payment_follow(PaymentOrder.objects.only("reservation_id").get(pk=order_pk))
    return changed


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
