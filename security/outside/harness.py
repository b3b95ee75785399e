"""The outside attack's harness: settings, the database and Redis of the run, HTTP clients, studio helpers, and
the result recording (report, note, RESULTS). See security/outside/__main__.py for what the run does."""

import json
import os
import re
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import date, timedelta
from pathlib import Path

import psycopg
import redis
import requests

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from bench.server import PY, gunicorn, prepare, production_env  # noqa: E402, F401 - used by __main__

DB_NAME = os.environ.get("ATTACK_DB", "studio_attack")
PG_SERVER = os.environ.get("ATTACK_PG", "postgres://postgres@127.0.0.1:5432")
REDIS_DB = int(os.environ.get("ATTACK_REDIS_DB", "5"))
WORKERS = os.environ.get("ATTACK_WORKERS", "2")
HOLD_MINUTES = 1

ADMIN = ("admin@studio-pole-danse.fr", "DemoAdmin2026!")
SUPERVISOR = ("superviseur@studio-pole-danse.fr", "DemoSuperviseur2026!")
MEMBER = ("membre@studio-pole-danse.fr", "DemoMembre2026!")
LUCIE = ("lucie.martin@example.fr", "DemoMembre2026!")
INES = ("ines.robert@example.fr", "DemoMembre2026!")
SARAH = ("sarah.moreau@example.fr", "DemoMembre2026!")
JULIE = ("julie.fournier@example.fr", "DemoMembre2026!")
NEW_PASSWORD = "Nouveau-Mot-De-Passe-2026!"
INES_NEW = (INES[0], NEW_PASSWORD)  # item 5 resets Inès's password
TIMEOUT = 90

RESULTS: list[dict] = []
_print_lock = threading.Lock()


def short(response_or_text, limit=150) -> str:
    if isinstance(response_or_text, requests.Response):
        r = response_or_text
        try:
            body = r.json()
            text = body.get("error") or body.get("message") or json.dumps(body, ensure_ascii=False)
        except ValueError:
            text = re.sub(r"\s+", " ", r.text)
        text = f"{r.status_code} {text}"
    else:
        text = str(response_or_text)
    text = text.replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def report(item: str, tried: str, answer: str, safe: bool | None, expected: str = "") -> None:
    verdict = "SAFE" if safe else ("ERROR" if safe is None else "BROKEN")
    RESULTS.append({"item": item, "tried": tried, "answer": answer, "verdict": verdict, "expected": expected})
    with _print_lock:
        print(f"[{verdict:6}] {item} | tried: {tried} | answer: {answer}", flush=True)
        if verdict != "SAFE" and expected:
            print(f"         expected: {expected}", flush=True)


def note(text: str) -> None:
    with _print_lock:
        print(f"         … {text}", flush=True)


# --- infrastructure -------------------------------------------------------------------------------------------


def db():
    return psycopg.connect(f"{PG_SERVER}/{DB_NAME}", autocommit=True)


def fresh_database() -> None:
    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')


def redis_client():
    return redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB)


def reset_limits(kinds=("rl:", "mail-quota:", "login-failures", "accounts:resend:")) -> None:
    """Forget the rate-limit counters (this run's Redis db only): the steps that are not about limits start fresh."""
    r = redis_client()
    for kind in kinds:
        for key in r.scan_iter(f"*{kind}*"):
            r.delete(key)


def mails(*, to: str | None = None, subject: str | None = None, after_id: int = 0) -> list[dict]:
    """The outbox (what the recipients receive): id, to, subject, body."""
    with db() as conn:
        rows = conn.execute(
            'SELECT id, "to", subject, body_text FROM studio_outgoingemail WHERE id > %s ORDER BY id', (after_id,)
        ).fetchall()
    found = []
    for pk, recipients, subj, body in rows:
        recipients = [a.lower() for a in (recipients or [])]
        if to and to.lower() not in recipients:
            continue
        if subject and subject.lower() not in (subj or "").lower():
            continue
        found.append({"id": pk, "to": recipients, "subject": subj, "body": body})
    return found


def last_mail_id() -> int:
    with db() as conn:
        return conn.execute("SELECT coalesce(max(id), 0) FROM studio_outgoingemail").fetchone()[0]


def wait_for_mail(*, to: str, after_id: int, contains: str, seconds: float = 25) -> dict | None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        for mail in mails(to=to, after_id=after_id):
            if contains in mail["body"]:
                return mail
        time.sleep(0.5)
    return None


