"""The booking rush and the login measure for `make bench`, as a browser does them: session cookie plus CSRF token.

Each simulated member runs hold → create order → approve (the payment simulator) → capture in a loop, on a random
session among the next upcoming ones, so that sessions fill up and members compete for the last seats. Each thread
books as its own members only (a member never runs two flows at once). Everything a client saw completed is written
down so that the database can be checked against it afterwards.
"""

import http.client
import json
import random
import secrets
import statistics
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

STEPS = ("hold", "create order", "approve", "capture")


class Client:
    def __init__(self, base: str, cookie: str | None = None):
        parts = urlsplit(base)
        self.host, self.port = parts.hostname, parts.port
        self.csrf = secrets.token_hex(16)  # 32 characters: an unmasked CSRF secret, as the cookie carries
        self.cookie = f"csrftoken={self.csrf}" + (f"; sessionid={cookie}" if cookie else "")

    def post(self, path: str, body: dict) -> tuple[int, dict, float]:
        data = json.dumps(body).encode()
        headers = {
            "Content-Type": "application/json",
            "Cookie": self.cookie,
            "X-CSRFToken": self.csrf,
            "Content-Length": str(len(data)),
        }
        started = time.perf_counter()
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            conn.request("POST", path, body=data, headers=headers)
            response = conn.getresponse()
            raw = response.read()
        finally:
            conn.close()
        elapsed = (time.perf_counter() - started) * 1000
        try:
            payload = json.loads(raw or b"{}")
        except ValueError:
            payload = {"raw": raw[:200].decode(errors="replace")}
        return response.status, payload, elapsed


def _percentiles(values: list[float]) -> dict:
    if not values:
        return {"n": 0, "p50_ms": 0.0, "p95_ms": 0.0}
    if len(values) == 1:
        return {"n": 1, "p50_ms": values[0], "p95_ms": values[0]}
    q = statistics.quantiles(values, n=100, method="inclusive")
    return {"n": len(values), "p50_ms": round(q[49], 1), "p95_ms": round(q[94], 1)}


def booking_rush(base: str, cookies: dict, *, members: int, seconds: float, seen_path: Path) -> dict:
    rush = cookies["rush"]
    sessions = cookies["sessions"]
    latencies = {step: [] for step in STEPS}
    completed, flows_ms, errors = [], [], []
    counts = {"refused": 0, "paid_but_full": 0}
    lock = threading.Lock()
    deadline = time.perf_counter() + seconds

    def member_loop(index: int) -> None:
        mine = rush[index::members]
        rng = random.Random(index)
        clients = [(m, Client(base, m["cookie"])) for m in mine]
        turn = 0
        while time.perf_counter() < deadline:
            member, client = clients[turn % len(clients)]
            turn += 1
            flow_started = time.perf_counter()
            identity = {"first_name": member["first_name"], "last_name": member["last_name"], "email": member["email"]}
            code, body, ms = client.post(
                "/api/reservations-courses", {"session_id": rng.choice(sessions), "participants": 1, **identity}
            )
            with lock:
                latencies["hold"].append(ms)
            if code == 409:
                with lock:
                    counts["refused"] += 1
                continue
            if code != 201:
                with lock:
                    errors.append(["hold", code, str(body)[:200]])
                continue
            reservation_id = body["id"]
            code, order, ms = client.post(
                "/api/paypal/create-order",
                {
                    "amount": body["total_amount"],
                    "reservation_id": reservation_id,
                    "type": "cours",
                    "title": body["title"],
                    **identity,
                },
            )
            with lock:
                latencies["create order"].append(ms)
            if code != 201:
                with lock:
                    errors.append(["create order", code, str(order)[:200]])
                continue
            code, approved, ms = client.post("/api/paypal/simulator/approve", {"orderId": order["id"]})
            with lock:
                latencies["approve"].append(ms)
            if code != 200:
                with lock:
                    errors.append(["approve", code, str(approved)[:200]])
                continue
            code, captured, ms = client.post("/api/paypal/capture-payment", {"orderId": order["id"]})
            with lock:
                latencies["capture"].append(ms)
                if code == 200 and captured.get("status") == "COMPLETED":
                    completed.append([reservation_id, order["id"]])
                    flows_ms.append((time.perf_counter() - flow_started) * 1000)
                elif code == 409:
                    counts["paid_but_full"] += 1
                else:
                    errors.append(["capture", code, str(captured)[:200]])

    started = time.perf_counter()
    threads = [threading.Thread(target=member_loop, args=(i,)) for i in range(members)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    seen_path.write_text(json.dumps({"sessions": sessions, "completed": completed}))
    return {
        "members": members,
        "seconds": round(elapsed, 1),
        "completed": len(completed),
        "completed_per_s": round(len(completed) / elapsed, 1),
        "steps": {step: _percentiles(values) for step, values in latencies.items()},
        "whole_flow": _percentiles(flows_ms),
        "refused": counts["refused"],
        "paid_but_full": counts["paid_but_full"],
        "errors": len(errors),
        "error_samples": errors[:5],
    }


def login_times(base: str, email: str, password: str, runs: int = 7) -> dict:
    """One login at a time (median of `runs`), then four at once (the slowest)."""

    def once() -> float:
        code, body, ms = Client(base).post("/api/users/login", {"email": email, "password": password})
        if code != 200:
            raise RuntimeError(f"login failed: {code} {body}")
        return ms

    once()  # the first login may upgrade the stored hash
    alone = [once() for _ in range(runs)]
    together: list[float] = []
    threads = [threading.Thread(target=lambda: together.append(once())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {
        "runs": runs,
        "one_ms": round(statistics.median(alone), 1),
        "four_at_once_max_ms": round(max(together), 1),
    }
