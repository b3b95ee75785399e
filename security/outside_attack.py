#!/usr/bin/env python
"""Issue 16 attacked again from outside: gunicorn with the production settings on PostgreSQL and Redis.

Run:  .venv/bin/python security/outside_attack.py
      (ATTACK_DB=studio_attack, ATTACK_REDIS_DB=5, ATTACK_WORKERS=2 by default; --keep-db skips the fresh database)

What it does, the way bench/server.py starts a production-like site:
  1. drops and creates the PostgreSQL database ATTACK_DB, empties Redis db ATTACK_REDIS_DB (this script's own
     number), migrates, runs seed_demo and collectstatic (bench.server.prepare);
  2. starts the task worker (manage.py db_worker: the e-mail outbox and the queued password-reset mails) and gunicorn
     (2 workers, studio.settings.production, REDIS_URL set, the payment simulator: no PayPal credentials);
  3. uses the demo accounts seed_demo prints (admin, supervisor, members) and registers its own throw-away ones;
  4. replays every defect of issue 16 over HTTP exactly as written there, then a few attacks of its own on the write
     endpoints, and prints one line per check: what was tried, what the server answered, SAFE or BROKEN.
Exit status 1 when anything is BROKEN (or a check could not run: ERROR).

Observation only goes through HTTP, except the mailbox: e-mails are read from the outbox table (OutgoingEmail), which
is what the recipient would get (the mail backend of this run is local memory).

Rate limits are part of the defence (item 8 expects 429). TRUSTED_PROXY_COUNT stays 0 (the default: the client is
REMOTE_ADDR, X-Forwarded-For is never trusted), so every request comes from 127.0.0.1 and the steps that are not about
limits reset the rate-limit counters in Redis first (keys rl:*, mail-quota:*, login failures), which the output says.
SEAT_HOLD_MINUTES=1 for this run so that item 7 (a hold that lapses) takes one minute instead of fifteen.
"""

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from datetime import date, timedelta
from pathlib import Path

import psycopg
import redis
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.server import PY, gunicorn, prepare, production_env  # noqa: E402

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
                "instructor": "Attaque",
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


def item1(st: Studio) -> None:
    member = Api(st.base, *MEMBER)
    for more in (5, 8):
        sid = st.new_session()
        r = hold(member, sid, 1)
        res = r.json()
        o = open_order(member, res)
        oid = o.json()["id"]
        approve(member, oid)
        again = hold(member, sid, more)
        cap = capture(member, oid)
        confirmed = [a for a in st.attendees(sid) if a["status"] == "confirmed"]
        seats = sum(a["participants"] for a in confirmed)
        cancel = member.post(f"/api/reservations-courses/{res['id']}/cancel")
        credit = (cancel.json().get("credit_pass") or {}).get("credits_left") if cancel.ok else None
        grew = again.status_code == 201 and again.json().get("participants") == more
        safe = not grew and seats <= 1 and (credit in (None, 1))
        report(
            f"1 pay one seat, get {more}",
            f"hold 1 (201 {res['total_amount']}), order {o.status_code} + approve, re-POST hold participants={more}, "
            f"capture 25.00, cancel",
            f"re-POST {short(again, 110)}; capture {cap.status_code}; confirmed seats {seats}; "
            f"cancel {cancel.status_code} credits back {credit}",
            safe,
            "re-POST refused (409) or the hold keeps 1 seat; capture confirms 1 seat; cancel returns 1 credit",
        )


