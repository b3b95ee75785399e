"""The objects behind fake_stripe.py and how they move: Customers, PaymentMethods, PaymentIntents and Charges here,
SetupIntents, Mandates and Refunds in fake_stripe_savings.py, with the statuses Stripe documents. Methods answer
(status, body) as the HTTP layer sends them, and are called with the server's lock held.

The test payment methods and IBANs are the ones Stripe documents for its test mode, with the behaviour it documents.
A SEPA debit stays `processing` until a test calls settle_sepa(): Stripe settles its test IBANs after a delay, which a
test must not wait for.
"""

import secrets
import time

from .fake_stripe_errors import error, missing, new_id
from .fake_stripe_savings import SavingsAndRefunds

# Test PaymentMethods (docs.stripe.com/testing): card details and what happens on a payment.
# outcome: "succeed", "3ds" (authentication on every payment; off-session answers authentication_required),
# "3ds_setup" (authentication when set up or paid on-session, off-session payments succeed), or a decline (code,
# decline_code).
CARDS = {
    "pm_card_visa": {"brand": "visa", "last4": "4242", "outcome": "succeed"},
    "pm_card_mastercard": {"brand": "mastercard", "last4": "4444", "outcome": "succeed"},
    "pm_card_visa_cartesBancaires": {"brand": "visa", "last4": "1001", "outcome": "succeed", "cb": True},
    "pm_card_mastercard_cartesBancaires": {"brand": "mastercard", "last4": "1001", "outcome": "succeed", "cb": True},
    "pm_card_chargeDeclined": {"brand": "visa", "last4": "0002", "outcome": ("card_declined", "generic_decline")},
    # saved without trouble, then every charge is declined
    "pm_card_chargeCustomerFail": {
        "brand": "visa",
        "last4": "0341",
        "outcome": ("card_declined", "generic_decline"),
        "setup_ok": True,
    },
    "pm_card_visa_chargeDeclinedStolenCard": {
        "brand": "visa",
        "last4": "9979",
        "outcome": ("card_declined", "stolen_card"),
    },
    "pm_card_createDispute": {"brand": "visa", "last4": "0259", "outcome": "succeed", "dispute": True},
    "pm_card_visa_chargeDeclinedInsufficientFunds": {
        "brand": "visa",
        "last4": "9995",
        "outcome": ("card_declined", "insufficient_funds"),
    },
    "pm_card_chargeDeclinedExpiredCard": {"brand": "visa", "last4": "0069", "outcome": ("expired_card", "")},
    "pm_card_chargeDeclinedIncorrectCvc": {"brand": "visa", "last4": "0127", "outcome": ("incorrect_cvc", "")},
    "pm_card_visa_chargeDeclinedLostCard": {
        "brand": "visa",
        "last4": "9987",
        "outcome": ("card_declined", "lost_card"),
    },
    "pm_card_chargeDeclinedProcessingError": {"brand": "visa", "last4": "0119", "outcome": ("processing_error", "")},
    "pm_card_authenticationRequired": {"brand": "visa", "last4": "3184", "outcome": "3ds"},
    "pm_card_threeDSecure2Required": {"brand": "visa", "last4": "3220", "outcome": "3ds"},
    "pm_card_authenticationRequiredOnSetup": {"brand": "visa", "last4": "3155", "outcome": "3ds_setup"},
}

