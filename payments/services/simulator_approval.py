"""The simulator's stand-ins for the buyer at the provider (only when the simulator is the provider): approving an
order with a card or a wallet, and answering the simulated bank's 3-D Secure challenge."""

from django.db import transaction
from django.db.models import Case, F, Value, When
from django.utils import timezone

from ..models import PaymentOrder, PaymentStatus, SimulatedChallenge
from ..provider_types import ProviderError
from ..providers import get_provider
from ..simulator import (
    ISSUE_NO_CHALLENGE,
    METHOD_CARD,
    SCENARIO_SUCCESS,
    WALLET_APPLE_PAY,
    SimulatorProvider,
    method_label,
)
from .common import (
    MSG_AUTHENTICATION_REFUSED,
    OPEN_STATUSES,
    PaymentError,
    _mark,
    _owned_order,
    reservation_payment_follow,
)

# The code of every answer that says the member has not paid (the capture's 402 answers it too).
NOT_PAID = "payment_not_completed"
PAYMENT_REQUIRED = 402


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
