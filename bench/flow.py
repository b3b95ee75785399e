"""The class opening of `make bench`: every member, already logged in, books the same class in the same instant, over
HTTP as the calendar does (session cookie and CSRF token): hold a seat (`POST /api/reservations-courses`) → create
the order (`POST /api/paypal/create-order`) → approve it with the payment simulator (`POST
/api/paypal/simulator/approve`) → capture (`POST /api/paypal/capture-payment`).

A member whose hold is refused because the class is full is then checked the way the calendar treats them: the
class reads full (`seats_left` 0, which opens the calendar's "Session complète" popup with the waiting list), and
joining the waiting list (`POST /api/course-sessions/<id>/waitlist`) succeeds.
"""

import http.client
import json
import secrets
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

TIMEOUT_S = 30  # a member who waits this long has given up: a timeout counts as an error


class Client:
    """One member's browser: its session cookie, a CSRF cookie and the matching header, a new connection a request."""

    def __init__(self, base: str, session_cookie: str | None = None):
        parts = urlsplit(base)
        self.host, self.port = parts.hostname, parts.port
        self.csrf = secrets.token_hex(16)  # 32 characters: an unmasked CSRF secret, as the cookie may carry
        self.cookie = f"csrftoken={self.csrf}" + (f"; sessionid={session_cookie}" if session_cookie else "")

    def request(self, method: str, path: str, body: dict | None = None) -> dict:
        """{status (None when no answer came), body, ms, error}."""
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Cookie": self.cookie, "X-CSRFToken": self.csrf}
        if data is not None:
            headers.update({"Content-Type": "application/json", "Content-Length": str(len(data))})
        started = time.perf_counter()
        conn = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT_S)
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            raw = response.read()
        except OSError as error:  # timeout, refused or reset connection: the member got no answer
            return {"status": None, "body": {}, "ms": (time.perf_counter() - started) * 1000, "error": repr(error)}
        finally:
            conn.close()
        ms = (time.perf_counter() - started) * 1000
        try:
            payload = json.loads(raw or b"{}")
        except ValueError:
            payload = {"raw": raw[:200].decode(errors="replace")}
        return {"status": response.status, "body": payload, "ms": ms, "error": None}


def told_full(answer: dict) -> bool:
    """The hold's refusal when no seat is left: 409, code `session_full`, "Cette session est complète." """
    body = answer["body"] if isinstance(answer["body"], dict) else {}
    return answer["status"] == 409 and body.get("code") == "session_full" and "complète" in str(body.get("message"))


def book(client: Client, member: dict, session_id: int) -> dict:
    """The member flow; returns each step's answer and how it ended: confirmed, full, or error (with the step)."""
    identity = {k: member[k] for k in ("first_name", "last_name", "email")}
    steps = {}
    hold = steps["hold"] = client.request(
        "POST", "/api/reservations-courses", {"session_id": session_id, "participants": 1, **identity}
    )
    if told_full(hold):
        return {"outcome": "full", "steps": steps, "waitlist_in_answer": hold["body"].get("waitlist_open") is True}
    if hold["status"] != 201:
        return {"outcome": "error", "step": "hold", "steps": steps}
    reservation = hold["body"]
    order = steps["create order"] = client.request(
        "POST",
        "/api/paypal/create-order",
        {
            "amount": reservation["total_amount"],
            "reservation_id": reservation["id"],
            "type": "cours",
            "title": reservation["title"],
            **identity,
        },
    )
    if order["status"] != 201:
        return {"outcome": "error", "step": "create order", "steps": steps}
    order_id = order["body"]["id"]
    approve = steps["approve"] = client.request("POST", "/api/paypal/simulator/approve", {"orderId": order_id})
    if approve["status"] != 200:
        return {"outcome": "error", "step": "approve", "steps": steps}
    capture = steps["capture"] = client.request("POST", "/api/paypal/capture-payment", {"orderId": order_id})
    if capture["status"] != 200 or capture["body"].get("status") != "COMPLETED":
        return {"outcome": "error", "step": "capture", "steps": steps}
    return {"outcome": "confirmed", "steps": steps, "reservation_id": reservation["id"], "order_id": order_id}


