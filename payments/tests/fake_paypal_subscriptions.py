"""The fake PayPal's Subscriptions v1: catalogs/products, billing/plans, billing/subscriptions (create,
get, cancel, suspend, transactions, capture of the outstanding balance) and Payments v1's sale refund, with PayPal's
documented shapes and statuses (a subscription is APPROVAL_PENDING, then APPROVED by the buyer, ACTIVE, SUSPENDED,
CANCELLED). FakePayPal mixes this in; tests drive the buyer's and PayPal's side with `approve_subscription()`,
`bill_cycle()` and `fail_cycle()`, which answer the webhook event PayPal would send."""

import json
import uuid
from decimal import Decimal

NOW = "2030-01-10T10:00:00Z"
PRODUCT_TYPES = ("PHYSICAL", "DIGITAL", "SERVICE")


def _err(status, name, message, issue="", description=""):
    body = {"name": name, "message": message, "debug_id": uuid.uuid4().hex[:13]}
    if issue:
        body["details"] = [{"issue": issue, "description": description or message}]
    return status, body


NOT_FOUND = ("RESOURCE_NOT_FOUND", "The specified resource does not exist.", "INVALID_RESOURCE_ID")


class SubscriptionsApi:
    """Mixed into FakePayPal: needs self.lock and self.url."""

    def _subs_init(self):
        self.products: dict[str, dict] = {}
        self.plans: dict[str, dict] = {}
        self.subscriptions: dict[str, dict] = {}
        self.sales: dict[str, dict] = {}  # sale id → sale (Payments v1 shape) with its subscription id
        self.sale_refunds: dict[str, dict] = {}
        self._fail_capture: set[str] = set()

    # --- the buyer's and PayPal's side, driven by tests -----------------------------------------------------------

    def approve_subscription(self, subscription_id: str, *, first_payment: bool = True) -> list[dict]:
        """The buyer approves in PayPal's popup: the subscription becomes ACTIVE and its first cycle is billed.
        Answers the webhook events PayPal sends (ACTIVATED, then PAYMENT.SALE.COMPLETED)."""
        with self.lock:
            sub = self.subscriptions[subscription_id]
            sub["status"] = "ACTIVE"
            sub["status_update_time"] = NOW
        events = [self.event("BILLING.SUBSCRIPTION.ACTIVATED", "subscription", self._sub_view(subscription_id))]
        if first_payment:
            events.append(self.bill_cycle(subscription_id))
        return events

    def bill_cycle(self, subscription_id: str, *, time: str = NOW) -> dict:
        """PayPal bills the next cycle: a completed sale. Answers PAYMENT.SALE.COMPLETED."""
        with self.lock:
            sub = self.subscriptions[subscription_id]
            sale = self._new_sale(sub, self._price(sub), time)
            self._regular(sub)["cycles_completed"] += 1
            self._regular(sub)["cycles_remaining"] -= 1
            sub["billing_info"]["last_payment"] = {"amount": dict(sale["amount_v2"]), "time": time}
            view = self._public_sale(sale)
        return self.event("PAYMENT.SALE.COMPLETED", "sale", view)

    def fail_cycle(self, subscription_id: str, *, reason: str = "PAYMENT_DENIED", time: str = NOW) -> dict:
        """PayPal's charge of the next cycle is refused: owed in the outstanding balance. Answers
        BILLING.SUBSCRIPTION.PAYMENT.FAILED (the resource is the subscription)."""
        with self.lock:
            sub = self.subscriptions[subscription_id]
            billing = sub["billing_info"]
            price = self._price(sub)
            billing["failed_payments_count"] += 1
            billing["last_failed_payment"] = {"amount": dict(price), "time": time, "reason_code": reason}
            owed = Decimal(billing["outstanding_balance"]["value"]) + Decimal(price["value"])
            billing["outstanding_balance"] = {"currency_code": price["currency_code"], "value": f"{owed:.2f}"}
        return self.event("BILLING.SUBSCRIPTION.PAYMENT.FAILED", "subscription", self._sub_view(subscription_id))

    def refuse_next_outstanding_capture(self, subscription_id: str):
        with self.lock:
            self._fail_capture.add(subscription_id)

    def event(self, event_type: str, resource_type: str, resource: dict) -> dict:
        return {
            "id": f"WH-{uuid.uuid4().hex[:17].upper()}",
            "event_version": "1.0",
            "create_time": NOW,
            "resource_type": resource_type,
            "resource_version": "2.0" if resource_type == "subscription" else "1.0",
            "event_type": event_type,
            "summary": event_type,
            "resource": resource,
        }

    # --- helpers (called with the lock held) ----------------------------------------------------------------------

    @staticmethod
    def _regular(sub):
        return sub["billing_info"]["cycle_executions"][0]

    def _price(self, sub):
        plan = self.plans[sub["plan_id"]]
        return dict(plan["billing_cycles"][0]["pricing_scheme"]["fixed_price"])

    def _new_sale(self, sub, price, time):
        sale_id = uuid.uuid4().hex[:17].upper()
        sale = {
            "id": sale_id,
            "state": "completed",
            "amount": {
                "total": price["value"],
                "currency": price["currency_code"],
                "details": {"subtotal": price["value"]},
            },
            "amount_v2": dict(price),
            "payment_mode": "INSTANT_TRANSFER",
            "protection_eligibility": "ELIGIBLE",
            "billing_agreement_id": sub["id"],
            "create_time": time,
            "update_time": time,
        }
        self.sales[sale_id] = sale
        sub["_sales"].append(sale_id)
        return sale

    def _public_sale(self, sale):
        view = {k: v for k, v in sale.items() if k != "amount_v2"}
        view["links"] = [
            {"href": f"{self.url}/v1/payments/sale/{sale['id']}", "rel": "self", "method": "GET"},
            {"href": f"{self.url}/v1/payments/sale/{sale['id']}/refund", "rel": "refund", "method": "POST"},
        ]
        return json.loads(json.dumps(view))

    def _sub_view(self, subscription_id):
        with self.lock:
            sub = self.subscriptions[subscription_id]
            return json.loads(json.dumps({k: v for k, v in sub.items() if not k.startswith("_")}))

    # --- routes ---------------------------------------------------------------------------------------------------

    def _subs_route(self, method, path, body):
        """An answer, or None when the path is not the Subscriptions API's."""
        bare, _, query = path.partition("?")
        parts = [p for p in bare.split("/") if p]
        if parts == ["v1", "catalogs", "products"] and method == "POST":
            return self._product_create(body)
        if parts == ["v1", "billing", "plans"] and method == "POST":
            return self._plan_create(body)
        if parts[:3] == ["v1", "billing", "plans"] and len(parts) == 4 and method == "GET":
            with self.lock:
                plan = self.plans.get(parts[3])
            return (200, json.loads(json.dumps(plan))) if plan else _err(404, *NOT_FOUND)
        if parts == ["v1", "billing", "subscriptions"] and method == "POST":
            return self._sub_create(body)
        if parts[:3] == ["v1", "billing", "subscriptions"] and len(parts) >= 4:
            sub_id = parts[3]
            with self.lock:
                known = sub_id in self.subscriptions
            if not known:
                return _err(404, *NOT_FOUND)
            if len(parts) == 4 and method == "GET":
                return 200, self._sub_view(sub_id)
            if len(parts) == 5 and method == "POST" and parts[4] in ("cancel", "suspend", "activate"):
                return self._sub_state(sub_id, parts[4], body)
            if len(parts) == 5 and parts[4] == "transactions" and method == "GET":
                return self._sub_transactions(sub_id, query)
            if len(parts) == 5 and parts[4] == "capture" and method == "POST":
                return self._sub_capture(sub_id, body)
        if parts[:3] == ["v1", "payments", "sale"] and len(parts) == 5 and parts[4] == "refund" and method == "POST":
            return self._sale_refund(parts[3])
        return None

    def _product_create(self, body):
        if not body.get("name") or body.get("type") not in PRODUCT_TYPES:
            return _err(
                400, "INVALID_REQUEST", "Request is not well-formed.", "MISSING_REQUIRED_PARAMETER", "name/type"
            )
        product_id = f"PROD-{uuid.uuid4().hex[:17].upper()}"
        product = {
            "id": product_id,
            "name": body["name"],
            "description": body.get("description", ""),
            "type": body["type"],
            "category": body.get("category", ""),
            "create_time": NOW,
            "update_time": NOW,
            "links": [{"href": f"{self.url}/v1/catalogs/products/{product_id}", "rel": "self", "method": "GET"}],
        }
        with self.lock:
            self.products[product_id] = product
        return 201, json.loads(json.dumps(product))

    def _plan_create(self, body):
        with self.lock:
            product_known = body.get("product_id") in self.products
        cycles = body.get("billing_cycles") or []
        if not product_known:
            return _err(
                422, "UNPROCESSABLE_ENTITY", "The requested action could not be performed.", "INVALID_PRODUCT_ID"
            )
        if not body.get("name") or not cycles:
            return _err(400, "INVALID_REQUEST", "Request is not well-formed.", "MISSING_REQUIRED_PARAMETER", "name")
        cycle = cycles[0]
        price = ((cycle.get("pricing_scheme") or {}).get("fixed_price")) or {}
        frequency = cycle.get("frequency") or {}
        if not price.get("value") or frequency.get("interval_unit") not in ("DAY", "WEEK", "MONTH", "YEAR"):
            return _err(
                400, "INVALID_REQUEST", "Request is not well-formed.", "INVALID_PARAMETER_VALUE", "billing_cycles"
            )
        plan_id = f"P-{uuid.uuid4().hex[:24].upper()}"
        plan = {
            "id": plan_id,
            "product_id": body["product_id"],
            "name": body["name"],
            "description": body.get("description", ""),
            "status": body.get("status", "ACTIVE"),
            "billing_cycles": cycles,
            "payment_preferences": body.get("payment_preferences") or {},
            "create_time": NOW,
            "update_time": NOW,
            "links": [{"href": f"{self.url}/v1/billing/plans/{plan_id}", "rel": "self", "method": "GET"}],
        }
        with self.lock:
            self.plans[plan_id] = plan
        return 201, json.loads(json.dumps(plan))

    def _sub_create(self, body):
        with self.lock:
            plan = self.plans.get(body.get("plan_id", ""))
        if plan is None:
            return _err(422, "UNPROCESSABLE_ENTITY", "The requested action could not be performed.", "INVALID_PLAN_ID")
        if plan["status"] != "ACTIVE":
            return _err(
                422, "UNPROCESSABLE_ENTITY", "The requested action could not be performed.", "PLAN_STATUS_INVALID"
            )
        sub_id = f"I-{uuid.uuid4().hex[:12].upper()}"
        cycle = plan["billing_cycles"][0]
        price = cycle["pricing_scheme"]["fixed_price"]
        sub = {
            "id": sub_id,
            "plan_id": plan["id"],
            "status": "APPROVAL_PENDING",
            "custom_id": body.get("custom_id", ""),
            "quantity": "1",
            "subscriber": body.get("subscriber") or {},
            "start_time": NOW,
            "create_time": NOW,
            "billing_info": {
                "outstanding_balance": {"currency_code": price["currency_code"], "value": "0.00"},
                "cycle_executions": [
                    {
                        "tenure_type": "REGULAR",
                        "sequence": 1,
                        "cycles_completed": 0,
                        "cycles_remaining": cycle.get("total_cycles", 0),
                        "total_cycles": cycle.get("total_cycles", 0),
                    }
                ],
                "failed_payments_count": 0,
            },
            "links": [
                {"href": f"https://www.sandbox.paypal.com/webapps/billing/subscriptions?ba_token=BA-{sub_id[2:]}",
                 "rel": "approve", "method": "GET"},
                {"href": f"{self.url}/v1/billing/subscriptions/{sub_id}", "rel": "self", "method": "GET"},
            ],
            "_sales": [],
        }  # fmt: skip
        with self.lock:
            self.subscriptions[sub_id] = sub
        view = self._sub_view(sub_id)
        return 201, view

    def _sub_state(self, sub_id, action, body):
        if not body.get("reason") and action != "activate":
            return _err(400, "INVALID_REQUEST", "Request is not well-formed.", "MISSING_REQUIRED_PARAMETER", "reason")
        target = {"cancel": "CANCELLED", "suspend": "SUSPENDED", "activate": "ACTIVE"}[action]
        allowed = {
            "cancel": ("ACTIVE", "SUSPENDED", "APPROVED", "APPROVAL_PENDING"),
            "suspend": ("ACTIVE",),
            "activate": ("SUSPENDED",),
        }[action]
        with self.lock:
            sub = self.subscriptions[sub_id]
            if sub["status"] not in allowed:
                return _err(
                    422,
                    "UNPROCESSABLE_ENTITY",
                    "The requested action could not be performed, semantically incorrect, or failed business "
                    "validation.",
                    "SUBSCRIPTION_STATUS_INVALID",
                    f"Invalid subscription status for {action} action; subscription status should be active or "
                    "suspended.",
                )
            sub["status"] = target
            sub["status_change_note"] = body.get("reason", "")
        return 204, {}

    def _sub_transactions(self, sub_id, query):
        if "start_time=" not in query or "end_time=" not in query:
            return _err(
                400, "INVALID_REQUEST", "Request is not well-formed.", "MISSING_REQUIRED_PARAMETER", "start_time"
            )
        with self.lock:
            sub = self.subscriptions[sub_id]
            transactions = []
            for sale_id in sub["_sales"]:
                sale = self.sales[sale_id]
                transactions.append(
                    {
                        "status": "REFUNDED" if sale_id in self.sale_refunds else "COMPLETED",
                        "id": sale_id,
                        "amount_with_breakdown": {
                            "gross_amount": dict(sale["amount_v2"]),
                            "fee_amount": {"currency_code": sale["amount_v2"]["currency_code"], "value": "0.50"},
                            "net_amount": dict(sale["amount_v2"]),
                        },
                        "payer_name": {"given_name": "John", "surname": "Doe"},
                        "payer_email": "buyer@example.com",
                        "time": sale["create_time"],
                    }
                )
        return 200, {"transactions": transactions, "links": []}

    def _sub_capture(self, sub_id, body):
        amount = body.get("amount") or {}
        if body.get("capture_type") != "OUTSTANDING_BALANCE" or not amount.get("value") or not body.get("note"):
            return _err(
                400, "INVALID_REQUEST", "Request is not well-formed.", "MISSING_REQUIRED_PARAMETER", "note/amount"
            )
        with self.lock:
            sub = self.subscriptions[sub_id]
            owed = Decimal(sub["billing_info"]["outstanding_balance"]["value"])
            if owed <= 0 or Decimal(amount["value"]) > owed:
                return _err(
                    422,
                    "UNPROCESSABLE_ENTITY",
                    "The requested action could not be performed.",
                    "ZERO_OUTSTANDING_BALANCE",
                )
            if sub_id in self._fail_capture:
                self._fail_capture.discard(sub_id)
                return _err(
                    422, "UNPROCESSABLE_ENTITY", "The requested action could not be performed.", "TRANSACTION_REFUSED"
                )
            price = {"currency_code": amount.get("currency_code", "EUR"), "value": amount["value"]}
            sale = self._new_sale(sub, price, NOW)
            left = owed - Decimal(amount["value"])
            sub["billing_info"]["outstanding_balance"]["value"] = f"{left:.2f}"
            self._regular(sub)["cycles_completed"] += 1
            self._regular(sub)["cycles_remaining"] -= 1
            return 202, {
                "status": "COMPLETED",
                "id": sale["id"],
                "amount_with_breakdown": {"gross_amount": dict(price), "net_amount": dict(price)},
                "payer_name": {"given_name": "John", "surname": "Doe"},
                "payer_email": "buyer@example.com",
                "time": NOW,
            }

    def _sale_refund(self, sale_id):
        with self.lock:
            sale = self.sales.get(sale_id)
            if sale is None:
                return _err(404, *NOT_FOUND)
            if sale_id in self.sale_refunds:
                return _err(
                    400,
                    "TRANSACTION_ALREADY_REFUNDED",
                    "Request was refused because the transaction has already been refunded.",
                )
            refund = {
                "id": uuid.uuid4().hex[:17].upper(),
                "state": "completed",
                "amount": {"total": sale["amount"]["total"], "currency": sale["amount"]["currency"]},
                "sale_id": sale_id,
                "parent_payment": f"PAYID-{uuid.uuid4().hex[:20].upper()}",
                "create_time": NOW,
            }
            sale["state"] = "refunded"
            self.sale_refunds[sale_id] = refund
        return 201, dict(refund)
