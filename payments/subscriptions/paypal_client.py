"""PayPal Subscriptions v1 (docs/decisions.md 24): the catalog product and billing plan of a tariff, the
member's subscription, its sales, cancellation, suspension, the capture of an outstanding balance and the refund of
a sale.

It speaks through a PayPalProvider (its cached token, its timeouts and its time budget per operation), so every call
is bounded; callers run it from tasks wherever the answer can wait. Idempotency keys (PayPal-Request-Id) make a
retried creation, capture or refund answer the first one.
"""

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal, InvalidOperation
from urllib.parse import urlencode

from ..provider_types import ProviderError, ProviderRefund
from ..providers import PayPalProvider

# The subscription's statuses at PayPal.
APPROVAL_PENDING = "APPROVAL_PENDING"
APPROVED = "APPROVED"
ACTIVE = "ACTIVE"
SUSPENDED = "SUSPENDED"
CANCELLED = "CANCELLED"
EXPIRED = "EXPIRED"
ISSUE_STATUS_INVALID = "SUBSCRIPTION_STATUS_INVALID"  # cancelling a cancelled subscription, suspending a suspended
ISSUE_ALREADY_REFUNDED = "TRANSACTION_ALREADY_REFUNDED"
PRODUCT_CATEGORY = "EXERCISE_AND_FITNESS"


def _money(data: dict | None, key: str = "value") -> Decimal | None:
    value = (data or {}).get(key)
    if value is None:
        return None
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


@dataclass(frozen=True)
class ProviderSubscription:
    id: str
    status: str
    plan_id: str = ""
    custom_id: str = ""
    cycles_completed: int = 0
    failed_payments_count: int = 0
    last_failed_reason: str = ""
    outstanding: Decimal | None = None
    start_time: str = ""
    raw: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class ProviderSale:
    """A payment of a subscription (a "sale" in PayPal's words; a transaction in the subscription's list)."""

    id: str
    status: str
    amount: Decimal | None
    currency: str
    time: str = ""


def parse_subscription(data: dict) -> ProviderSubscription:
    billing = data.get("billing_info") or {}
    cycles = 0
    for execution in billing.get("cycle_executions") or []:
        if execution.get("tenure_type") == "REGULAR":
            cycles = int(execution.get("cycles_completed") or 0)
    failed = billing.get("last_failed_payment") or {}
    return ProviderSubscription(
        id=str(data.get("id", "")),
        status=str(data.get("status", "")),
        plan_id=str(data.get("plan_id", "")),
        custom_id=str(data.get("custom_id", "")),
        cycles_completed=cycles,
        failed_payments_count=int(billing.get("failed_payments_count") or 0),
        last_failed_reason=str(failed.get("reason_code", "")),
        outstanding=_money(billing.get("outstanding_balance")),
        start_time=str(data.get("start_time", "")),
        raw=data,
    )


def parse_transaction(data: dict) -> ProviderSale:
    gross = (data.get("amount_with_breakdown") or {}).get("gross_amount") or {}
    return ProviderSale(
        id=str(data.get("id", "")),
        status=str(data.get("status", "")),
        amount=_money(gross),
        currency=str(gross.get("currency_code", "")),
        time=str(data.get("time", "")),
    )


def parse_sale(resource: dict) -> ProviderSale:
    """A PAYMENT.SALE.* webhook's resource (Payments v1 sale: amount.total, state)."""
    money = resource.get("amount") or {}
    return ProviderSale(
        id=str(resource.get("id", "")),
        status=str(resource.get("state", "")).upper(),
        amount=_money(money, "total"),
        currency=str(money.get("currency", "")),
        time=str(resource.get("create_time", "")),
    )


