"""A local stand-in for PayPal's REST API (OAuth2 token, Orders v2, webhook signature verification, and the
Subscriptions v1 API of fake_paypal_subscriptions.py).

It listens on 127.0.0.1 on a random port and answers with the JSON shapes PayPal documents, including its error
bodies ({name, message, debug_id, details: [{issue, description}]}) and its PayPal-Request-Id idempotency: a request
repeated with the same key gets the first answer again. Tests drive the buyer's side with `approve()` and
`decline_next_capture()`.
"""

import base64
import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

from .fake_paypal_subscriptions import SubscriptionsApi

CLIENT_ID = "fake-client-id"
CLIENT_SECRET = "fake-client-secret"
WEBHOOK_ID = "WH1FAKE0WEBHOOK"
VALID_SIGNATURE = "valid-transmission-signature"


def _error(status, name, message, issue="", description=""):
    body = {"name": name, "message": message, "debug_id": uuid.uuid4().hex[:13]}
    if issue:
        body["details"] = [{"issue": issue, "description": description or message}]
    return status, body


class FakePayPal(SubscriptionsApi):
    def __init__(self, *, token_lifetime: int = 32400):
        self.token_lifetime = token_lifetime
        self.lock = threading.Lock()
        self.orders: dict[str, dict] = {}
        self.tokens: set[str] = set()
        self.idempotent: dict[tuple[str, str], tuple[int, dict]] = {}
        self.requests: list[dict] = []
        self._decline: dict[str, str] = {}
        self._pending: set[str] = set()
        self.refunds: dict[str, dict] = {}  # capture id → its refund
        self._subs_init()  # Subscriptions v1 (fake_paypal_subscriptions.py)
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address
        return f"http://{host}:{port}"

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    # --- the buyer's side, driven by tests ------------------------------------------------------------------------

    def approve(self, order_id: str):
        with self.lock:
            self.orders[order_id]["status"] = "APPROVED"

    def decline_next_capture(self, order_id: str, *, how: str = "INSTRUMENT_DECLINED"):
        """how: INSTRUMENT_DECLINED (422 error) or DECLINED (201 with the capture's status DECLINED)."""
        with self.lock:
            self._decline[order_id] = how

    def pend_next_capture(self, order_id: str):
        with self.lock:
            self._pending.add(order_id)

    def calls(self, path_part: str) -> list[dict]:
        return [r for r in self.requests if path_part in r["path"]]

    # --- HTTP -----------------------------------------------------------------------------------------------------

    def _handler_class(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def _reply(self, status, body):
                payload = b"" if status == 204 else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.send_header("Paypal-Debug-Id", uuid.uuid4().hex[:13])
                self.end_headers()
                self.wfile.write(payload)

            def _body(self):
                length = int(self.headers.get("Content-Length") or 0)
                return self.rfile.read(length) if length else b""

            def do_GET(self):
                self._dispatch("GET")

            def do_POST(self):
                self._dispatch("POST")

            def _dispatch(self, method):
                raw = self._body()
                headers = {k.lower(): v for k, v in self.headers.items()}
                with fake.lock:
                    fake.requests.append({"method": method, "path": self.path, "headers": headers, "body": raw})
                status, body = fake.handle(method, self.path, headers, raw)
                self._reply(status, body)

        return Handler

    def handle(self, method, path, headers, raw):
        if path == "/v1/oauth2/token" and method == "POST":
            return self._token(headers, raw)
        auth = headers.get("authorization", "")
        if not auth.startswith("Bearer ") or auth[7:] not in self.tokens:
            return 401, {"error": "invalid_token", "error_description": "Token signature verification failed"}
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return _error(400, "INVALID_REQUEST", "Request is not well-formed.", "MALFORMED_REQUEST_JSON")
        request_id = headers.get("paypal-request-id", "")
        if request_id and method == "POST":
            with self.lock:
                cached = self.idempotent.get((path, request_id))
            if cached:
                return cached
        result = self._route(method, path, body)
        if request_id and method == "POST" and result[0] < 500:
            with self.lock:
                self.idempotent.setdefault((path, request_id), result)
                result = self.idempotent[(path, request_id)]
        return result

    def _token(self, headers, raw):
        auth = headers.get("authorization", "")
        expected = base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
        form = parse_qs(raw.decode())
        if auth != f"Basic {expected}" or form.get("grant_type") != ["client_credentials"]:
            return 401, {"error": "invalid_client", "error_description": "Client Authentication failed"}
        token = f"A21AA{uuid.uuid4().hex}"
        with self.lock:
            self.tokens.add(token)
        return 200, {
            "scope": "https://uri.paypal.com/services/payments/payment",
            "access_token": token,
            "token_type": "Bearer",
            "app_id": "APP-80W284485P519543T",
            "expires_in": self.token_lifetime,
            "nonce": uuid.uuid4().hex,
        }

    def _route(self, method, path, body):
        answer = self._subs_route(method, path, body)
        if answer is not None:
            return answer
        parts = [p for p in path.split("?")[0].split("/") if p]
        if parts[:3] == ["v2", "checkout", "orders"]:
            if len(parts) == 3 and method == "POST":
                return self._create(body)
            if len(parts) == 4 and method == "GET":
                return self._get(parts[3])
            if len(parts) == 5 and parts[4] == "capture" and method == "POST":
                return self._capture(parts[3])
        if parts[:3] == ["v2", "payments", "captures"] and len(parts) == 5 and parts[4] == "refund":
            if method == "POST":
                return self._refund(parts[3])
        if path == "/v1/notifications/verify-webhook-signature" and method == "POST":
            return self._verify(body)
        return _error(404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", "INVALID_RESOURCE_ID")

    def _links(self, order_id):
        base = f"{self.url}/v2/checkout/orders/{order_id}"
        return [
            {"href": base, "rel": "self", "method": "GET"},
            {"href": f"https://www.sandbox.paypal.com/checkoutnow?token={order_id}", "rel": "approve", "method": "GET"},
            {"href": f"{base}/capture", "rel": "capture", "method": "POST"},
        ]

    def _create(self, body):
        units = body.get("purchase_units") or []
        amount = (units[0].get("amount") if units else None) or {}
        if body.get("intent") != "CAPTURE" or not amount.get("value") or not amount.get("currency_code"):
            return _error(
                400, "INVALID_REQUEST", "Request is not well-formed.", "MISSING_REQUIRED_PARAMETER", "intent/amount"
            )
        order_id = uuid.uuid4().hex[:17].upper()
        order = {
            "id": order_id,
            "intent": "CAPTURE",
            "status": "CREATED",
            "purchase_units": [
                {
                    "reference_id": units[0].get("reference_id", "default"),
                    "custom_id": units[0].get("custom_id", ""),
                    "description": units[0].get("description", ""),
                    "amount": {"currency_code": amount["currency_code"], "value": amount["value"]},
                }
            ],
            "create_time": "2025-01-01T10:00:00Z",
            "links": self._links(order_id),
        }
        with self.lock:
            self.orders[order_id] = order
        return 201, {"id": order_id, "status": "CREATED", "links": order["links"]}

    def _get(self, order_id):
        with self.lock:
            order = self.orders.get(order_id)
            if order is None:
                return _error(
                    404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", "INVALID_RESOURCE_ID"
                )
            return 200, json.loads(json.dumps(order))

    def _capture(self, order_id):
        with self.lock:
            order = self.orders.get(order_id)
            if order is None:
                return _error(
                    404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", "INVALID_RESOURCE_ID"
                )
            if order["status"] == "COMPLETED":
                return _error(
                    422,
                    "UNPROCESSABLE_ENTITY",
                    "The requested action could not be performed, semantically incorrect, or failed business "
                    "validation.",
                    "ORDER_ALREADY_CAPTURED",
                    "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
                )
            if order["status"] != "APPROVED":
                return _error(
                    422,
                    "UNPROCESSABLE_ENTITY",
                    "The requested action could not be performed.",
                    "ORDER_NOT_APPROVED",
                    "Payer has not yet approved the Order for payment.",
                )
            decline = self._decline.pop(order_id, "")
            if decline == "INSTRUMENT_DECLINED":
                return _error(
                    422,
                    "UNPROCESSABLE_ENTITY",
                    "The requested action could not be performed.",
                    "INSTRUMENT_DECLINED",
                    "The instrument presented was either declined by the processor or bank, or it can't be used.",
                )
            unit = order["purchase_units"][0]
            capture_status = "DECLINED" if decline == "DECLINED" else "COMPLETED"
            if order_id in self._pending:
                self._pending.discard(order_id)
                capture_status = "PENDING"
            capture = {
                "id": uuid.uuid4().hex[:17].upper(),
                "status": capture_status,
                "amount": dict(unit["amount"]),
                "final_capture": True,
                "seller_protection": {"status": "ELIGIBLE"},
                "create_time": "2025-01-01T10:05:00Z",
            }
            if capture_status == "PENDING":
                capture["status_details"] = {"reason": "PENDING_REVIEW"}
            unit["payments"] = {"captures": [capture]}
            order["status"] = "COMPLETED" if capture_status in ("COMPLETED", "PENDING") else "APPROVED"
            order["payer"] = {"name": {"given_name": "John", "surname": "Doe"}, "payer_id": "QYR5Z8XDVJNXQ"}
            return 201, json.loads(json.dumps(order))

    def _refund(self, capture_id):
        """A full refund of a capture (POST /v2/payments/captures/{id}/refund)."""
        with self.lock:
            for order in self.orders.values():
                for unit in order["purchase_units"]:
                    for capture in (unit.get("payments") or {}).get("captures") or []:
                        if capture["id"] != capture_id:
                            continue
                        if capture_id in self.refunds:
                            return _error(
                                422,
                                "UNPROCESSABLE_ENTITY",
                                "The requested action could not be performed.",
                                "CAPTURE_FULLY_REFUNDED",
                                "The capture has already been fully refunded.",
                            )
                        refund = {
                            "id": uuid.uuid4().hex[:17].upper(),
                            "status": "COMPLETED",
                            "amount": dict(capture["amount"]),
                        }
                        capture["status"] = "REFUNDED"
                        self.refunds[capture_id] = refund
                        return 201, dict(refund)
        return _error(404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", "INVALID_RESOURCE_ID")

    def _verify(self, body):
        required = ("auth_algo", "cert_url", "transmission_id", "transmission_sig", "transmission_time")
        if any(not body.get(k) for k in required) or not body.get("webhook_id") or "webhook_event" not in body:
            return _error(400, "VALIDATION_ERROR", "Invalid request - see details", "MISSING_REQUIRED_PARAMETER")
        ok = body["webhook_id"] == WEBHOOK_ID and body["transmission_sig"] == VALID_SIGNATURE
        return 200, {"verification_status": "SUCCESS" if ok else "FAILURE"}
