"""SetupIntents, Mandates and Refunds of fake_stripe.py: a mixin of StripeObjects (fake_stripe_objects.py), kept apart
so that each module stays readable. Methods answer (status, body) and run with the server's lock held."""

import secrets
import time

from .fake_stripe_errors import error, missing, new_id


class SavingsAndRefunds:
    # --- SetupIntents and Mandates --------------------------------------------------------------------------------

    def create_setup(self, params):
        if params.get("customer") and params["customer"] not in self.customers:
            return missing("customer", params["customer"], "customer")
        setup_id = new_id("seti")
        setup = {
            "id": setup_id,
            "object": "setup_intent",
            "client_secret": f"{setup_id}_secret_{secrets.token_hex(12)}",
            "customer": params.get("customer"),
            "metadata": params.get("metadata") or {},
            "payment_method": None,
            "payment_method_types": params.get("payment_method_types") or ["card"],
            "usage": params.get("usage") or "off_session",
            "status": "requires_payment_method",
            "last_setup_error": None,
            "next_action": None,
            "mandate": None,
            "created": int(time.time()),
            "livemode": False,
        }
        self.setups[setup_id] = setup
        return 200, setup

    def confirm_setup(self, setup_id, params, *, iban: str = ""):
        setup = self.setups.get(setup_id)
        if setup is None:
            return missing("setup_intent", setup_id, "intent")
        if setup["status"] not in ("requires_payment_method", "requires_confirmation"):
            return error(
                400,
                "invalid_request_error",
                f"This SetupIntent's status is {setup['status']}; it cannot be confirmed.",
                code="setup_intent_unexpected_state",
            )
        pm = self.method_from(iban=iban) if iban else self.resolve_method(params.get("payment_method"))
        if pm is None:
            return missing("payment_method", params.get("payment_method", ""), "payment_method")
        setup["payment_method"] = pm["id"]
        if pm["type"] == "sepa_debit":
            setup["mandate"] = self._mandate_for(pm, params)["id"]
        elif pm["_behaviour"]["outcome"] in ("3ds", "3ds_setup"):
            setup["status"] = "requires_action"
            setup["next_action"] = {"type": "use_stripe_sdk", "use_stripe_sdk": {"type": "three_d_secure_redirect"}}
            return 200, setup
        elif isinstance(pm["_behaviour"]["outcome"], tuple) and not pm["_behaviour"].get("setup_ok"):
            code, decline_code = pm["_behaviour"]["outcome"]
            failure = {"type": "card_error", "code": code, "message": "Your card was declined."}
            if decline_code:
                failure["decline_code"] = decline_code
            setup.update(status="requires_payment_method", last_setup_error=failure)
            self.emit("setup_intent.setup_failed", setup)
            return 402, {"error": {**failure, "setup_intent": setup}}
        return 200, self._setup_succeeded(setup, pm)

    def _setup_succeeded(self, setup, pm):
        pm["customer"] = setup["customer"]
        setup.update(status="succeeded", next_action=None, last_setup_error=None)
        self.emit("setup_intent.succeeded", setup)
        return setup

    def finish_setup_3ds(self, setup_id, *, succeed):
        setup = self.setups[setup_id]
        assert setup["status"] == "requires_action", setup["status"]
        pm = self.methods[setup["payment_method"]]
        if succeed:
            return self._setup_succeeded(setup, pm)
        failure = {"type": "card_error", "code": "setup_intent_authentication_failure"}
        failure["message"] = "We are unable to authenticate your payment method."
        setup.update(status="requires_payment_method", last_setup_error=failure, next_action=None)
        self.emit("setup_intent.setup_failed", setup)
        return setup

    def _mandate_for(self, pm, params):
        for mandate in self.mandates.values():
            if mandate["payment_method"] == pm["id"]:
                return mandate
        online = ((params.get("mandate_data") or {}).get("customer_acceptance") or {}).get("online") or {}
        mandate = {
            "id": new_id("mandate"),
            "object": "mandate",
            "customer_acceptance": {
                "type": "online",
                "accepted_at": int(time.time()),
                "online": {
                    "ip_address": online.get("ip_address", "127.0.0.1"),
                    "user_agent": online.get("user_agent", "Mozilla/5.0"),
                },
            },
            "payment_method": pm["id"],
            "payment_method_details": {
                "type": "sepa_debit",
                "sepa_debit": {"reference": secrets.token_hex(8).upper(), "url": "https://payments.stripe.com/mandate"},
            },
            "status": "active",
            "type": "multi_use",
            "livemode": False,
        }
        self.mandates[mandate["id"]] = mandate
        return mandate

    # --- Refunds --------------------------------------------------------------------------------------------------

    def create_refund(self, params):
        charge = None
        if params.get("charge"):
            charge = self.charges.get(params["charge"])
            if charge is None:
                return missing("charge", params["charge"], "charge")
        elif params.get("payment_intent"):
            intent = self.intents.get(params["payment_intent"])
            if intent is None:
                return missing("payment_intent", params["payment_intent"], "payment_intent")
            charge = self.charges.get(intent["latest_charge"] or "")
        else:
            return error(400, "invalid_request_error", "One of `charge` or `payment_intent` is required.")
        if charge is None or charge["status"] != "succeeded":
            return error(
                400, "invalid_request_error", "This PaymentIntent does not have a successful charge to refund."
            )
        left = charge["amount"] - charge["amount_refunded"]
        if left <= 0:
            message = f"Charge {charge['id']} has already been refunded."
            return error(400, "invalid_request_error", message, code="charge_already_refunded")
        amount = int(params["amount"]) if params.get("amount") else left
        if amount > left:
            message = f"Refund amount ({amount / 100:.2f} €) is greater than unrefunded amount on charge."
            return error(400, "invalid_request_error", message, param="amount")
        charge["amount_refunded"] += amount
        charge["refunded"] = charge["amount_refunded"] == charge["amount"]
        sepa = charge["payment_method_details"]["type"] == "sepa_debit"
        refund = {
            "id": new_id("re"),
            "object": "refund",
            "amount": amount,
            "currency": charge["currency"],
            "charge": charge["id"],
            "payment_intent": charge["payment_intent"],
            "metadata": params.get("metadata") or {},
            "reason": params.get("reason"),
            # A card refund is accepted at once; a SEPA one waits for the bank.
            "status": "pending" if sepa else "succeeded",
            "created": int(time.time()),
        }
        self.refunds[refund["id"]] = refund
        self.emit("charge.refunded", charge)
        return 200, refund

    def finish_refund(self, refund_id, *, succeed):
        refund = self.refunds[refund_id]
        assert refund["status"] == "pending", refund["status"]
        if succeed:
            refund["status"] = "succeeded"
        else:  # the bank sent the money back: the charge is refundable again
            refund.update(status="failed", failure_reason="lost_or_stolen_card")
            self.charges[refund["charge"]]["amount_refunded"] -= refund["amount"]
            self.charges[refund["charge"]]["refunded"] = False
        self.emit("refund.updated", refund)
        return refund