class PayPalSubscriptions:
    """The Subscriptions v1 calls, through one PayPalProvider instance (one time budget per operation)."""

    def __init__(self, provider: PayPalProvider):
        self.provider = provider

    def _call(self, method: str, path: str, *, json=None, request_id: str = "") -> dict:
        return self.provider._request(method, path, json=json, request_id=request_id)

    def create_product(self, *, name: str, description: str, request_id: str) -> str:
        body = {
            "name": name[:127],
            "description": (description or name)[:256],
            "type": "SERVICE",
            "category": PRODUCT_CATEGORY,
        }
        return str(self._call("POST", "/v1/catalogs/products", json=body, request_id=request_id)["id"])

    def create_plan(
        self,
        *,
        product_id: str,
        name: str,
        amount: Decimal,
        currency: str,
        interval_months: int,
        cycles: int,
        request_id: str,
    ) -> str:
        body = {
            "product_id": product_id,
            "name": name[:127],
            "description": f"{name} – {cycles} × {amount:.2f} {currency}"[:127],
            "status": "ACTIVE",
            "billing_cycles": [
                {
                    "frequency": {"interval_unit": "MONTH", "interval_count": interval_months},
                    "tenure_type": "REGULAR",
                    "sequence": 1,
                    "total_cycles": cycles,
                    "pricing_scheme": {"fixed_price": {"value": f"{amount:.2f}", "currency_code": currency}},
                }
            ],
            # A failed period stays owed and is billed again (the studio retries it after 3 days, docs/decisions.md 25);
            # PayPal suspends the subscription after 3 failures in a row.
            "payment_preferences": {
                "auto_bill_outstanding": True,
                "setup_fee_failure_action": "CANCEL",
                "payment_failure_threshold": 3,
            },
        }
        return str(self._call("POST", "/v1/billing/plans", json=body, request_id=request_id)["id"])

    def create_subscription(
        self,
        *,
        plan_id: str,
        custom_id: str,
        given_name: str,
        surname: str,
        email: str,
        brand_name: str,
        return_url: str,
        cancel_url: str,
        request_id: str,
    ) -> ProviderSubscription:
        body = {
            "plan_id": plan_id,
            "custom_id": custom_id[:127],
            "subscriber": {
                "name": {"given_name": given_name[:140] or "-", "surname": surname[:140] or "-"},
                "email_address": email,
            },
            "application_context": {
                "brand_name": brand_name[:127],
                "locale": "fr-FR",
                "shipping_preference": "NO_SHIPPING",
                "user_action": "SUBSCRIBE_NOW",
                "return_url": return_url,
                "cancel_url": cancel_url,
            },
        }
        return parse_subscription(self._call("POST", "/v1/billing/subscriptions", json=body, request_id=request_id))

    def get_subscription(self, *, subscription_id: str) -> ProviderSubscription:
        return parse_subscription(self._call("GET", f"/v1/billing/subscriptions/{subscription_id}"))

    def transactions(self, *, subscription_id: str, start: datetime, end: datetime) -> list[ProviderSale]:
        query = urlencode(
            {"start_time": start.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "end_time": end.strftime("%Y-%m-%dT%H:%M:%S.000Z")}
        )
        data = self._call("GET", f"/v1/billing/subscriptions/{subscription_id}/transactions?{query}")
        return [parse_transaction(t) for t in data.get("transactions") or []]

    def _state_change(self, subscription_id: str, action: str, reason: str) -> None:
        try:
            self._call("POST", f"/v1/billing/subscriptions/{subscription_id}/{action}", json={"reason": reason[:127]})
        except ProviderError as exc:
            if exc.issue != ISSUE_STATUS_INVALID:  # cancelled or suspended already: done
                raise

    def cancel(self, *, subscription_id: str, reason: str) -> None:
        self._state_change(subscription_id, "cancel", reason)

    def suspend(self, *, subscription_id: str, reason: str) -> None:
        self._state_change(subscription_id, "suspend", reason)

    def activate(self, *, subscription_id: str, reason: str) -> None:
        self._state_change(subscription_id, "activate", reason)

    def capture_outstanding(
        self, *, subscription_id: str, amount: Decimal, currency: str, note: str, request_id: str
    ) -> ProviderSale:
        body = {
            "note": note[:128],
            "capture_type": "OUTSTANDING_BALANCE",
            "amount": {"currency_code": currency, "value": f"{amount:.2f}"},
        }
        data = self._call(
            "POST", f"/v1/billing/subscriptions/{subscription_id}/capture", json=body, request_id=request_id
        )
        return parse_transaction(data)

    def refund_sale(self, *, sale_id: str, request_id: str) -> ProviderRefund:
        """Refund a whole sale (POST /v1/payments/sale/{id}/refund); a sale refunded already is reported refunded."""
        try:
            data = self._call("POST", f"/v1/payments/sale/{sale_id}/refund", json={}, request_id=request_id)
        except ProviderError as exc:
            if exc.issue == ISSUE_ALREADY_REFUNDED:
                return ProviderRefund(id="", status="COMPLETED")
            raise
        return ProviderRefund(id=str(data.get("id", "")), status=str(data.get("state", "")).upper())
