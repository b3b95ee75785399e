"""A local stand-in for Stripe's API (the part payments/stripe_gateway.py uses), on 127.0.0.1 at a random port.

It speaks Stripe's documented protocol: Bearer secret-key auth, form-encoded bodies in bracket notation
(metadata[key]=…, payment_method_types[0]=…, expand[]=…), the Idempotency-Key header (same key and body: the first
answer again with Idempotent-Replayed: true; same key, other body: 400 idempotency_error), error objects
{"error": {type, code, decline_code, message, param, payment_intent}} with Stripe's status codes, and signed webhook
deliveries (Stripe-Signature: t=…,v1=HMAC-SHA256("{t}.{payload}", endpoint secret)).

Tests play the customer's side with pay(), save(), complete_3ds() and settle_sepa(); fake_stripe_objects.py holds
the objects, their transitions and the documented test cards and IBANs.
"""

import hashlib
import hmac
import json
import re
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

import requests
import stripe

from .fake_stripe_errors import error, missing, new_id
from .fake_stripe_objects import StripeObjects

SECRET_KEY = "sk_test_fake0studio0secret"
PUBLISHABLE_KEY = "pk_test_fake0studio0publishable"
WEBHOOK_SECRET = "whsec_fake0studio0endpoint0secret"
API_VERSION = stripe.api_version


def parse_form(pairs: list[tuple[str, str]]) -> dict:
    """Stripe's bracket notation into nested dicts and lists: a[b][c]=1, a[]=x, a[0]=x."""
    result: dict = {}
    for key, value in pairs:
        parts = [re.match(r"^[^\[]+", key).group(0), *re.findall(r"\[([^\]]*)\]", key)]
        node = result
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            following = None if last else parts[index + 1]
            child_is_list = following is not None and (following == "" or following.isdigit())
            if isinstance(node, list):
                slot = len(node) if part == "" else int(part)
                while len(node) <= slot:
                    node.append(None)
                if last:
                    node[slot] = value
                else:
                    if node[slot] is None:
                        node[slot] = [] if child_is_list else {}
                    node = node[slot]
            elif last:
                node[part] = value
            else:
                node = node.setdefault(part, [] if child_is_list else {})
    return result