# Test IBANs (docs.stripe.com/payments/sepa-debit): whether the debit succeeds, and whether a dispute follows.
IBANS = {
    "FR1420041010050500013M02606": {"outcome": "succeed"},
    "FR3020041010050500013M02609": {"outcome": "succeed"},  # settles after a delay at Stripe
    "FR8420041010050500013M02607": {"outcome": "fail"},
    "FR7920041010050500013M02600": {"outcome": "fail"},  # fails after a delay at Stripe
    "FR5720041010050500013M02608": {"outcome": "succeed", "dispute": True},
    "FR9720041010050000002222227": {"outcome": "fail", "failure_code": "insufficient_funds"},
}
# Stripe's test tokens for those IBANs, usable wherever a payment_method id is.
SEPA_TOKENS = {
    "pm_sepaDebit_success_fr": "FR1420041010050500013M02606",
    "pm_sepaDebit_successDelayed_fr": "FR3020041010050500013M02609",
    "pm_sepaDebit_failed_fr": "FR8420041010050500013M02607",
    "pm_sepaDebit_failedDelayed_fr": "FR7920041010050500013M02600",
    "pm_sepaDebit_disputed_fr": "FR5720041010050500013M02608",
    "pm_sepaDebit_insufficientFunds_fr": "FR9720041010050000002222227",
}

PI_CANCELLABLE = {"requires_payment_method", "requires_confirmation", "requires_action", "processing"}


