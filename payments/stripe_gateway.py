"""Stripe through its official library (docs/decisions.md 42): one-off card payments (CB, Apple Pay, Google Pay,
3-D Secure when the bank asks), saved cards and SEPA mandates charged off-session, refunds and signed webhooks.

Every call answers the small dataclasses of provider_types.py, so the services never read a Stripe object; every
refusal becomes a ProviderError carrying Stripe's code and decline code and a French sentence for the member.
Amounts go in as Decimal euros from the database and leave as whole cents.
"""

import logging
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any, Literal

import stripe
from django.conf import settings

from .provider_types import (
    PaymentStart,
    PaymentState,
    ProviderCustomer,
    ProviderError,
    ProviderRefund,
    SavedMethod,
    SetupState,
)
from .stripe_answers import (
    CURRENCY,
    REFUND_STATUSES,
    StripeGatewayError,
    customer_of,
    gateway_error,
    method_used,
    moment_of,
    payment_state,
    setup_state,
    start_of,
    to_cents,
)
from .stripe_events import StripeEventRecord, parse_event

logger = logging.getLogger(__name__)


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
            if exc.status_code == 402 and exc.payment_intent:
                return payment_state(exc.payment_intent)
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
        return start_of(intent)

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

    def payment_method_used(self, *, payment_method_id: str) -> tuple[str, str]:
        """The method a payment was made with, as the staff's lists name it (stripe_answers.method_used)."""
        return method_used(self._call(self.client.v1.payment_methods.retrieve, payment_method_id))

    # --- customers, saved cards and SEPA mandates -------------------------------------------------------------

    def create_customer(self, *, member_ref: str, email: str, name: str) -> ProviderCustomer:
        params = {"email": email, "name": name, "metadata": {"member": member_ref}}
        customer = self._call(self.client.v1.customers.create, idempotency_key=f"customer-{member_ref}", params=params)
        return customer_of(customer)

    def get_customer(self, *, customer_id: str) -> ProviderCustomer:
        return customer_of(self._call(self.client.v1.customers.retrieve, customer_id))

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
        return start_of(setup)

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
                mandate_accepted_at=moment_of(accepted),
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
        client_secret lets the site ask them. A new attempt for the same period needs a new charge_ref: the same
        one answers the first attempt again."""
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
        return _refund(refund)

    def get_refund(self, *, refund_id: str) -> ProviderRefund:
        """A refund's status now: a SEPA refund stays PENDING until the bank returns the money (or FAILED)."""
        return _refund(self._call(self.client.v1.refunds.retrieve, refund_id))

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


def _refund(refund: Mapping[str, Any]) -> ProviderRefund:
    status = REFUND_STATUSES.get(str(refund.get("status") or ""), "PENDING")
    return ProviderRefund(id=str(refund.get("id") or ""), status=status)


def get_stripe_gateway() -> StripeGateway:
    """The gateway from the settings (STRIPE_SECRET_KEY, STRIPE_API_BASE, STRIPE_WEBHOOK_SECRET)."""
    return StripeGateway(
        secret_key=settings.STRIPE_SECRET_KEY,
        api_base=settings.STRIPE_API_BASE,
        webhook_secret=settings.STRIPE_WEBHOOK_SECRET,
    )
