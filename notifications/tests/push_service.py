"""A local stand-in for a browser's push service, for the tests (docs/decisions.md 53).

It plays both ends a real push service joins: it makes a browser's subscription (a P-256 key pair and a 16-byte
authentication secret, an endpoint on this server) and, when the worker posts a push to that endpoint, it checks the
request as a push service would and decrypts it as the browser would, written here from the RFCs rather than with the
library the site sends with, so that a mistake on the sending side is not repeated on this one:
  - VAPID (RFC 8292): `Authorization: vapid t=<JWT>, k=<public key>`; the JWT is ES256 and verifies with `k`, `k` is the
    studio's configured public key, `aud` is the endpoint's origin, `exp` is in the future and within 24 hours, `sub`
    is a mailto: or https: contact;
  - the payload (RFC 8188 + RFC 8291): `Content-Encoding: aes128gcm`, one record, keys derived from the ECDH secret
    between the subscription's private key and the sender's key in the header, and the authentication secret.
A push that fails a check is answered 400 (VAPID: 401/403) and kept in `rejected`; an endpoint marked gone answers 410.
"""

import base64
import json
import struct
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from secrets import token_bytes, token_urlsafe

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _point(public_key) -> bytes:
    return public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def vapid_key_pair() -> tuple[str, str]:
    """(private, public) in the settings' format: the private key's 32 raw bytes and the public point, base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big")), b64url(_point(key.public_key()))


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


class PushRejected(Exception):
    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status


@dataclass
class Browser:
    """One subscribed browser: what it gives the site (endpoint, p256dh, auth) and what it received."""

    token: str
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth_secret: bytes
    received: list = field(default_factory=list)
    gone: bool = False

    @property
    def p256dh(self) -> str:
        return b64url(_point(self.private_key.public_key()))

    @property
    def auth(self) -> str:
        return b64url(self.auth_secret)

    def subscription_json(self) -> dict:
        return {"endpoint": self.endpoint, "expirationTime": None, "keys": {"p256dh": self.p256dh, "auth": self.auth}}

    def decrypt(self, body: bytes, sender_key_hint: bytes | None = None) -> bytes:
        """RFC 8188 header, RFC 8291 key derivation, one aes128gcm record."""
        if len(body) < 21:
            raise PushRejected(400, "body shorter than the aes128gcm header")
        salt, record_size, id_len = body[:16], struct.unpack(">I", body[16:20])[0], body[20]
        sender_public = body[21 : 21 + id_len]
        ciphertext = body[21 + id_len :]
        if id_len != 65 or sender_public[0] != 4:
            raise PushRejected(400, "keyid is not the sender's uncompressed P-256 key")
        if len(ciphertext) > record_size or len(ciphertext) < 17:
            raise PushRejected(400, "not exactly one record")
        sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_public)
        ecdh_secret = self.private_key.exchange(ec.ECDH(), sender)
        ua_public = _point(self.private_key.public_key())
        ikm = _hkdf(self.auth_secret, ecdh_secret, b"WebPush: info\x00" + ua_public + sender_public, 32)
        cek = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
        nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)  # record 0: the nonce itself
        try:
            padded = AESGCM(cek).decrypt(nonce, ciphertext, None)
        except InvalidTag as exc:
            raise PushRejected(400, "payload does not decrypt") from exc
        stripped = padded.rstrip(b"\x00")
        if not stripped or stripped[-1] != 2:  # the last record's delimiter
            raise PushRejected(400, "last record delimiter missing")
        return stripped[:-1]


class PushService:
    """Run with `start()`; `subscribe()` makes a browser; `messages()` gives the decrypted payloads received."""

    def __init__(self, vapid_public_key: str):
        self.vapid_public_key = vapid_public_key
        self.browsers: dict[str, Browser] = {}
        self.rejected: list[tuple[int, str]] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.origin = f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> "PushService":
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def subscribe(self) -> Browser:
        token = token_urlsafe(16)
        browser = Browser(
            token=token,
            endpoint=f"{self.origin}/push/{token}",
            private_key=ec.generate_private_key(ec.SECP256R1()),
            auth_secret=token_bytes(16),
        )
        self.browsers[token] = browser
        return browser

    def messages(self, browser: Browser) -> list[dict]:
        return [json.loads(raw) for raw in browser.received]

    def check_vapid(self, authorization: str) -> None:
        """RFC 8292: the JWT's signature with `k`, `k` the studio's key, the claims."""
        scheme, _, params = authorization.partition(" ")
        if scheme.lower() != "vapid":
            raise PushRejected(401, "no vapid authorization")
        values = dict(part.strip().split("=", 1) for part in params.split(","))
        if values.get("k") != self.vapid_public_key:
            raise PushRejected(403, "not the application server key of the subscription")
        header_b64, claims_b64, signature_b64 = values["t"].split(".")
        header, claims = json.loads(unb64url(header_b64)), json.loads(unb64url(claims_b64))
        if header.get("alg") != "ES256":
            raise PushRejected(401, "alg is not ES256")
        signature = unb64url(signature_b64)
        if len(signature) != 64:
            raise PushRejected(401, "signature is not r||s")
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(values["k"]))
        try:
            public.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature as exc:
            raise PushRejected(401, "bad JWT signature") from exc
        now = time.time()
        if claims.get("aud") != self.origin:
            raise PushRejected(401, f"aud {claims.get('aud')} is not {self.origin}")
        if not now < int(claims.get("exp", 0)) <= now + 24 * 3600:
            raise PushRejected(401, "exp not within 24 hours")
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            raise PushRejected(401, "sub is not a contact")

    def _handler(self):
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet in the test output
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                browser = service.browsers.get(self.path.rsplit("/", 1)[-1])
                try:
                    if browser is None or browser.gone:
                        raise PushRejected(410, "subscription gone")
                    service.check_vapid(self.headers.get("Authorization", ""))
                    if self.headers.get("Content-Encoding") != "aes128gcm":
                        raise PushRejected(400, "content encoding is not aes128gcm")
                    if self.headers.get("TTL") is None:
                        raise PushRejected(400, "TTL header missing")
                    browser.received.append(browser.decrypt(body).decode())
                except PushRejected as refusal:
                    service.rejected.append((refusal.status, str(refusal)))
                    self.send_response(refusal.status)
                    self.end_headers()
                    return
                self.send_response(201)
                self.end_headers()

        return Handler


@contextmanager
def running_push_service(settings):
    """A push service for the test, with a fresh VAPID key pair configured as the studio's."""
    private, public = vapid_key_pair()
    settings.WEBPUSH_VAPID_PRIVATE_KEY = private
    settings.WEBPUSH_VAPID_PUBLIC_KEY = public
    service = PushService(vapid_public_key=public).start()
    try:
        yield service
    finally:
        service.stop()