class StripeObjects(SavingsAndRefunds):
    def __init__(self, emit):
        self.emit = emit  # emit(event_type, object): the event Stripe would send
        self.customers: dict[str, dict] = {}
        self.intents: dict[str, dict] = {}
        self.setups: dict[str, dict] = {}
        self.methods: dict[str, dict] = {}
        self.mandates: dict[str, dict] = {}
        self.charges: dict[str, dict] = {}
        self.refunds: dict[str, dict] = {}

    # --- customers and payment methods ----------------------------------------------------------------------------

    def create_customer(self, params):
        customer = {
            "id": new_id("cus"),
            "object": "customer",
            "email": params.get("email"),
            "name": params.get("name"),
            "metadata": params.get("metadata") or {},
            "created": int(time.time()),
            "livemode": False,
            "invoice_settings": {"default_payment_method": None},
        }
        self.customers[customer["id"]] = customer
        return 200, customer

    def method_from(self, token: str = "", *, iban: str = "", customer=None):
        """A new PaymentMethod from a test token or a test IBAN, as Stripe.js (or a test token) creates one."""
        pm = {"id": new_id("pm"), "object": "payment_method", "customer": customer, "created": int(time.time())}
        pm["livemode"] = False
        if iban:
            iban = iban.replace(" ", "").upper()
            pm["type"] = "sepa_debit"
            pm["sepa_debit"] = {"last4": iban[-4:], "country": iban[:2], "bank_code": iban[4:9], "branch_code": ""}
            pm["sepa_debit"]["fingerprint"] = secrets.token_hex(8)
            pm["_behaviour"] = IBANS.get(iban, {"outcome": "succeed"})
        else:
            card = CARDS[token]
            pm["type"] = "card"
            available = ["cartes_bancaires", card["brand"]] if card.get("cb") else [card["brand"]]
            pm["card"] = {
                "brand": card["brand"],
                "last4": card["last4"],
                "exp_month": 12,
                "exp_year": time.gmtime().tm_year + 3,
                "country": "FR",
                "funding": "credit",
                # CB is the default network on co-badged cards (docs/decisions.md 42): the Payment Element asks for it.
                "networks": {"available": available, "preferred": "cartes_bancaires" if card.get("cb") else None},
            }
            pm["_behaviour"] = card
        self.methods[pm["id"]] = pm
        return pm

    def resolve_method(self, value, customer=None):
        if not value:
            return None
        if value in self.methods:
            return self.methods[value]
        if value in CARDS:
            return self.method_from(value, customer=customer)
        if value in SEPA_TOKENS:
            return self.method_from(iban=SEPA_TOKENS[value], customer=customer)
        return None

    # --- PaymentIntents -------------------------------------------------------------------------------------------

    def create_intent(self, params):
        amount = params.get("amount")
        if not str(amount or "").isdigit():
            return error(400, "invalid_request_error", "Missing required param: amount.", param="amount")
        if int(amount) < 50:
            return error(400, "invalid_request_error", "Amount must be at least €0.50 eur", code="amount_too_small")
        if params.get("customer") and params["customer"] not in self.customers:
            return missing("customer", params["customer"], "customer")
        intent_id = new_id("pi")
        types = params.get("payment_method_types") or ["card"]
        automatic = params.get("automatic_payment_methods") or None
        intent = {
            "id": intent_id,
            "object": "payment_intent",
            "amount": int(amount),
            "amount_received": 0,
            "currency": params.get("currency", "eur"),
            "customer": params.get("customer"),
            "description": params.get("description"),
            "metadata": params.get("metadata") or {},
            "client_secret": f"{intent_id}_secret_{secrets.token_hex(12)}",
            "status": "requires_payment_method",
            "payment_method": None,
            "payment_method_types": ["card", "sepa_debit"] if automatic else types,
            "automatic_payment_methods": {"enabled": True} if automatic else None,
            "setup_future_usage": params.get("setup_future_usage"),
            "last_payment_error": None,
            "next_action": None,
            "latest_charge": None,
            "canceled_at": None,
            "cancellation_reason": None,
            "created": int(time.time()),
            "livemode": False,
        }
        self.intents[intent_id] = intent
        pm = self.resolve_method(params.get("payment_method"), params.get("customer"))
        if params.get("payment_method") and pm is None:
            return missing("payment_method", params["payment_method"], "payment_method")
        if pm is not None:
            intent["payment_method"] = pm["id"]
            intent["status"] = "requires_confirmation"
            if params.get("confirm") == "true":
                return self.confirm_intent(intent_id, params)
        return 200, intent

    def confirm_intent(self, intent_id, params, *, iban: str = ""):
        intent = self.intents.get(intent_id)
        if intent is None:
            return missing("payment_intent", intent_id, "intent")
        if intent["status"] not in ("requires_payment_method", "requires_confirmation"):
            return error(
                400,
                "invalid_request_error",
                f"This PaymentIntent's status is {intent['status']}; it cannot be confirmed.",
                code="payment_intent_unexpected_state",
                payment_intent=intent,
            )
        pm = self.method_from(iban=iban, customer=intent["customer"]) if iban else None
        pm = pm or self.resolve_method(params.get("payment_method"), intent["customer"])
        pm = pm or self.methods.get(intent["payment_method"] or "")
        if pm is None:
            return error(
                400,
                "invalid_request_error",
                "You cannot confirm this PaymentIntent because it's missing a payment method.",
                code="payment_intent_unexpected_state",
                payment_intent=intent,
            )
        intent.update(payment_method=pm["id"], last_payment_error=None, next_action=None)
        behaviour = pm["_behaviour"]
        off_session = params.get("off_session") == "true"
        if pm["type"] == "sepa_debit":
            if intent["setup_future_usage"] or off_session:
                self._mandate_for(pm, params)
            intent["status"] = "processing"
            self.emit("payment_intent.processing", intent)
            return 200, intent
        outcome = behaviour["outcome"]
        if outcome == "3ds" and off_session:
            return self._decline(intent, pm, "authentication_required", "authentication_required")
        if outcome == "3ds" or (outcome == "3ds_setup" and not off_session):
            intent["status"] = "requires_action"
            return_url = params.get("return_url")
            if return_url:
                url = f"https://hooks.stripe.com/3d_secure_2/hosted?payment_intent={intent_id}"
                intent["next_action"] = {
                    "type": "redirect_to_url",
                    "redirect_to_url": {"url": url, "return_url": return_url},
                }
            else:
                intent["next_action"] = {
                    "type": "use_stripe_sdk",
                    "use_stripe_sdk": {"type": "three_d_secure_redirect"},
                }
            self.emit("payment_intent.requires_action", intent)
            return 200, intent
        if isinstance(outcome, tuple):
            return self._decline(intent, pm, *outcome)
        return 200, self._succeed(intent, pm)

    def _charge(self, intent, pm, *, status="succeeded"):
        charge = {
            "id": new_id("ch"),
            "object": "charge",
            "amount": intent["amount"],
            "amount_refunded": 0,
            "refunded": False,
            "disputed": False,
            "currency": intent["currency"],
            "customer": intent["customer"],
            "payment_intent": intent["id"],
            "payment_method": pm["id"],
            "payment_method_details": {"type": pm["type"], pm["type"]: dict(pm[pm["type"]])},
            "status": status,
            "created": int(time.time()),
            "livemode": False,
        }
        self.charges[charge["id"]] = charge
        intent["latest_charge"] = charge["id"]
        return charge

    def _succeed(self, intent, pm):
        charge = self.charges.get(intent["latest_charge"] or "")
        if charge is None or charge["status"] != "succeeded":  # a retry after a decline makes a new charge
            self._charge(intent, pm)
        intent.update(status="succeeded", amount_received=intent["amount"], next_action=None)
        if intent["setup_future_usage"] and intent["customer"]:
            pm["customer"] = intent["customer"]
        self.emit("payment_intent.succeeded", intent)
        if pm["_behaviour"].get("dispute"):
            self.dispute(intent["latest_charge"])
        return intent

    def _decline(self, intent, pm, code, decline_code, *, message="Your card was declined."):
        self._charge(intent, pm, status="failed")
        failure = {"type": "card_error", "code": code, "message": message, "payment_method": dict(pm)}
        if decline_code:
            failure["decline_code"] = decline_code
        failure["payment_method"].pop("_behaviour", None)
        intent.update(status="requires_payment_method", last_payment_error=failure, next_action=None)
        self.emit("payment_intent.payment_failed", intent)
        body = {**failure, "payment_intent": intent, "charge": intent["latest_charge"]}
        return 402, {"error": body}

    def cancel_intent(self, intent_id, params):
        intent = self.intents.get(intent_id)
        if intent is None:
            return missing("payment_intent", intent_id, "intent")
        if intent["status"] not in PI_CANCELLABLE:
            return error(
                400,
                "invalid_request_error",
                f"You cannot cancel this PaymentIntent because it has a status of {intent['status']}.",
                code="payment_intent_unexpected_state",
                payment_intent=intent,
            )
        reason = params.get("cancellation_reason") or "requested_by_customer"
        intent.update(status="canceled", canceled_at=int(time.time()), cancellation_reason=reason, next_action=None)
        self.emit("payment_intent.canceled", intent)
        return 200, intent

    def finish_3ds(self, intent_id, *, succeed):
        intent = self.intents[intent_id]
        assert intent["status"] == "requires_action", intent["status"]
        pm = self.methods[intent["payment_method"]]
        if succeed:
            return self._succeed(intent, pm)
        failure = {
            "type": "card_error",
            "code": "payment_intent_authentication_failure",
            "message": "We are unable to authenticate your payment method.",
        }
        intent.update(status="requires_payment_method", last_payment_error=failure, next_action=None)
        self.emit("payment_intent.payment_failed", intent)
        return intent

    def settle_sepa(self, intent_id, *, succeed=None):
        intent = self.intents[intent_id]
        assert intent["status"] == "processing", intent["status"]
        pm = self.methods[intent["payment_method"]]
        behaviour = pm["_behaviour"]
        if succeed is None:
            succeed = behaviour["outcome"] == "succeed"
        if succeed:
            return self._succeed(intent, pm)
        self._charge(intent, pm, status="failed")
        code = behaviour.get("failure_code", "payment_method_provider_decline")
        failure = {"type": "card_error", "code": code, "message": "The customer's bank account could not be debited."}
        intent.update(status="requires_payment_method", last_payment_error=failure)
        self.emit("payment_intent.payment_failed", intent)
        return intent

    def dispute(self, charge_id):
        charge = self.charges[charge_id]
        charge["disputed"] = True
        dispute = {
            "id": new_id("du"),
            "object": "dispute",
            "amount": charge["amount"],
            "currency": charge["currency"],
            "charge": charge_id,
            "payment_intent": charge["payment_intent"],
            "reason": "general",
            "status": "needs_response",
            "created": int(time.time()),
            "livemode": False,
        }
        self.emit("charge.dispute.created", dispute)
        return dispute