def sign(payload: str, *, secret: str = WEBHOOK_SECRET, timestamp: int | None = None) -> str:
    """The Stripe-Signature header Stripe sends with a webhook delivery."""
    timestamp = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(secret.encode(), f"{timestamp}.{payload}".encode(), hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


class FakeStripe:
    def __init__(self):
        self.lock = threading.Lock()
        self.objects = StripeObjects(self._emit)
        self.idempotent: dict[str, tuple[str, str, int, dict]] = {}  # key → (path, body, status, answer)
        self.requests: list[dict] = []
        self.events: list[dict] = []  # what Stripe would have sent, oldest first
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self.server.daemon_threads = True
        # A short poll makes stop() return at once instead of after serve_forever's default half second.
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

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

    # --- the customer's side and Stripe's own steps, driven by tests ---------------------------------------------

    def pay(self, intent_id: str, *, payment_method: str = "", iban: str = "", return_url: str = "") -> dict:
        """Stripe.js confirming a PaymentIntent with what the member typed in the Payment Element."""
        params = {"payment_method": payment_method, "return_url": return_url}
        with self.lock:
            return self.objects.confirm_intent(intent_id, params, iban=iban)[1]

    def save(self, setup_intent_id: str, *, payment_method: str = "", iban: str = "") -> dict:
        """Stripe.js confirming a SetupIntent; with an IBAN the member accepts the mandate online."""
        params = {"payment_method": payment_method}
        with self.lock:
            return self.objects.confirm_setup(setup_intent_id, params, iban=iban)[1]

    def complete_3ds(self, intent_id: str, *, succeed: bool = True) -> dict:
        """The member passes (or fails) the bank's 3-D Secure challenge, for a PaymentIntent or a SetupIntent."""
        with self.lock:
            if intent_id.startswith("seti_"):
                return self.objects.finish_setup_3ds(intent_id, succeed=succeed)
            return self.objects.finish_3ds(intent_id, succeed=succeed)

    def settle_sepa(self, intent_id: str, *, succeed: bool | None = None) -> dict:
        """The bank answers a SEPA debit: processing → succeeded, or → requires_payment_method with a failure.
        None follows the test IBAN's documented behaviour."""
        with self.lock:
            return self.objects.settle_sepa(intent_id, succeed=succeed)

    def settle_refund(self, refund_id: str, *, succeed: bool = True) -> dict:
        """The bank answers a pending (SEPA) refund: pending → succeeded, or → failed."""
        with self.lock:
            return self.objects.finish_refund(refund_id, succeed=succeed)

    def calls(self, method: str, path_part: str) -> list[dict]:
        return [r for r in self.requests if r["method"] == method and path_part in r["path"]]

    # --- webhooks -------------------------------------------------------------------------------------------------

    def _emit(self, event_type: str, obj: dict):
        self.events.append(self.event(event_type, obj))

    def event(self, event_type: str, obj: dict) -> dict:
        """A Stripe event envelope around a copy of the object as it is now."""
        data = json.loads(json.dumps({k: v for k, v in obj.items() if not k.startswith("_")}))
        return {
            "id": new_id("evt"),
            "object": "event",
            "type": event_type,
            "api_version": API_VERSION,
            "created": int(time.time()),
            "livemode": False,
            "pending_webhooks": 1,
            "request": {"id": None, "idempotency_key": None},
            "data": {"object": data},
        }

    def events_of(self, event_type: str) -> list[dict]:
        return [e for e in self.events if e["type"] == event_type]

    def deliver(self, event_type_or_event, obj: dict | None = None, *, url: str, secret: str = WEBHOOK_SECRET):
        """POST an event to `url` signed as Stripe signs it; answers the receiver's response."""
        event = event_type_or_event if obj is None else self.event(event_type_or_event, obj)
        payload = json.dumps(event)
        headers = {"Content-Type": "application/json; charset=utf-8", "Stripe-Signature": sign(payload, secret=secret)}
        return requests.post(url, data=payload.encode(), headers=headers, timeout=5)

    # --- HTTP -----------------------------------------------------------------------------------------------------

    def _handler_class(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body go out in two writes: no 40 ms wait between them

            def log_message(self, *args):  # quiet
                pass

            def _dispatch(self, method):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length).decode() if length else ""
                parts = urlsplit(self.path)
                headers = {k.lower(): v for k, v in self.headers.items()}
                status, body, extra = fake.handle(method, parts.path, parts.query, headers, raw)
                payload = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.send_header("Request-Id", f"req_{secrets.token_hex(7)}")
                for name, value in extra.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

            def do_GET(self):
                self._dispatch("GET")

            def do_POST(self):
                self._dispatch("POST")

        return Handler

    def handle(self, method, path, query, headers, raw):
        with self.lock:
            self.requests.append({"method": method, "path": path, "headers": headers, "body": raw, "query": query})
            if headers.get("authorization", "") != f"Bearer {SECRET_KEY}":
                status, body = error(401, "invalid_request_error", "Invalid API Key provided.")
                return status, body, {}
            key = headers.get("idempotency-key", "")
            if method == "POST" and key and key in self.idempotent:
                first_path, first_body, status, answer = self.idempotent[key]
                if (first_path, first_body) != (path, raw):
                    message = (
                        "Keys for idempotent requests can only be used with the same parameters they were first "
                        "used with."
                    )
                    status, body = error(400, "idempotency_error", message)
                    return status, body, {}
                return status, answer, {"Idempotent-Replayed": "true"}
            params = parse_form(parse_qsl(raw if method == "POST" else query, keep_blank_values=True))
            status, body = self.route(method, path, params)
            body = json.loads(json.dumps(body, default=str))
            for obj in [body, body.get("error", {}).get("payment_intent") or {}]:
                obj.pop("_behaviour", None)
            if method == "POST" and key and status < 500:
                self.idempotent[key] = (path, raw, status, body)
            return status, body, {}

    ROUTES = [
        ("POST", r"/v1/customers", "create_customer"),
        ("GET", r"/v1/customers/(?P<id>[^/]+)", "customers"),
        ("POST", r"/v1/payment_intents", "create_intent"),
        ("GET", r"/v1/payment_intents/(?P<id>[^/]+)", "intents"),
        ("POST", r"/v1/payment_intents/(?P<id>[^/]+)/confirm", "confirm_intent"),
        ("POST", r"/v1/payment_intents/(?P<id>[^/]+)/cancel", "cancel_intent"),
        ("POST", r"/v1/setup_intents", "create_setup"),
        ("GET", r"/v1/setup_intents/(?P<id>[^/]+)", "setups"),
        ("POST", r"/v1/setup_intents/(?P<id>[^/]+)/confirm", "confirm_setup"),
        ("GET", r"/v1/payment_methods/(?P<id>[^/]+)", "methods"),
        ("GET", r"/v1/mandates/(?P<id>[^/]+)", "mandates"),
        ("GET", r"/v1/charges/(?P<id>[^/]+)", "charges"),
        ("POST", r"/v1/refunds", "create_refund"),
        ("GET", r"/v1/refunds/(?P<id>[^/]+)", "refunds"),
    ]
    KINDS = {
        "customers": "customer",
        "intents": "payment_intent",
        "setups": "setup_intent",
        "methods": "payment_method",
        "mandates": "mandate",
        "charges": "charge",
        "refunds": "refund",
    }

    def route(self, method, path, params):
        for verb, pattern, name in self.ROUTES:
            match = re.fullmatch(pattern, path)
            if verb != method or match is None:
                continue
            if name in self.KINDS:  # a retrieve
                found = getattr(self.objects, name).get(match["id"])
                if found is None:
                    return missing(self.KINDS[name], match["id"])
                return 200, self._expand(found, params.get("expand") or [])
            action = getattr(self.objects, name)
            return action(match["id"], params) if "id" in match.groupdict() else action(params)
        return error(404, "invalid_request_error", f"Unrecognized request URL ({method}: {path}).")

    def _expand(self, obj, fields):
        obj = dict(obj)
        stores = {"latest_charge": self.objects.charges, "payment_method": self.objects.methods}
        stores["mandate"] = self.objects.mandates
        for field in fields:
            if obj.get(field) and field in stores:
                obj[field] = {k: v for k, v in stores[field][obj[field]].items() if not k.startswith("_")}
        return obj
