"""Payment providers behind one interface: PayPal's Orders v2 REST API, or the simulator (payments/simulator.py).

Both answer the same small dataclasses, so services.py runs the same create and capture code whichever is configured
(docs/decisions.md 15).
"""

import logging
import time
from decimal import Decimal, InvalidOperation

import requests
from django.conf import settings
from django.core.cache import cache

from .choices import CURRENCY_EUR
from .provider_types import (
    CAPTURE_DECLINED,
    ISSUE_CAPTURE_FULLY_REFUNDED,
    ISSUE_INSTRUMENT_DECLINED,
    ISSUE_ORDER_ALREADY_CAPTURED,
    ProviderCapture,
    ProviderError,
    ProviderOrder,
    ProviderRefund,
)
from .selectors import payment_provider_name
from .simulator import SimulatorProvider

logger = logging.getLogger(__name__)


def parse_order(data: dict) -> ProviderCapture:
    """Read an Orders v2 order object (the answer of capture or GET /v2/checkout/orders/{id})."""
    capture = {}
    for unit in data.get("purchase_units") or []:
        captures = (unit.get("payments") or {}).get("captures") or []
        if captures:
            capture = captures[-1]
            break
    amount = None
    money = capture.get("amount") or {}
    if money.get("value") is not None:
        try:
            amount = Decimal(str(money["value"]))
        except InvalidOperation:
            amount = None
    return ProviderCapture(
        order_id=data.get("id", ""),
        order_status=data.get("status", ""),
        capture_id=capture.get("id", ""),
        capture_status=capture.get("status", ""),
        amount=amount,
        currency=money.get("currency_code", ""),
        raw=data,
    )