def item2(st: Studio) -> None:
    lucie = Api(st.base, *LUCIE)
    # (a) two orders on one held reservation, opened at once, then 20 captures at once.
    sid = st.new_session()
    res = hold(lucie, sid, 1).json()
    opened = parallel(lambda: open_order(lucie, res), [()] * 10)
    ids = sorted({o.json()["id"] for o in opened if o.status_code == 201})
    codes = sorted({o.status_code for o in opened})
    for oid in ids:
        approve(lucie, oid)
    caps = parallel(lambda oid: capture(lucie, oid), [(ids[i % len(ids)],) for i in range(20)])
    rows = [o for o in st.orders(lucie.email) if o["reservation_id"] == res["id"]]
    completed = [o for o in rows if o["status"] == "COMPLETED"]
    kept = [o for o in rows if o["capture_id"] and o["status"] not in ("COMPLETED", "REFUNDED")]
    confirmed = sum(a["participants"] for a in st.attendees(sid) if a["status"] == "confirmed")
    report(
        "2a one seat charged twice (two orders)",
        "10 concurrent create-order on one 1-seat hold, approve each distinct order, 20 concurrent captures",
        f"create codes {codes}, distinct order ids {len(ids)}; capture codes "
        f"{sorted(c.status_code for c in caps)}; orders {[o['status'] for o in rows]}; seats confirmed {confirmed}",
        len(completed) == 1 and not kept and confirmed == 1,
        "one live order per reservation: one COMPLETED payment, every other capture refunded, one seat",
    )
    # Second order opened sequentially after the first (what the issue did).
    sid = st.new_session()
    res = hold(lucie, sid, 1).json()
    first, second = open_order(lucie, res), open_order(lucie, res)
    same = first.json().get("id") == second.json().get("id")
    report(
        "2a' second create-order on the same hold",
        "create-order twice on one hold",
        f"{first.status_code} {first.json().get('id')} / {short(second, 80)} {second.json().get('id', '')}",
        same or second.status_code >= 400,
        "the same order answered again (or refused)",
    )
    # The only way to a second order: approve A, cancel A, open B, approve B (and A again), then 20 captures at
    # once split over A and B.
    sid = st.new_session()
    res = hold(lucie, sid, 1).json()
    order_a = open_order(lucie, res).json()["id"]
    approve(lucie, order_a)
    cancel_a = lucie.post("/api/paypal/cancel-order", {"orderId": order_a})
    order_b = open_order(lucie, res).json()["id"]
    approve(lucie, order_b)
    approve_a_again = approve(lucie, order_a)
    barrier = threading.Barrier(20)

    def cap_one(oid):
        barrier.wait()
        return oid, capture(lucie, oid)

    caps = parallel(cap_one, [((order_a, order_b)[i % 2],) for i in range(20)])
    by_order = {
        oid: sorted(r.status_code for o, r in caps if o == oid) for oid in (order_a, order_b) if oid is not None
    }
    rows = {o["order_id"]: o for o in st.orders(lucie.email) if o["reservation_id"] == res["id"]}
    completed = [o for o in rows.values() if o["status"] == "COMPLETED"]
    sims = {oid: simulator_order(oid) or {} for oid in (order_a, order_b)}
    kept = [oid for oid, s in sims.items() if s.get("capture_id") and not s.get("refund_id")]
    confirmed = sum(a["participants"] for a in st.attendees(sid) if a["status"] == "confirmed")
    report(
        "2a'' two orders on one hold (A cancelled, B opened), 20 captures at once",
        "approve A, cancel A, create+approve B, approve A again, 20 concurrent captures (10 A, 10 B)",
        f"cancel A {cancel_a.status_code}, B {'≠' if order_b != order_a else '='} A, approve A again "
        f"{approve_a_again.status_code}; captures A {set(by_order[order_a])} B {set(by_order[order_b])}; "
        f"orders {[(o['status']) for o in rows.values()]}; money captured {len(kept)}; seats {confirmed}",
        len(completed) == 1 and len(kept) == 1 and confirmed == 1,
        "one completed payment (B), A never captured or refunded, one seat",
    )

    # (b) card order approved, then the same hold booked with a class card, then the card order captured.
    card_title = "Carte 10 cours"
    oid_card, cap_card = buy_tariff(lucie, st.tariff(card_title))
    card = next((p for p in my_passes(lucie) if p["title"] == card_title and p["credits_left"]), None)
    if card is None:
        report("2b card + class card", f"buy '{card_title}' by simulator", short(cap_card), None, "a card to test with")
        return
    sid = st.new_session()
    res = hold(lucie, sid, 1).json()
    oid = open_order(lucie, res).json()["id"]
    approve(lucie, oid)
    credits_before = card["credits_left"]
    by_pass = hold(lucie, sid, 1, pass_id=card["id"])
    cap = capture(lucie, oid)
    credits_after = next(p for p in my_passes(lucie) if p["id"] == card["id"])["credits_left"]
    order = next(o for o in st.orders(oid) if o["order_id"] == oid)
    paid_by_card = order["status"] == "COMPLETED"
    paid_by_pass = credits_after < credits_before
    report(
        "2b paid by card and by class card",
        "approve card order, POST hold with pass_id (class card), capture the card order",
        f"pass booking {short(by_pass, 120)}; capture {cap.status_code} ({order['status']}); "
        f"credits {credits_before}->{credits_after}",
        not (paid_by_card and paid_by_pass) and (paid_by_card or paid_by_pass),
        "paid once: the pass booking refused while the card order is open (409), or the card capture refunded",
    )
    # (b') the pass booking racing the card capture, 4 rounds.
    outcomes = []
    for _ in range(4):
        sid = st.new_session()
        res = hold(lucie, sid, 1).json()
        oid = open_order(lucie, res).json()["id"]
        approve(lucie, oid)
        before = next(p for p in my_passes(lucie) if p["id"] == card["id"])["credits_left"]
        barrier = threading.Barrier(2)

        def go(kind, oid=oid, sid=sid, barrier=barrier):
            barrier.wait()
            return capture(lucie, oid) if kind == "card" else hold(lucie, sid, 1, pass_id=card["id"])

        cap, by_pass = parallel(go, [("card",), ("pass",)])
        after = next(p for p in my_passes(lucie) if p["id"] == card["id"])["credits_left"]
        status = next(o for o in st.orders(oid) if o["order_id"] == oid)["status"]
        seats = sum(a["participants"] for a in st.attendees(sid) if a["status"] == "confirmed")
        both = status == "COMPLETED" and after < before
        outcomes.append((cap.status_code, by_pass.status_code, status, before - after, seats, both))
    report(
        "2b' pass booking racing the card capture (4 rounds)",
        "capture + POST hold with pass_id at the same instant",
        "; ".join(f"capture {c} pass {p} order {s} credits -{d} seats {n}" for c, p, s, d, n, _ in outcomes),
        not any(o[5] for o in outcomes) and all(o[4] == 1 for o in outcomes),
        "never both a completed card payment and a spent credit; one seat",
    )


def item3(st: Studio) -> None:
    sarah = Api(st.base, *SARAH)
    for title in ("Abonnement annuel illimité", "Abonnement 6 mois illimité"):
        tariff = st.tariff(title)
        before = {p["id"] for p in my_passes(sarah)}
        oid, cap = buy_tariff(sarah, tariff)
        new = [p for p in my_passes(sarah) if p["id"] not in before]
        if not new:
            report(f"3 {title}", "buy once", short(cap), cap.status_code >= 400, "no pass without payment")
            continue
        p = new[0]
        days = (date.fromisoformat(p["expires_on"]) - date.fromisoformat(p["starts_on"])).days + 1
        order = next(o for o in st.orders(oid) if o["order_id"] == oid)
        report(
            f"3 '{title}' ({tariff['price']} {tariff['frequency']}, {tariff['validity']})",
            "create-order quantity 1, simulator approve, capture",
            f"capture {cap.status_code}, paid {order['amount']}, "
            f"pass {p['starts_on']} → {p['expires_on']} ({days} days)",
            days <= 31,
            "one period paid (one month) grants one month",
        )
    # Two months paid give two months, not more.
    tariff = st.tariff("Abonnement annuel illimité")
    before = {p["id"] for p in my_passes(sarah)}
    oid, cap = buy_tariff(sarah, tariff, quantity=2)
    new = [p for p in my_passes(sarah) if p["id"] not in before]
    days = (date.fromisoformat(new[0]["expires_on"]) - date.fromisoformat(new[0]["starts_on"])).days + 1 if new else 0
    report(
        "3 two months of the annual plan",
        "quantity 2 (110.00)",
        f"capture {cap.status_code}, pass of {days} days",
        0 < days <= 62,
        "two months",
    )