def simulator_order(order_id: str) -> dict | None:
    with db() as conn:
        row = conn.execute(
            "SELECT status, capture_id, capture_status, refund_id FROM payments_simulatedproviderorder "
            "WHERE order_id = %s",
            (order_id,),
        ).fetchone()
    if row is None:
        return None
    return dict(zip(("status", "capture_id", "capture_status", "refund_id"), row, strict=True))


# --- HTTP clients ---------------------------------------------------------------------------------------------


class Api:
    """An API client as a script or an app would be: bearer token, no cookies, JSON."""

    def __init__(self, base: str, email: str | None = None, password: str | None = None):
        self.base, self.email, self.password = base, email, password
        self.token = self.refresh = None
        self.user_id = None
        if email:
            self.login()

    def login(self) -> requests.Response:
        r = requests.post(
            self.base + "/api/users/login", json={"email": self.email, "password": self.password}, timeout=TIMEOUT
        )
        if r.status_code != 200:
            raise RuntimeError(f"login {self.email}: {short(r)}")
        data = r.json()
        self.token, self.refresh, self.user_id = data["token"], data["refresh"], data["userId"]
        return r

    def call(self, method: str, path: str, *, auth: bool = True, **kwargs) -> requests.Response:
        headers = dict(kwargs.pop("headers", {}) or {})
        if auth and self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        r = requests.request(
            method, self.base + path, headers=headers, timeout=kwargs.pop("timeout", TIMEOUT), **kwargs
        )
        if r.status_code == 401 and auth and self.email and "Authorization" in headers:
            self.login()  # access tokens live 5 minutes
            headers["Authorization"] = f"Bearer {self.token}"
            r = requests.request(method, self.base + path, headers=headers, timeout=TIMEOUT, **kwargs)
        return r

    def get(self, path, **kw):
        return self.call("GET", path, **kw)

    def post(self, path, payload=None, **kw):
        return self.call("POST", path, json=payload, **kw)

    def put(self, path, payload=None, **kw):
        return self.call("PUT", path, json=payload, **kw)

    def delete(self, path, **kw):
        return self.call("DELETE", path, **kw)


class Browser:
    """A browser: cookies (session, csrftoken), the CSRF header on its own writes."""

    def __init__(self, base: str):
        self.base = base
        self.s = requests.Session()

    @property
    def csrf(self) -> str:
        return self.s.cookies.get("csrftoken", "")

    def login(self, email: str, password: str) -> requests.Response:
        self.s.get(self.base + "/login", timeout=TIMEOUT)
        r = self.s.post(
            self.base + "/api/users/login",
            json={"email": email, "password": password, "remember": True},
            headers={"X-CSRFToken": self.csrf},
            timeout=TIMEOUT,
        )
        if r.status_code != 200:
            raise RuntimeError(f"browser login {email}: {short(r)} (csrftoken cookie: {bool(self.csrf)})")
        return r

    def request(self, method, path, **kw):
        return self.s.request(method, self.base + path, timeout=kw.pop("timeout", TIMEOUT), **kw)


# --- studio helpers -------------------------------------------------------------------------------------------