class PayPalProvider:
    """PayPal Orders v2 over `requests`, with timeouts, a cached client-credentials token and idempotency keys."""

    name = "paypal"
    TOKEN_CACHE_KEY = "payments:paypal:token"
    TIMEOUT = (5, 20)  # connect, read (seconds), for one HTTP call
    # All the calls one instance makes (token, the call, a retry after a 401) end within this budget, so a capture in
    # a request answers before gunicorn's worker timeout (30 s). get_provider() gives one instance per operation.
    DEFAULT_BUDGET = 12.0

    def __init__(self, *, base_url: str, client_id: str, client_secret: str, webhook_id: str = ""):
        self.base_url = base_url.rstrip("/")
        self.client_id = client_id
        self.client_secret = client_secret
        self.webhook_id = webhook_id
        self.session = requests.Session()
        self.budget = float(getattr(settings, "PAYPAL_REQUEST_BUDGET", self.DEFAULT_BUDGET))
        self._deadline: float | None = None

    def _timeout(self) -> tuple[float, float]:
        """The (connect, read) timeout of the next call: what is left of this instance's budget, at most TIMEOUT."""
        now = time.monotonic()
        if self._deadline is None:
            self._deadline = now + self.budget
        left = self._deadline - now
        if left <= 0.05:
            raise ProviderError("PayPal injoignable : délai dépassé.")
        return (min(self.TIMEOUT[0], left), min(self.TIMEOUT[1], left))

    # --- plumbing ---------------------------------------------------------------------------------------------

    def _token_key(self) -> str:
        return f"{self.TOKEN_CACHE_KEY}:{self.base_url}:{self.client_id}"

    def access_token(self) -> str:
        """A client-credentials token, reused from the cache until shortly before PayPal says it expires."""
        token = cache.get(self._token_key())
        if token:
            return token
        try:
            response = self.session.post(
                f"{self.base_url}/v1/oauth2/token",
                auth=(self.client_id, self.client_secret),
                data={"grant_type": "client_credentials"},
                headers={"Accept": "application/json"},
                timeout=self._timeout(),
            )
        except requests.RequestException as exc:
            raise ProviderError(f"PayPal injoignable : {exc.__class__.__name__}") from exc
        if response.status_code != 200:
            raise ProviderError("Authentification PayPal refusée.", status_code=response.status_code)
        data = response.json()
        token = data["access_token"]
        lifetime = int(data.get("expires_in", 0)) - 60  # renew a minute early
        if lifetime > 0:
            cache.set(self._token_key(), token, lifetime)
        return token

    def _request(self, method: str, path: str, *, json=None, request_id: str = "", retry_auth: bool = True):
        headers = {"Authorization": f"Bearer {self.access_token()}", "Content-Type": "application/json"}
        if request_id:
            headers["PayPal-Request-Id"] = request_id
        if method == "POST" and path.startswith(("/v2/", "/v1/billing/", "/v1/catalogs/")):
            headers["Prefer"] = "return=representation"
        try:
            response = self.session.request(
                method, f"{self.base_url}{path}", json=json, headers=headers, timeout=self._timeout()
            )
        except requests.RequestException as exc:
            raise ProviderError(f"PayPal injoignable : {exc.__class__.__name__}") from exc
        if response.status_code == 401 and retry_auth:
            cache.delete(self._token_key())
            return self._request(method, path, json=json, request_id=request_id, retry_auth=False)
        try:
            data = response.json() if response.content else {}
        except ValueError:
            data = {}
        if response.status_code >= 400:
            details = data.get("details") or [{}]
            issue = details[0].get("issue", "") or data.get("name", "")
            description = details[0].get("description") or data.get("message") or "Erreur PayPal."
            raise ProviderError(
                description, issue=issue, status_code=response.status_code, debug_id=data.get("debug_id", "")
            )
        return data

    # --- the interface ----------------------------------------------------------------------------------------

    def create_order(
        self, *, amount: Decimal, currency: str, description: str, reference: str, request_id: str
    ) -> ProviderOrder:
        body = {
            "intent": "CAPTURE",
            "purchase_units": [
                {
                    "reference_id": reference[:256],
                    "custom_id": reference[:127],
                    "description": description[:127],
                    "amount": {"currency_code": currency, "value": f"{amount:.2f}"},
                }
            ],
        }
        data = self._request("POST", "/v2/checkout/orders", json=body, request_id=request_id)
        return ProviderOrder(id=data["id"], status=data.get("status", "CREATED"))

    def capture_order(self, *, order_id: str, request_id: str) -> ProviderCapture:
        """Capture; a repeated capture (ORDER_ALREADY_CAPTURED) is answered by reading the order again."""
        try:
            data = self._request("POST", f"/v2/checkout/orders/{order_id}/capture", json={}, request_id=request_id)
        except ProviderError as exc:
            if exc.issue == ISSUE_ORDER_ALREADY_CAPTURED:
                return self.get_order(order_id=order_id)
            if exc.issue == ISSUE_INSTRUMENT_DECLINED:
                return ProviderCapture(order_id=order_id, order_status="APPROVED", capture_status=CAPTURE_DECLINED)
            raise
        return parse_order(data)

    def get_order(self, *, order_id: str) -> ProviderCapture:
        return parse_order(self._request("GET", f"/v2/checkout/orders/{order_id}"))

    def refund_capture(self, *, capture_id: str, request_id: str, amount: Decimal | None = None) -> ProviderRefund:
        """Refund a capture, whole or `amount` of it (POST /v2/payments/captures/{id}/refund); the request id makes a
        retry answer the first refund again, and a capture refunded already is reported as refunded."""
        body = {} if amount is None else {"amount": {"value": f"{amount:.2f}", "currency_code": CURRENCY_EUR}}
        try:
            data = self._request("POST", f"/v2/payments/captures/{capture_id}/refund", json=body, request_id=request_id)
        except ProviderError as exc:
            if exc.issue == ISSUE_CAPTURE_FULLY_REFUNDED:
                return ProviderRefund(id="", status="COMPLETED")
            raise
        return ProviderRefund(id=str(data.get("id", "")), status=str(data.get("status", "")))

    def verify_webhook(self, *, headers, event: dict) -> bool:
        """Ask PayPal whether this delivery is genuine (POST /v1/notifications/verify-webhook-signature)."""
        if not self.webhook_id:
            logger.warning("PayPal webhook received but PAYPAL_WEBHOOK_ID is not set: refused.")
            return False
        names = {
            "auth_algo": "PAYPAL-AUTH-ALGO",
            "cert_url": "PAYPAL-CERT-URL",
            "transmission_id": "PAYPAL-TRANSMISSION-ID",
            "transmission_sig": "PAYPAL-TRANSMISSION-SIG",
            "transmission_time": "PAYPAL-TRANSMISSION-TIME",
        }
        body = {key: headers.get(header, "") for key, header in names.items()}
        if not all(body.values()):
            return False
        body["webhook_id"] = self.webhook_id
        body["webhook_event"] = event
        try:
            data = self._request("POST", "/v1/notifications/verify-webhook-signature", json=body)
        except ProviderError:
            logger.exception("PayPal webhook verification call failed")
            return False
        return data.get("verification_status") == "SUCCESS"


def get_provider():
    """The configured provider: PayPal with credentials, the simulator without (docs/decisions.md 15)."""
    if payment_provider_name() == "paypal":
        return PayPalProvider(
            base_url=settings.PAYPAL_API_BASE,
            client_id=settings.PAYPAL_CLIENT_ID,
            client_secret=settings.PAYPAL_CLIENT_SECRET,
            webhook_id=settings.PAYPAL_WEBHOOK_ID,
        )
    return SimulatorProvider()