def item4(st: Studio) -> None:
    sup = Api(st.base, *SUPERVISOR)
    admin_row = st.user_by_email(ADMIN[0])
    admin_id = admin_row["id"]
    attacker_mail = "superviseur.pirate@example.fr"
    mark = last_mail_id()
    put = sup.put(f"/api/users/{admin_id}", {"email": attacker_mail})
    patch = sup.call("PATCH", f"/api/users/{admin_id}", json={"email": attacker_mail})
    reset_limits()
    forgot = requests.post(st.base + "/api/users/forgot-password", json={"email": attacker_mail}, timeout=TIMEOUT)
    time.sleep(4)
    admin_now = st.admin.get(f"/api/users/{admin_id}").json()
    reset_mail = wait_for_mail(to=attacker_mail, after_id=mark, contains="reset-password", seconds=4)
    link_mail = mails(to=attacker_mail, after_id=mark)
    safe = (
        put.status_code == 403
        and patch.status_code == 403
        and admin_now["email"] == ADMIN[0]
        and not admin_now.get("pending_email")
        and reset_mail is None
        and not link_mail
    )
    report(
        "4 supervisor changes the admin's e-mail",
        f"PUT/PATCH /api/users/{admin_id} {{email: {attacker_mail}}} as supervisor, then forgot-password for it",
        f"PUT {short(put, 90)}; PATCH {patch.status_code}; forgot {forgot.status_code}; admin e-mail "
        f"{admin_now['email']} pending '{admin_now.get('pending_email')}'; mails to attacker {len(link_mail)}",
        safe,
        "403, admin e-mail unchanged, no reset link to the supervisor",
    )

    # The dashboard's way: the supervisor's browser session, multipart PUT with the CSRF token.
    browser = Browser(st.base)
    browser.login(*SUPERVISOR)
    page = browser.request("GET", "/admin/users")
    edits = {}
    for field, value in (("first_name", "Pirate"), ("last_name", "Pirate"), ("phone", "0600000000"), ("city", "X")):
        r = browser.request(
            "PUT", f"/api/users/{admin_id}", files={field: (None, value)}, headers={"X-CSRFToken": browser.csrf}
        )
        edits[field] = r.status_code
    role = browser.request(
        "PUT", f"/api/users/{admin_id}", files={"role": (None, "user")}, headers={"X-CSRFToken": browser.csrf}
    )
    admin_after = st.admin.get(f"/api/users/{admin_id}").json()
    unchanged = all(admin_after[k] == admin_row[k] for k in ("first_name", "last_name", "phone", "city", "role"))
    report(
        "4' supervisor edits the admin from the dashboard",
        f"dashboard /admin/users ({page.status_code}), multipart PUT /api/users/{admin_id} first_name/last_name/"
        "phone/city/role with session + X-CSRFToken",
        f"{edits} role {role.status_code}; admin unchanged {unchanged}",
        all(c == 403 for c in edits.values()) and role.status_code == 403 and unchanged,
        "403 for every field; admin unchanged",
    )
    # Promoting oneself, and deleting the admin.
    me = sup.get("/api/users/profile").json()
    promote = sup.put(f"/api/users/{me['id']}", {"role": "admin"})
    promote2 = sup.put("/api/users/profile", {"role": "admin"})
    delete = sup.delete(f"/api/users/{admin_id}")
    role_now = st.user_by_email(SUPERVISOR[0])["role"]
    report(
        "4'' supervisor promotes self / deletes the admin",
        "PUT /api/users/<self> and /api/users/profile {role: admin}; DELETE /api/users/<admin>",
        f"{promote.status_code} / {promote2.status_code} / {delete.status_code}; role now {role_now}",
        promote.status_code == 403
        and promote2.status_code == 403
        and delete.status_code == 403
        and role_now == "supervisor",
        "403 each time, still supervisor",
    )


def item5(st: Studio) -> None:
    ines = Api(st.base, *INES)
    old_refresh, old_access = ines.refresh, ines.token
    browser = Browser(st.base)
    browser.login(*INES)
    reset_limits()
    mark = last_mail_id()
    forgot = requests.post(st.base + "/api/users/forgot-password", json={"email": INES[0]}, timeout=TIMEOUT)
    mail = wait_for_mail(to=INES[0], after_id=mark, contains="reset-password")
    if mail is None:
        report("5 reset", "forgot-password", f"{short(forgot)}; no reset mail within 25 s", None, "a reset link")
        return
    token = re.search(r"/reset-password/([\w-]+)", mail["body"]).group(1)
    reset = requests.post(
        st.base + f"/api/users/reset-password/{token}",
        json={"newPassword": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD},
        timeout=TIMEOUT,
    )
    refresh = requests.post(st.base + "/api/users/token/refresh", json={"refresh": old_refresh}, timeout=TIMEOUT)
    access = requests.get(
        st.base + "/api/users/profile", headers={"Authorization": f"Bearer {old_access}"}, timeout=TIMEOUT
    )
    session = browser.request("GET", "/api/users/profile")
    replay = requests.post(
        st.base + f"/api/users/reset-password/{token}",
        json={"newPassword": "Encore-Un-Autre-2026!", "confirmPassword": "Encore-Un-Autre-2026!"},
        timeout=TIMEOUT,
    )
    report(
        "5 logins survive a password reset",
        "login (refresh R, access A, browser session), reset by the e-mailed link, then use R, A, the session",
        f"reset {reset.status_code}; refresh R {short(refresh, 70)}; access A {access.status_code}; "
        f"session {session.status_code}; reset link replayed {replay.status_code}",
        reset.status_code == 200
        and refresh.status_code == 401
        and access.status_code == 401
        and session.status_code in (401, 403)
        and replay.status_code == 400,
        "refresh 401, old access 401, session ended, link single use",
    )

    # A refresh token of a deleted user.
    reset_limits()
    email = f"supprime.{int(time.time())}@example.fr"
    mark = last_mail_id()
    reg = requests.post(
        st.base + "/api/users/register",
        json={
            "first_name": "Sup",
            "last_name": "Prime",
            "email": email,
            "phone": "0612345670",
            "postal_code": "69002",
            "password": "Supprime-2026!",
            "confirmPassword": "Supprime-2026!",
            "acceptCGU": True,
        },
        timeout=TIMEOUT,
    )
    mail = wait_for_mail(to=email, after_id=mark, contains="confirm-email")
    if mail is None:
        report("5' deleted user", "register", f"{short(reg)}; no confirmation mail", None, "a confirmation link")
        return
    token = re.search(r"/confirm-email/([\w-]+)", mail["body"]).group(1)
    confirm = requests.get(st.base + f"/api/users/validate-email/{token}", timeout=TIMEOUT)
    doomed = Api(st.base, email, "Supprime-2026!")
    deleted = st.admin.delete(f"/api/users/{doomed.user_id}")
    refresh = requests.post(st.base + "/api/users/token/refresh", json={"refresh": doomed.refresh}, timeout=TIMEOUT)
    report(
        "5' refresh for a deleted user",
        "register + confirm (link replayed below) + login, admin DELETE /api/users/<id>, POST token/refresh",
        f"register {reg.status_code}, confirm {confirm.status_code}, delete {deleted.status_code}, "
        f"refresh {short(refresh, 80)}",
        deleted.status_code == 200 and refresh.status_code == 401,
        "401, never 500",
    )
    again = requests.get(st.base + f"/api/users/validate-email/{token}", timeout=TIMEOUT)
    report(
        "own: confirmation link replayed",
        "GET validate-email/<token> a second time",
        short(again, 90),
        again.status_code in (400, 404),
        "refused",
    )
    # Refresh rotation: the rotated token is blacklisted.
    lucie = Api(st.base, *LUCIE)
    first = requests.post(st.base + "/api/users/token/refresh", json={"refresh": lucie.refresh}, timeout=TIMEOUT)
    replayed = requests.post(st.base + "/api/users/token/refresh", json={"refresh": lucie.refresh}, timeout=TIMEOUT)
    forged = requests.post(
        st.base + "/api/users/token/refresh", json={"refresh": lucie.refresh[:-4] + "AAAA"}, timeout=TIMEOUT
    )
    report(
        "own: refresh token replayed after rotation / forged",
        "token/refresh with R (rotates), again with R, then R with a forged signature",
        f"{first.status_code} / {short(replayed, 60)} / {forged.status_code}",
        first.status_code == 200 and replayed.status_code == 401 and forged.status_code == 401,
        "200 then 401, forged 401",
    )