class Studio:
    def __init__(self, base: str):
        self.base = base
        self.admin = Api(base, *ADMIN)
        courses = self.admin.get("/api/courses").json()
        courses = courses.get("results", courses) if isinstance(courses, dict) else courses
        self.course_id = courses[0]["id"]
        tariffs = requests.get(base + "/api/tarifs", timeout=TIMEOUT).json()
        self.tariffs = tariffs.get("results", tariffs) if isinstance(tariffs, dict) else tariffs
        self._slot = 0

    def tariff(self, title: str) -> dict:
        return next(t for t in self.tariffs if t["title"] == title)

    def instructor_id(self) -> int:
        """The attacks' instructor (sessions name one of the instructors list), created once."""
        if getattr(self, "_instructor_id", None) is None:
            found = [i for i in self.admin.get("/api/instructors").json() if i["name"] == "Attaque"]
            if found:
                self._instructor_id = found[0]["id"]
            else:
                r = self.admin.post("/api/instructors", {"name": "Attaque"})
                if r.status_code != 201:
                    raise RuntimeError(f"instructor create: {short(r)}")
                self._instructor_id = r.json()["id"]
        return self._instructor_id

    def new_session(self, *, seats: int = 10, price: str = "25.00") -> int:
        """A session of its own for each attack, 10+ days ahead (cancellable), 25.00 a seat."""
        self._slot += 1
        day = date.today() + timedelta(days=10 + self._slot // 10)
        start = f"{day.isoformat()} {8 + self._slot % 10:02d}:{(self._slot * 7) % 60:02d}:00"
        r = self.admin.post(
            "/api/course-sessions",
            {
                "course_id": str(self.course_id),
                "date": start,
                "instructor_id": str(self.instructor_id()),
                "max_attendees": str(seats),
                "price_per_participant": price,
            },
        )
        if r.status_code != 201:
            raise RuntimeError(f"session create: {short(r)}")
        return r.json()["id"]

    def attendees(self, session_id: int) -> list[dict]:
        return self.admin.get(f"/api/course-sessions/{session_id}/attendees").json()["results"]

    def orders(self, search: str) -> list[dict]:
        r = self.admin.get("/api/paypal/orders", params={"search": search, "page_size": 100})
        data = r.json()
        return data.get("results", data) if isinstance(data, dict) else data

    def user_by_email(self, email: str) -> dict:
        data = self.admin.get("/api/users", params={"search": email}).json()
        rows = data.get("results", data) if isinstance(data, dict) else data
        return next(u for u in rows if u["email"].lower() == email.lower())


def hold(api: Api, session_id: int, participants=1, **extra) -> requests.Response:
    payload = {
        "session_id": session_id,
        "participants": participants,
        "first_name": "Att",
        "last_name": "Aquant",
        "email": api.email or "x@example.fr",
        **extra,
    }
    return api.post("/api/reservations-courses", payload)


def open_order(api: Api, reservation: dict, **overrides) -> requests.Response:
    payload = {
        "amount": reservation["total_amount"],
        "title": reservation.get("title") or "Cours",
        "type": "cours",
        "email": api.email,
        "first_name": "Att",
        "last_name": "Aquant",
        "reservation_id": reservation["id"],
        **overrides,
    }
    return api.post("/api/paypal/create-order", payload)


def approve(api: Api, order_id: str) -> requests.Response:
    return api.post("/api/paypal/simulator/approve", {"orderId": order_id, "outcome": "approve"})


def capture(api: Api, order_id: str) -> requests.Response:
    return api.post("/api/paypal/capture-payment", {"orderId": order_id})


def buy_tariff(api: Api, tariff: dict, quantity: int = 1) -> tuple[str, requests.Response]:
    amount = f"{float(tariff['price']) * quantity:.2f}"
    r = api.post(
        "/api/paypal/create-order",
        {
            "amount": amount,
            "title": tariff["title"],
            "type": tariff["type"],
            "email": api.email,
            "first_name": "Att",
            "last_name": "Aquant",
            "tariff_id": tariff["id"],
            "quantity": quantity,
            "accept_terms": True,
        },
    )
    if r.status_code != 201:
        return "", r
    order_id = r.json()["id"]
    approve(api, order_id)
    return order_id, capture(api, order_id)


def my_passes(api: Api) -> list[dict]:
    return api.get("/api/passes/mine").json()


def parallel(fn, args_list, workers=None):
    with ThreadPoolExecutor(max_workers=workers or len(args_list)) as pool:
        return list(pool.map(lambda a: fn(*a), args_list))


def raw_http(base: str, request_head: bytes, body_chunks, read_timeout=60) -> str:
    """Send a request by hand (huge or chunked bodies) and return the status line and the start of the answer,
    even when the server answers before reading the whole body and closes the connection."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=read_timeout)
    sent_error = ""
    try:
        sock.sendall(request_head)
        for chunk in body_chunks:
            sock.sendall(chunk)
    except OSError as exc:
        sent_error = f" (upload cut by the server: {exc.__class__.__name__})"
    data = b""
    try:
        while b"\r\n\r\n" not in data or len(data) < 4000:
            part = sock.recv(65536)
            if not part:
                break
            data += part
    except OSError as exc:
        if not data:
            return f"no answer: {exc.__class__.__name__}{sent_error}"
    finally:
        sock.close()
    text = data.decode("utf-8", "replace")
    status = text.split("\r\n", 1)[0]
    body = text.split("\r\n\r\n", 1)[1] if "\r\n\r\n" in text else ""
    body = re.sub(r"\s+", " ", body)
    return f"{status} {body[:160]}{sent_error}"


# --- the ten defects -------------------------------------------------------------------------------------------


def approved_order(st: Studio, api: Api, *, seats: int = 10) -> tuple[int, dict, str]:
    """A session of its own, a 1-seat hold on it, the order opened for it and approved at the simulator."""
    sid = st.new_session(seats=seats)
    res = hold(api, sid, 1).json()
    oid = open_order(api, res).json()["id"]
    approve(api, oid)
    return sid, res, oid
