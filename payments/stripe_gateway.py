"""Stripe through its official library (docs/decisions.md 42): one-off card payments (CB, Apple Pay, Google Pay,
3-D Secure when the bank asks), saved cards and SEPA mandates charged off-session, refunds and signed webhooks.

Every call answers the small dataclasses of provider_types.py, so the services never read a Stripe object; every
refusal becomes a ProviderError carrying Stripe's code and decline code and a French sentence for the member.
Amounts go in as Decimal euros from the database and leave as whole cents.
"""

import logging
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, Literal

import stripe
from django.conf import settings

from .provider_types import (
    CAPTURE_ACTION_REQUIRED,
    CAPTURE_CANCELLED,
    CAPTURE_COMPLETED,
    CAPTURE_DECLINED,
    CAPTURE_PENDING,
    PaymentStart,
    PaymentState,
    ProviderCustomer,
    ProviderError,
    ProviderRefund,
    SavedMethod,
    SetupState,
)
from .stripe_events import StripeEventRecord, parse_event
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
    """A ProviderError that also keeps the bank's decline code (`issue` holds Stripe's error code)."""

    def __init__(self, message: str, *, issue: str = "", decline_code: str = "", **kwargs):
        super().__init__(message, issue=issue, **kwargs)
        self.decline_code = decline_code


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


def _id(value) -> str:
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
        charge_id=_id(intent.get("latest_charge")),
        payment_method_id=_id(intent.get("payment_method")),
        customer_id=_id(intent.get("customer")),
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
        customer_id=_id(setup.get("customer")),
        payment_method_id=_id(setup.get("payment_method")),
        mandate_id=_id(setup.get("mandate")),
        decline_code=decline_code or code,
        message=french_message(code=code, decline_code=decline_code) if failure else "",
    )