def warm_up(base: str, members: list[dict], session_id: int) -> list[str]:
    """A few members book another class first, two at a time, so that each gunicorn worker has run the flow once (a
    class opens on a site in service, not on one just started). Returns the errors seen."""
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda m: book(Client(base, m["cookie"]), m, session_id), members))
    return [f"{r.get('step')}: {r['steps'][r['step']]}" for r in results if r["outcome"] == "error"]


def percentile(values: list[float], q: int) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def class_opening(base: str, members: list[dict], session_id: int) -> dict:
    """Every member's flow started in the same instant (one thread each, released together)."""
    results: list[dict | None] = [None] * len(members)
    gate = threading.Barrier(len(members) + 1)

    def member_flow(index: int) -> None:
        member = members[index]
        client = Client(base, member["cookie"])
        gate.wait()
        results[index] = book(client, member, session_id)

    threads = [threading.Thread(target=member_flow, args=(i,), daemon=True) for i in range(len(members))]
    for thread in threads:
        thread.start()
    gate.wait()
    opened = time.perf_counter()
    for thread in threads:
        thread.join(TIMEOUT_S * 5)
    elapsed = time.perf_counter() - opened

    finished = [r for r in results if r is not None]
    first = [r["steps"]["hold"] for r in finished]
    errors = [r for r in finished if r["outcome"] == "error"]
    confirmed = [r for r in finished if r["outcome"] == "confirmed"]
    full = [i for i, r in enumerate(results) if r is not None and r["outcome"] == "full"]
    step_ms = {}
    for step in ("hold", "create order", "approve", "capture"):
        values = [r["steps"][step]["ms"] for r in finished if step in r["steps"]]
        step_ms[step] = {"n": len(values), "p50": round(percentile(values, 50)), "p95": round(percentile(values, 95))}
    return {
        "members": len(members),
        "seconds": round(elapsed, 2),
        "answered": sum(1 for a in first if a["status"] is not None),
        "first_answer_p50_ms": round(percentile([a["ms"] for a in first], 50)),
        "first_answer_p95_ms": round(percentile([a["ms"] for a in first], 95)),
        "first_answer_max_ms": round(max((a["ms"] for a in first), default=0)),
        "confirmed_seen": len(confirmed),
        "captured_seen": [[r["reservation_id"], r["order_id"]] for r in confirmed],
        "told_full": len(full),
        "waitlist_in_answer": sum(1 for r in results if r and r["outcome"] == "full" and r.get("waitlist_in_answer")),
        "full_members": full,
        "errors": len(errors) + sum(1 for r in results if r is None),
        "server_errors": sum(
            1 for r in errors if (r["steps"][r["step"]]["status"] or 0) >= 500 or r["steps"][r["step"]]["error"]
        ),
        "error_samples": [
            {"step": r["step"], **{k: str(v)[:200] for k, v in r["steps"][r["step"]].items() if k != "ms"}}
            for r in errors[:5]
        ],
        "steps_ms": step_ms,
    }


def waiting_list_offered(base: str, members: list[dict], session_id: int) -> dict:
    """For each member told the class is full: the class reads full to them (the calendar then shows its waiting
    list), and they can join that waiting list."""

    def check(member: dict) -> tuple[bool, bool, str]:
        client = Client(base, member["cookie"])
        detail = client.request("GET", f"/api/course-sessions/{session_id}")
        reads_full = detail["status"] == 200 and detail["body"].get("seats_left") == 0
        joined = client.request("POST", f"/api/course-sessions/{session_id}/waitlist", {})
        return reads_full, joined["status"] == 201, f"{joined['status']} {str(joined['body'])[:160]}"

    with ThreadPoolExecutor(4) as pool:
        checks = list(pool.map(check, members))
    return {
        "reads_full": sum(1 for c in checks if c[0]),
        "joined": sum(1 for c in checks if c[1]),
        "refusals": [c[2] for c in checks if not c[1]][:5],
    }