def item6(st: Studio) -> None:
    member = Api(st.base, *MEMBER)
    sid = st.new_session()
    answers = {}
    for value in ("Infinity", "-Infinity", "1e400", "sNaN", "NaN", "-25", "0", "1e-400"):
        answers[value] = hold(member, sid, 1, total_amount=value).status_code
    report(
        "6 total_amount Infinity/1e400/sNaN on a hold",
        "POST /api/reservations-courses total_amount=" + "/".join(answers),
        str(answers),
        all(c == 400 for c in answers.values()),
        "400 each, never 500",
    )
    head = {"Authorization": f"Bearer {member.token}", "Content-Type": "application/json"}
    raw = (
        f'{{"session_id": {sid}, "participants": 1, "first_name": "A", "last_name": "B", "email": "a@example.fr", '
        '"total_amount": 1e400}'
    )
    r = requests.post(st.base + "/api/reservations-courses", data=raw, headers=head, timeout=TIMEOUT)
    report("6 JSON number 1e400", "total_amount: 1e400 as a JSON number", short(r, 90), r.status_code == 400, "400")

    # 30 MB JSON body.
    big = 30 * 1024 * 1024
    request_head = (
        f"POST /api/reservations-courses HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {member.token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {big}\r\nConnection: close\r\n\r\n"
    ).encode()
    chunk = b" " * (1024 * 1024)
    answer = raw_http(st.base, request_head, [b'{"first_name": "', *[chunk] * 29, b" " * (1024 * 1024 - 20), b'"}'])
    report(
        "6 30 MB JSON body",
        "POST /api/reservations-courses, Content-Length 30 MB",
        answer[:150],
        " 413 " in answer,
        "413 with a French message",
    )
    # The same without Content-Length (chunked).
    request_head = (
        f"POST /api/reservations-courses HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {member.token}\r\n"
        f"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    ).encode()
    piece = b"x" * (1024 * 1024)
    chunks = [b"%x\r\n" % (len(piece) + 16) + b'{"first_name": "' + piece + b"\r\n"]
    chunks += [b"%x\r\n" % len(piece) + piece + b"\r\n"] * 11 + [b'2\r\n"}\r\n0\r\n\r\n']
    answer = raw_http(st.base, request_head, chunks)
    report(
        "own: 12 MB chunked JSON (no Content-Length)",
        "POST /api/reservations-courses chunked",
        answer[:150],
        " 413 " in answer or " 400 " in answer,
        "413, or 400 when nothing is read (Django reads no body without Content-Length); never 500",
    )

    deep = "[" * 100_000 + "]" * 100_000
    r1 = requests.post(st.base + "/api/reservations-courses", data=deep, headers=head, timeout=TIMEOUT)
    deep_obj = '{"a":' * 100_000 + "1" + "}" * 100_000
    r2 = requests.post(
        st.base + "/api/users/login", data=deep_obj, headers={"Content-Type": "application/json"}, timeout=TIMEOUT
    )
    report(
        "6 JSON nested 100,000 deep",
        "arrays on /api/reservations-courses, objects on /api/users/login",
        f"{short(r1, 80)} / {short(r2, 60)}",
        r1.status_code == 400 and r2.status_code == 400,
        "400",
    )

    r = hold(member, sid, 1, first_name="A" * 100_000)
    r_last = hold(member, sid, 1, last_name="B" * 100_000)
    r_mail = hold(member, sid, 1, email="c" * 100_000 + "@example.fr")
    report(
        "6 first name of 100,000 characters on a hold",
        "first_name / last_name / email of 100,000 chars",
        f"{short(r, 90)} / {r_last.status_code} / {r_mail.status_code}",
        all(x.status_code == 400 for x in (r, r_last, r_mail)),
        "400 in French",
    )

    # Own: more sizes and shapes on the write endpoints.
    shapes = {
        "NUL in first_name": hold(member, sid, 1, first_name="A\x00B").status_code,
        "participants 1e400 (JSON)": requests.post(
            st.base + "/api/reservations-courses",
            data=f'{{"session_id": {sid}, "participants": 1e400, "first_name": "A", "last_name": "B", '
            '"email": "a@example.fr"}',
            headers=head,
            timeout=TIMEOUT,
        ).status_code,
        "participants 10**9": hold(member, sid, 10**9).status_code,
        "participants 2**31": hold(member, sid, 2**31).status_code,
        "participants -5": hold(member, sid, -5).status_code,
        "participants [1,2]": hold(member, sid, [1, 2]).status_code,
        "session_id 2**63": hold(member, 2**63, 1).status_code,
        "session_id 'abc'": hold(member, "abc", 1).status_code,
        "2,000 form fields": requests.post(
            st.base + "/api/reservations-courses",
            data={f"f{i}": "x" for i in range(2000)},
            headers={"Authorization": f"Bearer {member.token}"},
            timeout=TIMEOUT,
        ).status_code,
        "JSON array body": member.post("/api/reservations-courses", [1, 2, 3]).status_code,
        "invalid UTF-8": requests.post(
            st.base + "/api/reservations-courses", data=b'{"first_name": "\xff\xfe"}', headers=head, timeout=TIMEOUT
        ).status_code,
        "contact message 1 MB": requests.post(
            st.base + "/api/contact-messages",
            json={"name": "A", "email": "a@example.fr", "message": "m" * 1_000_000},
            timeout=TIMEOUT,
        ).status_code,
        "create-order amount sNaN": open_order(member, {"id": 1, "total_amount": "sNaN"}).status_code,
        "create-order quantity 10**6": member.post(
            "/api/paypal/create-order",
            {
                "amount": "190.00",
                "title": "x",
                "type": "forfait",
                "email": MEMBER[0],
                "first_name": "A",
                "last_name": "B",
                "tariff_id": st.tariff("Carte 10 cours")["id"],
                "quantity": 10**6,
            },
        ).status_code,
        "capture orderId 5,000 chars": capture(member, "x" * 5000).status_code,
    }
    seats = sum(a["participants"] for a in st.attendees(sid) if a["status"] in ("held", "confirmed"))
    report(
        "own: sizes, counts and shapes on the write endpoints",
        ", ".join(shapes),
        f"{shapes}; seats held on the 10-seat session: {seats}",
        all(c != 500 and c < 500 for c in shapes.values()) and seats <= 10,
        "4xx (or 201 within the seats), never 5xx",
    )
    # Own: an unbounded text column (Reservation.message is a TextField): 9 MB in the message of a hold.
    r = hold(member, sid, 1, message="m" * (9 * 1024 * 1024))
    stored = r.json().get("id") if r.status_code == 201 else None
    report(
        "own: 9 MB 'message' on a hold (TextField, no model bound)",
        "POST /api/reservations-courses with message of 9 MB",
        short(r, 100),
        r.status_code < 500,
        "no 500 (a 400 would be better: INFO if 201)",
    )
    if stored:
        note("INFO: a 9 MB reservation message was accepted and stored (no length bound on that field)")


def item7_start(st: Studio) -> dict:
    sarah = Api(st.base, *SARAH)
    sid = st.new_session(seats=1)
    res = hold(sarah, sid, 1).json()
    oid = open_order(sarah, res).json()["id"]
    approve(sarah, oid)
    return {"sarah": sarah, "sid": sid, "res": res, "oid": oid, "t0": time.time()}


def item7_finish(st: Studio, ctx: dict) -> None:
    wait = ctx["t0"] + HOLD_MINUTES * 60 + 5 - time.time()
    if wait > 0:
        note(f"item 7: waiting {wait:.0f} s for the 1-minute hold to lapse")
        time.sleep(wait)
    sarah, sid, res, oid = ctx["sarah"], ctx["sid"], ctx["res"], ctx["oid"]
    julie = Api(st.base, *JULIE)
    taken = hold(julie, sid, 1)
    if taken.status_code == 201:
        joid = open_order(julie, taken.json()).json()["id"]
        approve(julie, joid)
        capture(julie, joid)
    mark = last_mail_id()
    cap = capture(sarah, oid)
    cap2 = capture(sarah, oid)
    order = next(o for o in st.orders(oid) if o["order_id"] == oid)
    sim = simulator_order(oid) or {}
    refund_mail = wait_for_mail(to=SARAH[0], after_id=mark, contains="rembours", seconds=10)
    att = st.attendees(sid)
    sarah_confirmed = any(a["id"] == res["id"] and a["status"] == "confirmed" for a in att)
    cancel = sarah.post(f"/api/reservations-courses/{res['id']}/cancel")
    body = cap.json() if cap.headers.get("content-type", "").startswith("application/json") else {}
    money_kept = sim.get("capture_id") and not sim.get("refund_id") and not sarah_confirmed
    safe = (
        taken.status_code == 201
        and cap.status_code == 409
        and body.get("refunded") is True
        and order["status"] == "REFUNDED"
        and bool(sim.get("refund_id"))
        and not sarah_confirmed
        and not money_kept
        and refund_mail is not None
        and cap2.status_code == 409
    )
    report(
        "7 paid, no seat, no way out",
        "1-seat session: hold + order + approve; hold lapses; another member takes and pays the seat; capture",
        f"other member {taken.status_code}; capture {short(cap, 130)} refunded={body.get('refunded')}; replay "
        f"{cap2.status_code}; order {order['status']} refund_id {order.get('refund_id') or sim.get('refund_id')}; "
        f"simulator {sim.get('capture_status')}; refund mail {'yes' if refund_mail else 'no'}; "
        f"cancel {cancel.status_code}",
        safe,
        "409 in French saying it is refunded, order REFUNDED with a provider refund, an e-mail, no seat taken",
    )


def item8(st: Studio) -> None:
    reset_limits()
    mark = last_mail_id()

    def contact(i):
        return requests.post(
            st.base + "/api/contact-messages",
            json={"name": f"Spam {i}", "email": f"spam{i}@example.fr", "message": "Bonjour", "subject": f"s{i}"},
            timeout=TIMEOUT,
        )

    t = time.time()
    answers = parallel(contact, [(i,) for i in range(30)], workers=30)
    elapsed = time.time() - t
    accepted = sum(a.status_code == 201 for a in answers)
    limited = [a for a in answers if a.status_code == 429]
    staff_mails = len(mails(after_id=mark, subject="Nouveau message"))
    french = (
        limited and "Trop de demandes" in limited[0].json().get("error", "") and limited[0].headers.get("Retry-After")
    )
    report(
        "8 30 contact posts at once",
        f"30 POST /api/contact-messages in {elapsed:.2f} s",
        f"{accepted}×201, {len(limited)}×429 ({short(limited[0], 70) if limited else '-'}, Retry-After "
        f"{limited[0].headers.get('Retry-After') if limited else '-'}); staff e-mails {staff_mails}",
        accepted <= 5 and staff_mails <= 5 and bool(french),
        "at most 5 accepted (5/10 min), 429 in French with Retry-After",
    )
    # Own: spoofed X-Forwarded-For does not buy a new quota (TRUSTED_PROXY_COUNT=0).
    spoofed = [
        requests.post(
            st.base + "/api/contact-messages",
            json={"name": "S", "email": "s@example.fr", "message": "x"},
            headers={"X-Forwarded-For": f"203.0.113.{i}", "X-Real-IP": f"203.0.113.{i}"},
            timeout=TIMEOUT,
        ).status_code
        for i in range(1, 6)
    ]
    page = requests.Session()
    page.get(st.base + "/contact", timeout=TIMEOUT)
    no_js = page.post(
        st.base + "/contact",
        data={
            "csrfmiddlewaretoken": page.cookies.get("csrftoken", ""),
            "name": "S",
            "email": "s@example.fr",
            "message": "x",
        },
        timeout=TIMEOUT,
    )
    report(
        "own: rate limit vs spoofed X-Forwarded-For / the no-JS page",
        "5 contact posts with X-Forwarded-For 203.0.113.x, then the /contact page form",
        f"{spoofed} / page {no_js.status_code}",
        all(c == 429 for c in spoofed) and no_js.status_code == 429,
        "429: the quota is per REMOTE_ADDR, shared by API and page",
    )

    mark = last_mail_id()

    def rental(i):
        return requests.post(
            st.base + "/api/rental-requests",
            json={
                "name": f"R{i}",
                "email": f"r{i}@example.fr",
                "phone": "0612345678",
                "eventType": "Anniversaire",
                "date": (date.today() + timedelta(days=30)).isoformat(),
                "time": "18:00",
                "message": "x",
            },
            timeout=TIMEOUT,
        )

    answers = parallel(rental, [(i,) for i in range(15)], workers=15)
    codes = [a.status_code for a in answers]
    bad = [a for a in answers if a.status_code not in (201, 429)]
    rental_mails = len(mails(after_id=mark))
    report(
        "8 15 room rentals",
        "15 POST /api/rental-requests at once",
        f"{codes.count(201)}×201, {codes.count(429)}×429, other {[short(b, 60) for b in bad[:1]]}; "
        f"e-mails {rental_mails}",
        codes.count(201) <= 5 and codes.count(429) >= 10,
        "at most 5 (5/h)",
    )

    mark = last_mail_id()
    stamp = int(time.time())

    def register(i):
        return requests.post(
            st.base + "/api/users/register",
            json={
                "first_name": "R",
                "last_name": f"N{i}",
                "email": f"inscrit.{stamp}.{i}@example.fr",
                "phone": "0612345678",
                "postal_code": "69002",
                "password": "Inscrit-2026!",
                "confirmPassword": "Inscrit-2026!",
                "acceptCGU": True,
            },
            timeout=TIMEOUT,
        )

    answers = parallel(register, [(i,) for i in range(8)], workers=8)
    codes = [a.status_code for a in answers]
    report(
        "8 8 registrations",
        "8 POST /api/users/register at once (new addresses)",
        f"{codes.count(201)}×201, {codes.count(429)}×429, others {[c for c in codes if c not in (201, 429)]}",
        codes.count(201) <= 5 and codes.count(429) >= 3,
        "at most 5 (5/h)",
    )

    reset_limits()
    mark = last_mail_id()
    answers = [
        requests.post(st.base + "/api/users/forgot-password", json={"email": JULIE[0]}, timeout=TIMEOUT)
        for _ in range(10)
    ]
    codes = [a.status_code for a in answers]
    time.sleep(6)
    first = len(mails(to=JULIE[0], after_id=mark, subject=""))
    # A second address (the counters reset as if the attacker came from another IP): the per-recipient cap holds.
    reset_limits(kinds=("rl:",))
    more = [
        requests.post(st.base + "/api/users/forgot-password", json={"email": JULIE[0]}, timeout=TIMEOUT).status_code
        for _ in range(5)
    ]
    time.sleep(6)
    total = len(mails(to=JULIE[0], after_id=mark))
    report(
        "8 10 reset mails to one address",
        "10 POST /api/users/forgot-password for one address, then 5 more after the IP counter reset",
        f"{codes.count(200)}×200, {codes.count(429)}×429; mails {first}; after 5 more ({more}) mails {total}",
        codes.count(200) <= 5 and first <= 5 and total <= 5,
        "at most 5 requests per IP and 5 mails per address per hour",
    )


def item9(st: Studio) -> None:
    reset_limits()

    def register(email):
        return requests.post(
            st.base + "/api/users/register",
            json={
                "first_name": "Test",
                "last_name": "Enum",
                "email": email,
                "phone": "0612345678",
                "postal_code": "69002",
                "password": "Enumeration-2026!",
                "confirmPassword": "Enumeration-2026!",
                "acceptCGU": True,
            },
            timeout=TIMEOUT,
        )

    known = register(MEMBER[0])
    known_upper = register(MEMBER[0].upper())
    unknown = register(f"jamais.vu.{int(time.time())}@example.fr")
    same = (known.status_code, known.json().get("message")) == (unknown.status_code, unknown.json().get("message"))
    same_upper = known_upper.status_code == unknown.status_code
    report(
        "9 registration tells who has an account",
        "register with an existing address (and in capitals) and with a new one",
        f"existing {short(known, 80)} / capitals {known_upper.status_code} / new {short(unknown, 60)}",
        same and same_upper,
        "the same status and message",
    )

    times = {"known": [], "unknown": []}
    bodies = set()
    for i in range(10):
        if i % 2 == 0:
            reset_limits(kinds=("rl:", "mail-quota:"))
        for kind, email in (("known", LUCIE[0]), ("unknown", f"personne.{i}@example.fr")):
            t = time.perf_counter()
            r = requests.post(st.base + "/api/users/forgot-password", json={"email": email}, timeout=TIMEOUT)
            times[kind].append((time.perf_counter() - t) * 1000)
            bodies.add((r.status_code, r.text))
    med = {k: statistics.median(v) for k, v in times.items()}
    diff = abs(med["known"] - med["unknown"])
    report(
        "9 forgot-password timing",
        "10 forgot-password for a known and 10 for an unknown address (rate-limit counters reset every 2 pairs)",
        f"median known {med['known']:.1f} ms, unknown {med['unknown']:.1f} ms (diff {diff:.1f} ms); "
        f"distinct answers {len(bodies)}",
        diff < max(15.0, 0.5 * med["unknown"]) and len(bodies) == 1,
        "no measurable difference, one answer",
    )
    # Own: login and resend-confirmation for a known vs an unknown address (8 of each, interleaved).
    login_times = {"known": [], "unknown": []}
    login_answers = set()
    for i in range(8):
        reset_limits(kinds=("login-failures",))
        for kind, email in (("known", JULIE[0]), ("unknown", f"personne.{i}@example.fr")):
            t = time.perf_counter()
            r = requests.post(
                st.base + "/api/users/login", json={"email": email, "password": f"faux-{i}"}, timeout=TIMEOUT
            )
            login_times[kind].append((time.perf_counter() - t) * 1000)
            login_answers.add((r.status_code, r.text))
    login_med = {k: statistics.median(v) for k, v in login_times.items()}
    login_diff = abs(login_med["known"] - login_med["unknown"])
    reset_limits()
    c = requests.post(st.base + "/api/users/resend-confirmation", json={"email": JULIE[0]}, timeout=TIMEOUT)
    d = requests.post(
        st.base + "/api/users/resend-confirmation", json={"email": "personne@example.fr"}, timeout=TIMEOUT
    )
    reset_limits()
    report(
        "own: login / resend-confirmation enumeration",
        "8 wrong-password logins for a known and 8 for unknown addresses; resend-confirmation known vs unknown",
        f"login median known {login_med['known']:.0f} ms vs unknown {login_med['unknown']:.0f} ms "
        f"(diff {login_diff:.0f} ms), distinct answers {len(login_answers)}; resend {c.status_code} vs {d.status_code}",
        len(login_answers) == 1 and login_diff < max(25.0, 0.5 * login_med["unknown"]) and c.text == d.text,
        "the same answers, no measurable difference",
    )


def item10(st: Studio) -> None:
    browser = Browser(st.base)
    browser.login(*MEMBER)
    before = browser.request("GET", "/api/users/profile").status_code
    evil = {"Origin": "https://evil.example", "Referer": "https://evil.example/page"}
    form = browser.request("POST", "/api/users/logout", data={"refresh": ""}, headers=evil)
    plain = browser.request("POST", "/api/users/logout", data="x", headers={**evil, "Content-Type": "text/plain"})
    as_json = browser.request("POST", "/api/users/logout", json={}, headers=evil)
    page = browser.request("POST", "/logout", data={}, headers=evil, allow_redirects=False)
    get_page = browser.request("GET", "/logout", allow_redirects=False)
    after = browser.request("GET", "/api/users/profile").status_code
    report(
        "10 cross-site logout",
        "POST /api/users/logout with the member's cookies, no CSRF token, Origin evil.example (form, text/plain, "
        "JSON), POST and GET /logout",
        f"form {short(form, 70)}; text/plain {plain.status_code}; json {as_json.status_code}; /logout POST "
        f"{page.status_code} GET {get_page.status_code}; profile before {before} after {after}",
        all(r.status_code == 403 for r in (form, plain, as_json, page))
        and get_page.status_code in (403, 405)
        and after == 200,
        "403 each time, still logged in",
    )
    legit = browser.request("POST", "/api/users/logout", json={}, headers={"X-CSRFToken": browser.csrf})
    gone = browser.request("GET", "/api/users/profile").status_code
    report(
        "10 control: the site's own logout",
        "POST /api/users/logout with X-CSRFToken",
        f"{legit.status_code}, profile then {gone}",
        legit.status_code == 200 and gone in (401, 403),
        "200 then 401",
    )
    # Own: cross-site login CSRF (log the victim into the attacker's account).
    victim = Browser(st.base)
    victim.s.get(st.base + "/login", timeout=TIMEOUT)
    forced = victim.request("POST", "/api/users/login", data={"email": JULIE[0], "password": JULIE[1]}, headers=evil)
    report(
        "own: cross-site login (login CSRF)",
        "form POST /api/users/login with a csrftoken cookie, no token",
        short(forced, 90),
        forced.status_code == 403,
        "403",
    )


# --- attacks of our own -----------------------------------------------------------------------------------------


def own_attacks(st: Studio) -> None:
    member, lucie = Api(st.base, *MEMBER), Api(st.base, *LUCIE)
    # Ids of others.
    sid = st.new_session()
    res = hold(member, sid, 1).json()
    oid = open_order(member, res).json()["id"]
    approve(member, oid)
    lucie_cards = [p for p in my_passes(lucie) if p.get("credits_left")]
    member_pass_id = None
    oid_card, _ = buy_tariff(member, st.tariff("Carte 10 cours"))
    member_pass_id = next(p["id"] for p in my_passes(member) if p["title"] == "Carte 10 cours")
    sid2 = st.new_session()
    tries = {
        "capture other's order": capture(lucie, oid).status_code,
        "approve other's order": approve(lucie, oid).status_code,
        "cancel other's order": lucie.post("/api/paypal/cancel-order", {"orderId": oid}).status_code,
        "create-order on other's hold": open_order(lucie, res).status_code,
        "cancel other's reservation": lucie.post(f"/api/reservations-courses/{res['id']}/cancel").status_code,
        "book with other's pass": hold(lucie, sid2, 1, pass_id=member_pass_id).status_code,
        "PUT other's profile": lucie.put(f"/api/users/{member.user_id}", {"first_name": "Pirate"}).status_code,
        "GET other's profile": lucie.get(f"/api/users/{member.user_id}").status_code,
        "other's contact messages": lucie.get(f"/api/contact-messages/user/{member.user_id}").status_code,
        "other's feedback history": lucie.get(f"/api/course-feedback/user/{member.user_id}").status_code,
    }
    order = next(o for o in st.orders(oid) if o["order_id"] == oid)
    still = order["status"] == "APPROVED" and any(a["id"] == res["id"] for a in st.attendees(sid))
    report(
        "own: ids of others",
        ", ".join(tries),
        f"{tries}; victim's order still {order['status']}",
        all(c in (403, 404) for c in tries.values()) and still and lucie_cards is not None,
        "403/404 each, nothing changed",
    )
    # A member on staff write endpoints.
    tries = {
        "record a payment": member.post(
            "/api/paypal/orders",
            {
                "order_id": "FREE-1",
                "email": MEMBER[0],
                "amount": "0",
                "title": "x",
                "date": "d",
                "time": "t",
                "status": "COMPLETED",
            },
        ).status_code,
        "edit own order to COMPLETED": member.put(f"/api/paypal/orders/{oid}", {"status": "COMPLETED"}).status_code,
        "grant self credits": member.post(
            "/api/passes", {"member_email": MEMBER[0], "kind": "card", "credits": 100, "reason": "x"}
        ).status_code,
        "add credits to own pass": member.put(
            f"/api/passes/{member_pass_id}", {"credits_delta": 100, "reason": "x"}
        ).status_code,
        "create a session": member.post("/api/course-sessions", {"course_id": st.course_id}).status_code,
        "set own role": member.put("/api/users/profile", {"role": "admin"}).status_code,
        "change own e-mail": member.put("/api/users/profile", {"email": "autre@example.fr"}).status_code,
        "list users": member.get("/api/users").status_code,
    }
    me = st.user_by_email(MEMBER[0])
    report(
        "own: a member on staff writes",
        ", ".join(tries),
        f"{tries}; role {me['role']} e-mail {me['email']} pending '{me.get('pending_email')}'",
        all(c in (403, 401) for k, c in tries.items() if k not in ("change own e-mail", "set own role"))
        and tries["set own role"] in (403, 200)
        and me["role"] == "user"
        and me["email"] == MEMBER[0]
        and not me.get("pending_email"),
        "403, role and e-mail unchanged",
    )
    # Replays on money.
    capture_answers = parallel(lambda: capture(member, oid), [()] * 8)
    replays = [capture(member, oid).status_code for _ in range(3)]
    approve_again = approve(member, oid).status_code
    rows = [o for o in st.orders(member.email) if o["reservation_id"] == res["id"]]
    completed = [o for o in rows if o["status"] == "COMPLETED"]
    report(
        "own: replayed captures",
        "8 concurrent captures of one approved order, 3 more after, approve again",
        f"{sorted(c.status_code for c in capture_answers)} then {replays}; approve {approve_again}; "
        f"completed orders {len(completed)}",
        len(completed) == 1 and approve_again == 400,
        "one payment, idempotent 200s, approve refused",
    )
    cancel1 = member.post(f"/api/reservations-courses/{res['id']}/cancel")
    cancel2 = member.post(f"/api/reservations-courses/{res['id']}/cancel")
    reopened = open_order(member, res)
    report(
        "own: cancel a paid reservation twice, pay it again",
        "cancel, cancel, create-order on it",
        f"{short(cancel1, 80)} / {cancel2.status_code} / {reopened.status_code}",
        cancel1.status_code == 200 and cancel2.status_code == 400 and reopened.status_code >= 400,
        "one credit back, second cancel refused, no new order",
    )
    # Capture racing the buyer's cancel (3 rounds).
    results = []
    for _ in range(3):
        sid = st.new_session()
        r = hold(lucie, sid, 1).json()
        o = open_order(lucie, r).json()["id"]
        approve(lucie, o)
        barrier = threading.Barrier(2)

        def go(kind, o=o, barrier=barrier):
            barrier.wait()
            if kind == "capture":
                return capture(lucie, o)
            return lucie.post("/api/paypal/cancel-order", {"orderId": o})

        cap, can = parallel(go, [("capture",), ("cancel",)])
        status = next(x for x in st.orders(o) if x["order_id"] == o)["status"]
        sim = simulator_order(o) or {}
        confirmed = any(a["id"] == r["id"] and a["status"] == "confirmed" for a in st.attendees(sid))
        kept = sim.get("capture_id") and not sim.get("refund_id") and not confirmed
        seat_free = not sim.get("capture_id") and confirmed
        results.append((cap.status_code, can.status_code, status, confirmed, bool(kept or seat_free)))
    report(
        "own: capture racing cancel-order (3 rounds)",
        "capture + cancel-order of one approved order at the same instant",
        "; ".join(
            f"capture {a} cancel {b} → {s}, seat {'confirmed' if c else 'not confirmed'}" for a, b, s, c, _ in results
        ),
        not any(x[4] for x in results),
        "paid and confirmed, or not captured / refunded and not confirmed",
    )
    # Five members race for the last seat.
    sid = st.new_session(seats=1)
    members = [Api(st.base, *acct) for acct in (MEMBER, LUCIE, SARAH, JULIE, INES_NEW)]
    barrier = threading.Barrier(len(members))

    def race(api):
        barrier.wait()
        return hold(api, sid, 1)

    answers = parallel(race, [(m,) for m in members])
    codes = [a.status_code for a in answers]
    held = sum(a["participants"] for a in st.attendees(sid))
    report(
        "own: 5 members hold the last seat at once",
        "5 concurrent holds of 1 on a 1-seat session",
        f"{codes}; seats taken {held}",
        codes.count(201) == 1 and held == 1,
        "one winner",
    )
    # A forged PayPal webhook (the simulator trusts none).
    hook = requests.post(
        st.base + "/api/paypal/webhook",
        json={
            "id": "WH-1",
            "event_type": "PAYMENT.CAPTURE.COMPLETED",
            "resource": {
                "id": "X",
                "status": "COMPLETED",
                "amount": {"currency_code": "EUR", "value": "25.00"},
                "supplementary_data": {"related_ids": {"order_id": oid}},
            },
        },
        timeout=TIMEOUT,
    )
    report(
        "own: forged PayPal webhook",
        "POST /api/paypal/webhook CAPTURE.COMPLETED, no signature",
        short(hook, 80),
        hook.status_code == 400,
        "400",
    )
    # Password guessing on one account.
    reset_limits()
    guesses = [
        requests.post(
            st.base + "/api/users/login", json={"email": JULIE[0], "password": f"devine-{i}"}, timeout=TIMEOUT
        ).status_code
        for i in range(7)
    ]
    right = requests.post(st.base + "/api/users/login", json={"email": JULIE[0], "password": JULIE[1]}, timeout=TIMEOUT)
    report(
        "own: password guessing",
        "7 wrong passwords for one account, then the right one",
        f"{guesses} then {right.status_code}",
        guesses.count(401) <= 5 and guesses[-1] == 429 and right.status_code == 429,
        "locked after 5 failures (429), even for the right password",
    )
    reset_limits()
    # Supervisor on roles of members.
    sup = Api(st.base, *SUPERVISOR)
    lucie_id = st.user_by_email(LUCIE[0])["id"]
    role = sup.put(f"/api/users/{lucie_id}", {"role": "supervisor"})
    report(
        "own: supervisor promotes a member",
        f"PUT /api/users/{lucie_id} {{role: supervisor}}",
        short(role, 80),
        role.status_code == 403 and st.user_by_email(LUCIE[0])["role"] == "user",
        "403",
    )


INES_NEW = (INES[0], NEW_PASSWORD)  # item 5 resets Inès's password


# --- main --------------------------------------------------------------------------------------------------------


def run(base: str) -> None:
    st = Studio(base)
    reset_limits()
    ctx7 = item7_start(st)
    steps = [
        ("1", item1),
        ("2", item2),
        ("3", item3),
        ("4", item4),
        ("5", item5),
        ("6", item6),
        ("8", item8),
        ("9", item9),
        ("10", item10),
    ]
    for name, step in steps:
        if name not in ("8",):
            reset_limits()
            note(f"rate-limit counters reset before item {name} (all requests come from 127.0.0.1)")
        try:
            step(st)
        except Exception as exc:  # noqa: BLE001 - a check that could not run is reported, not hidden
            report(f"{name} (could not run)", step.__name__, f"{exc.__class__.__name__}: {exc}", None)
            traceback.print_exc()
    reset_limits()
    try:
        item7_finish(st, ctx7)
    except Exception as exc:  # noqa: BLE001
        report("7 (could not run)", "item7", f"{exc.__class__.__name__}: {exc}", None)
        traceback.print_exc()
    reset_limits()
    note("rate-limit counters reset before the attacks of our own")
    try:
        own_attacks(st)
    except Exception as exc:  # noqa: BLE001
        report("own (could not run)", "own_attacks", f"{exc.__class__.__name__}: {exc}", None)
        traceback.print_exc()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep-db", action="store_true", help="reuse the database (no drop, migrate and seed only)")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="outside-attack-"))
    env = production_env(workdir)
    env.update(
        DATABASE_URL=f"{PG_SERVER}/{DB_NAME}",
        REDIS_URL=f"redis://127.0.0.1:6379/{REDIS_DB}",
        DJANGO_ALLOW_UNSHARED_CACHE="false",  # the shared cache is what production runs on
        SEAT_HOLD_MINUTES=str(HOLD_MINUTES),
        TRUSTED_PROXY_COUNT="0",
        SITE_URL="http://127.0.0.1",
    )
    for key in ("PAYPAL_CLIENT_ID", "PAYPAL_CLIENT_SECRET", "PAYPAL_WEBHOOK_ID", "RATELIMIT_ENABLE"):
        env.pop(key, None)
    print(f"database {DB_NAME}, Redis db {REDIS_DB}, workdir {workdir}", flush=True)
    if not args.keep_db:
        fresh_database()
    redis_client().flushdb()  # this run's own db number only
    prepare(env)
    worker_log = open(workdir / "worker.log", "wb")  # noqa: SIM115
    worker = subprocess.Popen(
        [PY, "manage.py", "db_worker", "--queue-name", "default", "--interval", "1", "--no-reload"],
        cwd=ROOT, env=env, stdout=worker_log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        with gunicorn(env, workdir, workers=WORKERS) as (base, _server):
            print(f"gunicorn {WORKERS} workers at {base} (studio.settings.production, PostgreSQL, Redis)", flush=True)
            run(base)
            log = (workdir / "gunicorn.log").read_text(errors="replace")
            errors = log.count("Traceback")
            report(
                "server log",
                "gunicorn.log after every attack",
                f"{errors} traceback(s)",
                errors == 0,
                "no unhandled error",
            )
            if errors:
                print(log[-4000:])
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
        worker_log.close()

    print("\n| # | tried | answer | verdict |\n|---|---|---|---|")
    for row in RESULTS:
        print(f"| {row['item']} | {row['tried']} | {row['answer']} | {row['verdict']} |")
    bad = [r for r in RESULTS if r["verdict"] != "SAFE"]
    print(f"\n{len(RESULTS) - len(bad)} SAFE, {len(bad)} not safe")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