class StripeGateway:
    """One instance per operation, like PayPalProvider: get_stripe_gateway() reads the settings."""

    name = "stripe"
    TIMEOUT = (5, 20)  # connect, read (seconds): a payment answered within gunicorn's worker timeout (30 s)
    WEBHOOK_TOLERANCE = 300  # seconds, Stripe's default: an older signed delivery is a replay

    def __init__(
        self,
        *,
        secret_key: str,
        api_base: str = "https://api.stripe.com",
        webhook_secret: str = "",
        max_network_retries: int = 2,
        timeout: tuple[float, float] = TIMEOUT,
        webhook_tolerance: int = WEBHOOK_TOLERANCE,
    ):
        self.webhook_secret = webhook_secret
        self.webhook_tolerance = webhook_tolerance
        # The library retries connection errors and 5xx with the same Idempotency-Key, so a retry never pays twice.
        self.client = stripe.StripeClient(
            secret_key,
            base_addresses={"api": api_base.rstrip("/")},
            max_network_retries=max_network_retries,
            http_client=stripe.RequestsClient(timeout=timeout),
        )

    # --- plumbing ---------------------------------------------------------------------------------------------

    def _call(self, method: Callable, *args, idempotency_key: str = "", params: Mapping | None = None) -> dict:
        options = {"idempotency_key": idempotency_key} if idempotency_key else None
        try:
            answer = method(*args, params=dict(params or {}), options=options)
        except stripe.StripeError as exc:
            raise gateway_error(exc) from exc
        return answer.to_dict()

    def _confirming(self, method: Callable, *args, idempotency_key: str = "", params: Mapping) -> PaymentState:
        """A call that confirms a payment: a card refusal is an outcome (the PaymentIntent Stripe sends with the
        error), not an exception."""
        try:
            return payment_state(self._call(method, *args, idempotency_key=idempotency_key, params=params))
        except StripeGatewayError as exc:
            intent = ((exc.__cause__ and exc.__cause__.json_body) or {}).get("error", {}).get("payment_intent")
            if exc.status_code == 402 and intent:
                return payment_state(intent)
            raise

    # --- one-off payments -------------------------------------------------------------------------------------

    def start_payment(
        self,
        *,
        amount: Decimal,
        order_ref: str,
        description: str = "",
        customer_id: str = "",
        save_method: bool = False,
        metadata: Mapping[str, str] | None = None,
    ) -> PaymentStart:
        """Open a PaymentIntent for one order; the member pays it in the Payment Element with its client secret.

        The key `payment-{order_ref}` makes a repeated start (a double click, a retried request) answer the same
        intent; the amount comes from the order, so a repeat sends the same body."""
        params: dict[str, Any] = {
            "amount": to_cents(amount),
            "currency": CURRENCY,
            "payment_method_types": ["card"],  # cards, CB included, and the Apple Pay and Google Pay wallets
            "metadata": {**(metadata or {}), "order": order_ref},
        }
        if description:
            params["description"] = description[:1000]
        if customer_id:
            params["customer"] = customer_id
        if save_method:
            params["setup_future_usage"] = "off_session"
        intent = self._call(
            self.client.v1.payment_intents.create, idempotency_key=f"payment-{order_ref}", params=params
        )
        return _start(intent)

    def get_payment(self, *, intent_id: str) -> PaymentState:
        return payment_state(self._call(self.client.v1.payment_intents.retrieve, intent_id))

    def confirm_payment(self, *, intent_id: str, payment_method_id: str = "", return_url: str = "") -> PaymentState:
        params = {
            key: value for key, value in (("payment_method", payment_method_id), ("return_url", return_url)) if value
        }
        return self._confirming(self.client.v1.payment_intents.confirm, intent_id, params=params)

    def cancel_payment(self, *, intent_id: str) -> PaymentState:
        params = {"cancellation_reason": "abandoned"}
        return payment_state(self._call(self.client.v1.payment_intents.cancel, intent_id, params=params))

    # --- customers, saved cards and SEPA mandates -------------------------------------------------------------

    def create_customer(self, *, member_ref: str, email: str, name: str) -> ProviderCustomer:
        params = {"email": email, "name": name, "metadata": {"member": member_ref}}
        customer = self._call(self.client.v1.customers.create, idempotency_key=f"customer-{member_ref}", params=params)
        return _customer(customer)

    def get_customer(self, *, customer_id: str) -> ProviderCustomer:
        return _customer(self._call(self.client.v1.customers.retrieve, customer_id))

    def start_saving(self, *, customer_id: str, kind: Literal["card", "sepa_debit"], setup_ref: str) -> PaymentStart:
        """A SetupIntent saving a card or a SEPA account for off-session charges; the member confirms it (and
        accepts the SEPA mandate online) in the Payment Element."""
        if kind not in ("card", "sepa_debit"):
            raise ValueError(f"Moyen de paiement inconnu : {kind}")
        params = {
            "customer": customer_id,
            "payment_method_types": [kind],
            "usage": "off_session",
            "metadata": {"setup": setup_ref},
        }
        setup = self._call(self.client.v1.setup_intents.create, idempotency_key=f"setup-{setup_ref}", params=params)
        return _start(setup)

    def get_saving(self, *, setup_intent_id: str) -> SetupState:
        return setup_state(self._call(self.client.v1.setup_intents.retrieve, setup_intent_id))

    def describe_method(self, *, payment_method_id: str, mandate_id: str = "") -> SavedMethod:
        """A saved card or SEPA account as the member knows it, with its mandate when there is one."""
        method = self._call(self.client.v1.payment_methods.retrieve, payment_method_id)
        if method.get("type") == "sepa_debit":
            sepa = method.get("sepa_debit") or {}
            mandate = self._call(self.client.v1.mandates.retrieve, mandate_id) if mandate_id else {}
            details = (mandate.get("payment_method_details") or {}).get("sepa_debit") or {}
            accepted = (mandate.get("customer_acceptance") or {}).get("accepted_at")
            return SavedMethod(
                id=method["id"],
                kind="sepa_debit",
                last4=str(sepa.get("last4") or ""),
                country=str(sepa.get("country") or ""),
                bank_code=str(sepa.get("bank_code") or ""),
                mandate_id=str(mandate.get("id") or ""),
                mandate_reference=str(details.get("reference") or ""),
                mandate_status=str(mandate.get("status") or ""),
                mandate_accepted_at=_moment(accepted),
            )
        card = method.get("card") or {}
        networks = card.get("networks") or {}
        return SavedMethod(
            id=method["id"],
            kind="card",
            last4=str(card.get("last4") or ""),
            brand=str(card.get("brand") or ""),
            exp_month=card.get("exp_month"),
            exp_year=card.get("exp_year"),
            cb_preferred=networks.get("preferred") == "cartes_bancaires",
            country=str(card.get("country") or ""),
        )

    def charge_saved_method(
        self,
        *,
        amount: Decimal,
        charge_ref: str,
        customer_id: str,
        payment_method_id: str,
        kind: Literal["card", "sepa_debit"] = "card",
        mandate_id: str = "",
        description: str = "",
        metadata: Mapping[str, str] | None = None,
    ) -> PaymentState:
        """Charge a saved card or SEPA account while the member is away (a subscription's period).

        COMPLETED (card), PENDING (a SEPA debit, paid only when its payment_intent.succeeded arrives), DECLINED
        with the bank's code, or ACTION_REQUIRED when the bank wants the member to authenticate: the answer's
        client_secret lets the site ask them."""
        params: dict[str, Any] = {
            "amount": to_cents(amount),
            "currency": CURRENCY,
            "customer": customer_id,
            "payment_method": payment_method_id,
            "payment_method_types": [kind],
            "confirm": True,
            "off_session": True,
            "metadata": {**(metadata or {}), "charge": charge_ref},
        }
        if mandate_id:
            params["mandate"] = mandate_id
        if description:
            params["description"] = description[:1000]
        return self._confirming(
            self.client.v1.payment_intents.create, idempotency_key=f"charge-{charge_ref}", params=params
        )

    # --- refunds ----------------------------------------------------------------------------------------------

    def refund(self, *, intent_id: str, refund_ref: str, amount: Decimal | None = None) -> ProviderRefund:
        """Refund a payment, whole or in part. The key `refund-{refund_ref}` makes a retry answer the first refund;
        a payment refunded already raises ProviderError(issue="charge_already_refunded")."""
        params: dict[str, Any] = {"payment_intent": intent_id, "metadata": {"refund": refund_ref}}
        if amount is not None:
            params["amount"] = to_cents(amount)
        refund = self._call(self.client.v1.refunds.create, idempotency_key=f"refund-{refund_ref}", params=params)
        status = REFUND_STATUSES.get(str(refund.get("status") or ""), "PENDING")
        return ProviderRefund(id=str(refund.get("id") or ""), status=status)

    # --- webhooks ---------------------------------------------------------------------------------------------

    def verify_webhook(self, *, payload: bytes, signature: str) -> StripeEventRecord:
        """Check a delivery's Stripe-Signature against STRIPE_WEBHOOK_SECRET and read the event; a forged, altered
        or stale one (older than the tolerance: a replay) raises ProviderError(issue="signature")."""
        if not self.webhook_secret:
            logger.warning("Stripe webhook received but STRIPE_WEBHOOK_SECRET is not set: refused.")
            raise ProviderError("Notification Stripe refusée.", issue="signature")
        try:
            event = self.client.construct_event(payload, signature, self.webhook_secret, self.webhook_tolerance)
        except (stripe.SignatureVerificationError, ValueError) as exc:
            raise ProviderError("Notification Stripe refusée.", issue="signature") from exc
        return parse_event(event.to_dict())


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
        message, issue=code, decline_code=decline_code, status_code=status, debug_id=exc.request_id or ""
    )


def _start(intent: Mapping[str, Any]) -> PaymentStart:
    action = intent.get("next_action") or {}
    return PaymentStart(
        id=str(intent["id"]),
        status=str(intent.get("status") or ""),
        client_secret=str(intent.get("client_secret") or ""),
        next_action=str(action.get("type") or ""),
        next_action_url=str((action.get("redirect_to_url") or {}).get("url") or ""),
    )


def _customer(customer: Mapping[str, Any]) -> ProviderCustomer:
    return ProviderCustomer(
        id=str(customer["id"]), email=str(customer.get("email") or ""), name=str(customer.get("name") or "")
    )


def _moment(timestamp) -> datetime | None:
    return datetime.fromtimestamp(int(timestamp), tz=UTC) if timestamp else None


def get_stripe_gateway() -> StripeGateway:
    """The gateway from the settings (STRIPE_SECRET_KEY, STRIPE_API_BASE, STRIPE_WEBHOOK_SECRET)."""
    return StripeGateway(
        secret_key=settings.STRIPE_SECRET_KEY,
        api_base=settings.STRIPE_API_BASE,
        webhook_secret=settings.STRIPE_WEBHOOK_SECRET,
    )
