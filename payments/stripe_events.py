"""The Stripe events we act on, read into small typed records (after stripe_gateway.py verified the signature).

Each record carries the event's id, so the receiver applies an event once however often Stripe delivers it. Events
we do not use become an IgnoredEvent rather than an error: Stripe sends what the endpoint subscribed to, and an
unexpected one must not make it retry.
"""

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from .provider_types import (
    CAPTURE_ACTION_REQUIRED,
    CAPTURE_CANCELLED,
    CAPTURE_COMPLETED,
    CAPTURE_DECLINED,
    CAPTURE_PENDING,
)
from .stripe_answers import from_cents, object_id
from .stripe_messages import french_message

PAYMENT_EVENTS = {
    "payment_intent.succeeded": CAPTURE_COMPLETED,
    "payment_intent.processing": CAPTURE_PENDING,
    "payment_intent.payment_failed": CAPTURE_DECLINED,
    "payment_intent.requires_action": CAPTURE_ACTION_REQUIRED,
    "payment_intent.canceled": CAPTURE_CANCELLED,
}
SETUP_EVENTS = {"setup_intent.succeeded": CAPTURE_COMPLETED, "setup_intent.setup_failed": CAPTURE_DECLINED}


@dataclass(frozen=True)
class PaymentEvent:
    """A PaymentIntent moved: `status` is ours; a SEPA debit is paid only on payment_intent.succeeded."""

    event_id: str
    type: str
    intent_id: str
    status: str
    amount: Decimal | None
    charge_id: str = ""
    decline_code: str = ""
    message: str = ""
    metadata: dict = field(default_factory=dict, compare=False)
    # The method it was (being) paid with: read for the staff's lists, not part of what the event says happened.
    payment_method_id: str = field(default="", compare=False)


@dataclass(frozen=True)
class SetupEvent:
    event_id: str
    type: str
    setup_intent_id: str
    status: str
    customer_id: str = ""
    payment_method_id: str = ""
    mandate_id: str = ""
    decline_code: str = ""
    message: str = ""
    metadata: dict = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class RefundEvent:
    """charge.refunded: how much of the charge is refunded by now (the refund may have been made at the
    Dashboard)."""

    event_id: str
    type: str
    charge_id: str
    intent_id: str
    amount_refunded: Decimal | None
    fully_refunded: bool


@dataclass(frozen=True)
class DisputeEvent:
    event_id: str
    type: str
    dispute_id: str
    charge_id: str
    intent_id: str
    amount: Decimal | None
    reason: str = ""


@dataclass(frozen=True)
class MandateEvent:
    """mandate.updated: a SEPA mandate became inactive (revoked by the member's bank) or active again."""

    event_id: str
    type: str
    mandate_id: str
    status: str
    payment_method_id: str = ""


@dataclass(frozen=True)
class IgnoredEvent:
    event_id: str
    type: str


StripeEventRecord = PaymentEvent | SetupEvent | RefundEvent | DisputeEvent | MandateEvent | IgnoredEvent


def _failure(obj: dict[str, Any], key: str) -> tuple[str, str]:
    failure = obj.get(key) or {}
    code, decline_code = str(failure.get("code") or ""), str(failure.get("decline_code") or "")
    return decline_code or code, french_message(code=code, decline_code=decline_code) if failure else ""


def parse_event(event: dict[str, Any]) -> StripeEventRecord:
    event_id, kind = str(event.get("id") or ""), str(event.get("type") or "")
    obj = (event.get("data") or {}).get("object") or {}
    if kind in PAYMENT_EVENTS:
        decline_code, message = _failure(obj, "last_payment_error")
        return PaymentEvent(
            event_id=event_id,
            type=kind,
            intent_id=object_id(obj.get("id")),
            status=PAYMENT_EVENTS[kind],
            amount=from_cents(obj.get("amount")),
            charge_id=object_id(obj.get("latest_charge")),
            payment_method_id=object_id(obj.get("payment_method")),
            decline_code=decline_code if kind == "payment_intent.payment_failed" else "",
            message=message if kind == "payment_intent.payment_failed" else "",
            metadata=dict(obj.get("metadata") or {}),
        )
    if kind in SETUP_EVENTS:
        decline_code, message = _failure(obj, "last_setup_error")
        return SetupEvent(
            event_id=event_id,
            type=kind,
            setup_intent_id=object_id(obj.get("id")),
            status=SETUP_EVENTS[kind],
            customer_id=object_id(obj.get("customer")),
            payment_method_id=object_id(obj.get("payment_method")),
            mandate_id=object_id(obj.get("mandate")),
            decline_code=decline_code if kind == "setup_intent.setup_failed" else "",
            message=message if kind == "setup_intent.setup_failed" else "",
            metadata=dict(obj.get("metadata") or {}),
        )
    if kind == "charge.refunded":
        return RefundEvent(
            event_id=event_id,
            type=kind,
            charge_id=object_id(obj.get("id")),
            intent_id=object_id(obj.get("payment_intent")),
            amount_refunded=from_cents(obj.get("amount_refunded")),
            fully_refunded=bool(obj.get("refunded")),
        )
    if kind == "charge.dispute.created":
        return DisputeEvent(
            event_id=event_id,
            type=kind,
            dispute_id=object_id(obj.get("id")),
            charge_id=object_id(obj.get("charge")),
            intent_id=object_id(obj.get("payment_intent")),
            amount=from_cents(obj.get("amount")),
            reason=str(obj.get("reason") or ""),
        )
    if kind == "mandate.updated":
        return MandateEvent(
            event_id=event_id,
            type=kind,
            mandate_id=object_id(obj.get("id")),
            status=str(obj.get("status") or ""),
            payment_method_id=object_id(obj.get("payment_method")),
        )
    return IgnoredEvent(event_id=event_id, type=kind)
