"""Deposits of quoted requests (docs/decisions.md 17): an EVJF/EVG request or a member's room rental (quotes).

The member pays the deposit with the same widget, provider and records as any order (docs/decisions.md 15): the order is
priced from the request (the browser's amount is only compared), at most one is live per request (a database
constraint), the capture goes through `payment_order_fulfil`, which records the deposit on the request under the
order's lock (`deposit_record_for_order`): a request no longer waiting for it (cancelled, refused, re-quoted) makes
the money go back. A request closed after its deposit was paid is announced by quotes' signal; the receiver
marks the deposit REFUND_PENDING and a task refunds it through the provider (`payment_refunds_retry` catches a lost
task).
"""

import logging
import uuid
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.tasks import task
from django.utils import timezone

from quotes.models import PartyReservation, RoomRentalRequest
from quotes.services import parties, rentals
from studio.queue import enqueue_after_commit

from ..choices import CURRENCY_EUR
from ..models import PaymentOrder, PaymentStatus
from .common import OPEN_STATUSES, PaymentError, _mark, terms_acceptance_fields
from .locking import lock_payment_order
from .provider_choice import (
    PURPOSE_DEPOSIT,
    STRIPE,
    payment_provider_choose,
    provider_order_open,
    provider_order_voided,
    stripe_client_secret,
)
from .refunds import payment_order_refund

logger = logging.getLogger(__name__)

PARTY, RENTAL = "party", "rental"
DEPOSIT_KINDS = (PARTY, RENTAL)
DEPOSIT_TYPE = {PARTY: "ACOMPTE_EVJF", RENTAL: "ACOMPTE_LOCATION"}
MSG_REQUEST_CLOSED_REFUND = "Votre demande ({label}) a été {status} : l'acompte vous est remboursé."


def _payable(*, kind: str, request_id: int, user):
    if kind == PARTY:
        return parties.party_deposit_payable(party_id=request_id, member=user)
    return rentals.rental_deposit_payable(rental_id=request_id, member=user)


def _label(request) -> str:
    if isinstance(request, PartyReservation):
        return parties.party_label(request)
    return rentals.rental_label(request)


def _with_client_secret(order: PaymentOrder, client_secret: str | None = None) -> PaymentOrder:
    """The order with `client_secret` set (Stripe's, never stored; "" for other providers)."""
    if client_secret is None:
        client_secret = stripe_client_secret(order) if order.provider == STRIPE else ""
    order.client_secret = client_secret
    return order


def deposit_order_create(
    *, user, kind: str, request_id: int, amount: Decimal, provider: str = "", accept_terms: bool = False
) -> PaymentOrder:
    """Open an order for the deposit of the member's own request; asking again answers the order being paid.
    `provider` is one of those offered (the first when blank); `accept_terms` is recorded (the API requires it)."""
    provider = payment_provider_choose(provider)
    request = _payable(kind=kind, request_id=request_id, user=user)
    server_amount = request.deposit_amount
    if amount != server_amount:
        raise PaymentError.of("amount_mismatch")
    link = {kind: request}
    live = PaymentOrder.objects.filter(**link, status__in=OPEN_STATUSES).order_by("-id").first()
    if live is not None:
        if live.provider == provider and live.amount == server_amount:
            if accept_terms and not live.terms_version:  # opened before the terms were asked: this request accepts them
                PaymentOrder.objects.filter(pk=live.pk).update(**terms_acceptance_fields(accepted=True))
            return _with_client_secret(live)
        provider_order_voided(_mark(order_id=live.order_id, status=PaymentStatus.VOIDED, only_from=OPEN_STATUSES))
    title = f"Acompte – {_label(request)}"[:200]
    reference = uuid.uuid4().hex
    opened = provider_order_open(
        provider=provider, amount=server_amount, description=title, reference=reference, purpose=PURPOSE_DEPOSIT
    )
    try:
        with transaction.atomic():
            order = PaymentOrder.objects.create(
                order_id=opened.id,
                provider=opened.provider,
                user=user,
                email=user.email,
                first_name=(user.first_name or "")[:150],
                last_name=(user.last_name or "")[:150],
                title=title,
                amount=server_amount,
                currency=CURRENCY_EUR,
                date=request.date.isoformat(),
                time=request.time.strftime("%H:%M"),
                type=DEPOSIT_TYPE[kind],
                status=PaymentStatus.CREATED,
                **link,
                **terms_acceptance_fields(accepted=accept_terms),
            )
        return _with_client_secret(order, opened.client_secret)
    except IntegrityError:
        # Two tabs at once: the constraint kept one live order; answer it.
        live = PaymentOrder.objects.filter(**link, status__in=OPEN_STATUSES).order_by("-id").first()
        if live is None:
            raise PaymentError.of("order_closed") from None
        return _with_client_secret(live)


def deposit_record_for_order(order: PaymentOrder) -> None:
    """Inside `payment_order_fulfil`, under the order's lock: record the deposit on its request (QuoteError when
    the request no longer waits for it; the caller then refunds)."""
    if order.party_id:
        parties.party_deposit_record(party_id=order.party_id, amount=order.amount)
    elif order.rental_id:
        rentals.rental_deposit_record(rental_id=order.rental_id, amount=order.amount)


def deposit_refund_for_closed_request(*, sender, request_id: int) -> list[str]:
    """A request whose deposit was paid was refused or cancelled: its paid deposit becomes REFUND_PENDING (once,
    under the order's lock) and a task refunds it. Returns the orders marked."""
    field = {PartyReservation: PARTY, RoomRentalRequest: RENTAL}.get(sender)
    if field is None:
        return []
    marked = []
    order_ids = PaymentOrder.objects.filter(**{f"{field}_id": request_id}, status=PaymentStatus.COMPLETED)
    for order_id in list(order_ids.values_list("order_id", flat=True)):
        with transaction.atomic():
            order = lock_payment_order(order_id)
            if order.status != PaymentStatus.COMPLETED:
                continue
            request = sender.objects.get(pk=request_id)
            order.status = PaymentStatus.REFUND_PENDING
            order.provider_note = MSG_REQUEST_CLOSED_REFUND.format(
                label=_label(request), status=request.get_status_display().lower()
            )
            order.updated_at = timezone.now()
            order.save(update_fields=["status", "provider_note", "updated_at"])
            enqueue_after_commit(payment_deposit_refund, order_id=order_id)
        marked.append(order_id)
    return marked


@task
def payment_deposit_refund(order_id: str) -> str:
    """Refund one deposit marked REFUND_PENDING, through the provider, once (idempotency key per order)."""
    return payment_order_refund(order_id=order_id).status
