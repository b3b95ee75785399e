"""Stripe's answers read into provider_types.py's dataclasses and our statuses, and its errors into ProviderError:
pure functions, shared by the gateway (stripe_gateway.py) and the webhook records (stripe_events.py).

Our statuses: `succeeded` is COMPLETED, `processing` (a SEPA debit on its way) PENDING, `requires_action` (3-D
Secure) ACTION_REQUIRED, `canceled` CANCELLED, and `requires_payment_method` after an attempt DECLINED.
"""

import logging
from collections.abc import Mapping
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import stripe

from .provider_types import (
    BRAND_LABELS,
    CAPTURE_ACTION_REQUIRED,
    CAPTURE_CANCELLED,
    CAPTURE_COMPLETED,
    CAPTURE_DECLINED,
    CAPTURE_PENDING,
    PaymentStart,
    PaymentState,
    ProviderCustomer,
    ProviderError,
    SetupState,
)
from .stripe_messages import UNAVAILABLE, french_message

logger = logging.getLogger(__name__)

CURRENCY = "eur"
CENT = Decimal("0.01")

STATUSES = {
    "succeeded": CAPTURE_COMPLETED,
    "processing": CAPTURE_PENDING,
    "requires_action": CAPTURE_ACTION_REQUIRED,
    "canceled": CAPTURE_CANCELLED,
}
REFUND_STATUSES = {
    "succeeded": "COMPLETED",
    "pending": "PENDING",
    "requires_action": "PENDING",
    "failed": "FAILED",
    "canceled": "CANCELLED",
}


class StripeGatewayError(ProviderError):
    """A ProviderError that also keeps the bank's decline code (`issue` holds Stripe's error code) and, for a
    refused payment, the PaymentIntent Stripe sent with the error."""

    def __init__(
        self, message: str, *, issue: str = "", decline_code: str = "", payment_intent: dict | None = None, **kwargs
    ):
        super().__init__(message, issue=issue, **kwargs)
        self.decline_code = decline_code
        self.payment_intent = payment_intent


def to_cents(amount: Decimal) -> int:
    """Euros to Stripe's integer cents, exactly: a float or an amount finer than a cent is a bug upstream."""
    if not isinstance(amount, Decimal) or not amount.is_finite():
        raise ValueError(f"Montant invalide : {amount!r} (un Decimal en euros est attendu).")
    if amount != amount.quantize(CENT):
        raise ValueError(f"Montant invalide : {amount} n'est pas un nombre entier de centimes.")
    if amount <= 0:
        raise ValueError(f"Montant invalide : {amount} doit être positif.")
    return int(amount * 100)


def from_cents(cents: int | None) -> Decimal | None:
    return None if cents is None else (Decimal(cents) / 100).quantize(CENT)


def object_id(value) -> str:
    """An id whether Stripe sent it bare or expanded into its object."""
    if isinstance(value, Mapping):
        return str(value.get("id") or "")
    return str(value or "")


def payment_state(intent: Mapping[str, Any]) -> PaymentState:
    """A PaymentIntent (from an answer, an error or a webhook) as our statuses.

    An off-session charge the bank wants authenticated comes back requires_payment_method with the code
    authentication_required: it is ACTION_REQUIRED, since the member can still finish it on the site."""
    failure = intent.get("last_payment_error") or {}
    provider_status = str(intent.get("status") or "")
    status = STATUSES.get(provider_status, "")
    code, decline_code = str(failure.get("code") or ""), str(failure.get("decline_code") or "")
    if provider_status == "requires_payment_method" and failure:
        required = "authentication_required" in (code, decline_code)
        status = CAPTURE_ACTION_REQUIRED if required else CAPTURE_DECLINED
    return PaymentState(
        id=str(intent.get("id") or ""),
        status=status,
        provider_status=provider_status,
        amount=from_cents(intent.get("amount")),
        currency=str(intent.get("currency") or "").upper(),
        charge_id=object_id(intent.get("latest_charge")),
        payment_method_id=object_id(intent.get("payment_method")),
        customer_id=object_id(intent.get("customer")),
        decline_code=decline_code or code,
        message=french_message(code=code, decline_code=decline_code) if failure else "",
        client_secret=str(intent.get("client_secret") or ""),
        next_action=str((intent.get("next_action") or {}).get("type") or ""),
        metadata=dict(intent.get("metadata") or {}),
    )


def setup_state(setup: Mapping[str, Any]) -> SetupState:
    failure = setup.get("last_setup_error") or {}
    provider_status = str(setup.get("status") or "")
    status = STATUSES.get(provider_status, "")
    if provider_status == "requires_payment_method" and failure:
        status = CAPTURE_DECLINED
    code, decline_code = str(failure.get("code") or ""), str(failure.get("decline_code") or "")
    return SetupState(
        id=str(setup.get("id") or ""),
        status=status,
        provider_status=provider_status,
        customer_id=object_id(setup.get("customer")),
        payment_method_id=object_id(setup.get("payment_method")),
        mandate_id=object_id(setup.get("mandate")),
        decline_code=decline_code or code,
        message=french_message(code=code, decline_code=decline_code) if failure else "",
    )


def gateway_error(exc: stripe.StripeError) -> StripeGatewayError:
    """Stripe's error as ours: its codes kept for the code, a French sentence for the member, its English text
    logged for the staff."""
    body = (exc.json_body or {}).get("error", {}) if isinstance(exc.json_body, dict) else {}
    code = str(body.get("code") or getattr(exc, "code", "") or "")
    decline_code = str(body.get("decline_code") or "")
    status = getattr(exc, "http_status", None)
    if isinstance(exc, stripe.IdempotencyError):
        code = "idempotency_error"
    if isinstance(exc, stripe.CardError):
        message = french_message(code=code, decline_code=decline_code)
    elif isinstance(exc, stripe.InvalidRequestError | stripe.IdempotencyError):
        logger.warning("Stripe refused a request: %s (%s)", exc.user_message, code)
        message = french_message(code=code)
    else:  # auth, permission, rate limit, connection, Stripe's own failure
        logger.error("Stripe unavailable: %s: %s", exc.__class__.__name__, exc.user_message)
        message = UNAVAILABLE
    return StripeGatewayError(
        message,
        issue=code,
        decline_code=decline_code,
        payment_intent=body.get("payment_intent") if isinstance(body.get("payment_intent"), dict) else None,
        status_code=status,
        debug_id=exc.request_id or "",
    )


def start_of(intent: Mapping[str, Any]) -> PaymentStart:
    action = intent.get("next_action") or {}
    return PaymentStart(
        id=str(intent["id"]),
        status=str(intent.get("status") or ""),
        client_secret=str(intent.get("client_secret") or ""),
        next_action=str(action.get("type") or ""),
        next_action_url=str((action.get("redirect_to_url") or {}).get("url") or ""),
    )


def customer_of(customer: Mapping[str, Any]) -> ProviderCustomer:
    return ProviderCustomer(
        id=str(customer["id"]), email=str(customer.get("email") or ""), name=str(customer.get("name") or "")
    )


def moment_of(timestamp) -> datetime | None:
    return datetime.fromtimestamp(int(timestamp), tz=UTC) if timestamp else None


WALLET_NAMES = {"apple_pay": "Apple Pay", "google_pay": "Google Pay"}


def method_used(method: Mapping[str, Any]) -> tuple[str, str]:
    """A PaymentMethod as the staff's lists name it: ("card", "Carte •••• 4242 (CB)"), ("wallet", "Apple Pay"),
    ("sepa_debit", "Prélèvement SEPA FR •••• 3000"); ("", "") for a type we do not offer."""
    kind = str(method.get("type") or "")
    if kind == "sepa_debit":
        sepa = method.get("sepa_debit") or {}
        return "sepa_debit", f"Prélèvement SEPA {sepa.get('country') or ''} •••• {sepa.get('last4') or ''}"
    if kind != "card":
        return "", ""
    card = method.get("card") or {}
    wallet = str((card.get("wallet") or {}).get("type") or "")
    if wallet in WALLET_NAMES:
        return "wallet", WALLET_NAMES[wallet]
    brand = str(card.get("brand") or "")
    cb = (card.get("networks") or {}).get("preferred") == "cartes_bancaires" or brand == "cartes_bancaires"
    name = "CB" if cb else (BRAND_LABELS.get(brand) or brand.capitalize())
    return "card", f"Carte •••• {card.get('last4') or ''} ({name})" if name else f"Carte •••• {card.get('last4') or ''}"
