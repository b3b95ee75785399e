"""Rows 2 and 3 of make bench: every logged-in page and API with 10 connections at once, every public page against
a static file of its size; wrk measures, the pages come from the URLconfs."""

import re
import subprocess
import sys
import time
from datetime import date, timedelta
from pathlib import Path

from config import (
    CONNECTIONS,
    LOGGED_IN_DURATION,
    PAIR_DURATION,
    PUBLIC_PAIRS,
    PUBLIC_RATIO_GOAL,
    SERVER_TIME_GOAL_MS,
)
from flow import Client, percentile
from report import row
from server import ROOT

sys.path.insert(0, str(ROOT))
from studio.public_pages import PUBLIC_PAGES  # noqa: E402

# --- wrk ------------------------------------------------------------------------------------------------------------


def wrk(url: str, lua: Path, headers: list[str], duration: str, connections: int = CONNECTIONS) -> dict:
    cmd = ["wrk", f"-t{min(connections, 2)}", f"-c{connections}", f"-d{duration}", "-s", str(lua), "--timeout", "10s"]
    for header in headers:
        cmd += ["-H", header]
    out = subprocess.run([*cmd, url], capture_output=True, text=True, check=True).stdout
    p = re.search(r"BENCH p50=(\d+) p95=(\d+) timeouts=(\d+)", out)
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50_ms": int(p.group(1)) / 1000,
        "p95_ms": int(p.group(2)) / 1000,
        "errors": (int(non2xx.group(1)) if non2xx else 0)
        + (sum(int(n) for n in socket_errors.groups()) if socket_errors else 0),
    }


def probe(base: str, path: str, session_cookie: str | None) -> tuple[int | None, str]:
    """One GET as the measure sends it: the status must be 200 (a redirect to the login page would be measured as a
    success by wrk)."""
    answer = Client(base, session_cookie).request("GET", path)
    return answer["status"], str(answer["body"])[:200] if answer["status"] != 200 else ""


# --- the pages ------------------------------------------------------------------------------------------------------


def month_range(today: date) -> str:
    first = today.replace(day=1)
    return f"start={(first - timedelta(days=7)).isoformat()}&end={(first + timedelta(days=42)).isoformat()}"


def week_range(today: date) -> str:
    monday = today - timedelta(days=today.weekday())
    return f"start={monday.isoformat()}&end={(monday + timedelta(days=7)).isoformat()}"


def public_pages(setup: dict) -> list[str]:
    today = date.today()
    return [
        *PUBLIC_PAGES,
        f"/courses/{setup['course']}",
        f"/api/course-sessions?{week_range(today)}",
        f"/api/course-sessions?{month_range(today)}",
    ]


def logged_in_pages(setup: dict, calendar_feed: str | None) -> list[tuple[str, str, str | None]]:
    """(who, path, session cookie) for every page and API (GET) a member or the staff opens, from the URLconfs.

    Left out: forms that only take a POST, pages reached by a one-time token from an e-mail, Django's own admin."""
    today = date.today()
    month_before = (today.replace(day=1) - timedelta(days=1)).replace(day=1)
    last_month = f"start={month_before.isoformat()}&end={(today.replace(day=1) - timedelta(days=1)).isoformat()}"
    year = f"from={(today - timedelta(days=364)).isoformat()}&to={today.isoformat()}"
    week = f"from={(today - timedelta(days=today.weekday())).isoformat()}&to={today.isoformat()}"
    m, s = setup["member"], setup["staff"]
    pages = [
        # A member browsing the site: the public pages are not the cached copies once logged in.
        *[("member", path, m) for path in ("/", "/courses/calendar", "/tarifs", "/weekly", "/gallery", "/contact")],
        ("member", f"/courses/{setup['course']}", m),
        ("member", f"/api/course-sessions?{week_range(today)}", m),
        ("member", f"/api/course-sessions?{month_range(today)}", m),
        ("member", f"/api/course-sessions/{setup['session']}", m),
        ("member", "/my-courses", m),
        ("member", "/user/profile", m),
        ("member", "/user/messages", m),
        ("member", "/user/requests", m),
        ("member", "/user/delete-account", m),
        ("member", "/api/users/profile", m),
        ("member", "/api/passes/mine", m),
        ("member", "/api/waitlist/mine", m),
        ("member", "/api/booking-preferences", m),
        ("member", "/api/invoices/mine", m),
        ("member", "/api/subscriptions/mine", m),
        ("member", "/api/evf-reservations/mine", m),
        ("member", "/api/rental-requests/mine", m),
        ("member", f"/api/course-feedback/user/{setup['member_id']}", m),
        ("member", "/api/paypal/config", m),
        ("member", "/api/users/me/export", m),
        # The back office: the dashboard's sections and the APIs they read.
        ("staff", "/admin/dashboard", s),
        *[
            ("staff", f"/admin/{section}", s)
            for section in (
                "users courses testimonials instructors contact-messages sessions slider tarifs media slideshow orders "
                "reservations rentals parties passes emails subscriptions exports overview"
            ).split()
        ],
        ("staff", "/api/users?page=1", s),
        ("staff", f"/api/users/{setup['member_id']}", s),
        ("staff", f"/user/profile/{setup['member_id']}", s),
        ("staff", f"/api/users/{setup['member_id']}/export", s),
        ("staff", "/api/paypal/orders?page=1", s),
        ("staff", "/api/passes?page=1", s),
        ("staff", "/api/course-sessions?view=staff&page=1", s),
        ("staff", f"/api/course-sessions/{setup['session']}?view=staff", s),
        ("staff", f"/api/course-sessions/{setup['session']}/attendees", s),
        ("staff", f"/api/course-sessions/{setup['session']}/waitlist", s),
        ("staff", f"/api/course-sessions/{setup['past_session']}/attendance", s),
        ("staff", "/api/contact-messages", s),
        ("staff", "/api/contact-messages/unread-count", s),
        ("staff", "/api/rental-requests", s),
        ("staff", "/api/evf-reservations", s),
        ("staff", "/api/subscriptions", s),
        ("staff", "/api/emails/undelivered", s),
        ("staff", f"/api/dashboard/stats?{week}", s),
        ("staff", f"/api/dashboard/stats?{year}", s),
        *[("staff", f"/api/exports/{kind}?{last_month}", s) for kind in ("orders", "reservations", "members")],
        ("staff", f"/api/exports/passes?{last_month}", s),
        *[
            ("staff", f"/api/{name}", s)
            for name in ("courses", "tarifs", "testimonials", "instructors", "media", "slider", "slideshow-images")
        ],
    ]
    if setup["cancelled_session"]:
        pages.append(("staff", f"/api/course-sessions/{setup['cancelled_session']}/cancellation", s))
    if setup["subscribed_tariff"]:
        pages.append(("member", f"/api/subscriptions/offers/{setup['subscribed_tariff']}", m))
    if setup["instructor"]:  # an instructor's own pages: the classes they teach
        pages += [("instructor", "/instructor/classes", setup["instructor"])]
        pages += [("instructor", "/api/instructor/sessions", setup["instructor"])]
        if setup["instructor_session"]:
            pages += [("instructor", f"/instructor/classes/{setup['instructor_session']}", setup["instructor"])]
    if setup["member_reservation"]:
        pages.append(("member", f"/my-courses/{setup['member_reservation']}.ics", m))
    if calendar_feed:
        pages.append(("member", calendar_feed, None))  # the calendar application, with the secret link alone
    if setup["pass"]:
        pages.append(("staff", f"/api/passes/{setup['pass']}", s))
    if setup["message"]:
        pages += [
            ("member", f"/user/messages/{setup['message']}", setup["message_owner"]),
            ("staff", f"/messages/{setup['message']}", s),
            ("staff", f"/api/contact-messages/{setup['message']}", s),
            ("staff", f"/api/contact-messages/user/{setup['message_owner_id']}", s),
        ]
    if setup["party"]:
        pages += [
            ("member", f"/user/requests/evjf/{setup['party']}", setup["party_owner"]),
            ("staff", f"/api/evf-reservations/{setup['party']}", s),
        ]
    if setup["rental"]:
        pages += [
            ("member", f"/user/requests/location/{setup['rental']}", setup["rental_owner"]),
            ("staff", f"/api/rental-requests/{setup['rental']}", s),
        ]
    if setup["invoice"]:
        pages.append(("member", f"/api/invoices/{setup['invoice']}/pdf", setup["invoice_owner"]))
        if setup["invoice_order"]:
            pages.append(("staff", f"/api/invoices/orders/{setup['invoice_order']}/pdf", s))
    return pages


def calendar_feed_path(base: str, member_cookie: str) -> str | None:
    """The member's secret calendar link, made as the profile page makes it."""
    client = Client(base, member_cookie)
    made = client.request("POST", "/api/booking-preferences/calendar-link", {})
    url = made["body"].get("calendar_url") if isinstance(made["body"], dict) else None
    return "/" + url.split("/", 3)[3] if url else None


ACCESS_LINE = re.compile(r'"(?:GET|HEAD|POST) (\S+) HTTP/[\d.]+" \d{3} \S+ (\d+)$')


def server_times(access_log: Path, offset: int, path: str) -> list[int]:
    """The server's own time (ms, gunicorn's %(M)s) of each request for `path` logged after `offset`."""
    with open(access_log, "rb") as log:
        log.seek(offset)
        lines = log.read().decode(errors="replace").splitlines()
    times = []
    for line in lines:
        found = ACCESS_LINE.search(line.strip())
        if found and found.group(1) == path:
            times.append(int(found.group(2)))
    return times


def measure_pages(base: str, lua: Path, pages: list[tuple[str, str, str | None]], access_log: Path) -> list[dict]:
    """Each page with CONNECTIONS clients at once: what the clients saw (wrk: throughput, latency including the
    wait for a free worker) and the server time of each answer (the access log), whose p95 is the goal."""
    results = []
    for who, path, session_cookie in pages:
        status, body = probe(base, path, session_cookie)
        result = {"who": who, "path": path, "status": status}
        if status != 200:
            result.update(p95_ms=None, server_p95_ms=None, errors=1, note=f"HTTP {status} {body}")
            print(f"  {who} {path}: HTTP {status}", flush=True)
        else:
            headers = [f"Cookie: sessionid={session_cookie}"] if session_cookie else []
            wrk(base + path, lua, headers, "1s")  # every worker warm first
            offset = access_log.stat().st_size
            result.update(wrk(base + path, lua, headers, LOGGED_IN_DURATION))
            time.sleep(0.2)  # the last answers' lines reach the log
            times = server_times(access_log, offset, path)
            result.update(served=len(times), server_p50_ms=percentile(times, 50), server_p95_ms=percentile(times, 95))
            if not result["rps"] or not times:
                note = f"no answer within {LOGGED_IN_DURATION}"
                result.update(server_p95_ms=None, errors=result["errors"] + 1, note=note)
                print(f"  {who} {path}: no answer within {LOGGED_IN_DURATION}", flush=True)
            else:
                seen = f"server p95 {result['server_p95_ms']:.0f} ms, clients p95 {result['p95_ms']:.0f} ms"
                print(f"  {who} {path}: {seen}", flush=True)
        results.append(result)
    return results


def logged_in_row(base: str, lua: Path, setup: dict, access_log: Path) -> tuple[list[dict], dict]:
    pages = logged_in_pages(setup, calendar_feed_path(base, setup["member"]))
    results = measure_pages(base, lua, pages, access_log)
    measured = [r for r in results if r["server_p95_ms"] is not None]
    worst = max(measured, key=lambda r: r["server_p95_ms"], default=None)
    bad = [r for r in results if r["errors"] or r["server_p95_ms"] is None or r["server_p95_ms"] >= SERVER_TIME_GOAL_MS]
    clients = max(measured, key=lambda r: r["p95_ms"], default=None)
    text = (
        f"worst {worst['server_p95_ms']:.0f} ms ({worst['who']} {worst['path']}); {len(results)} pages, "
        f"{len(bad)} over or in error; as the clients saw it, with the wait for a free worker: worst p95 "
        f"{clients['p95_ms']:.0f} ms, {sum(1 for r in measured if r['p95_ms'] >= SERVER_TIME_GOAL_MS)} over"
        if worst
        else "nothing measured"
    )
    return [
        row(f"logged-in pages and APIs, {CONNECTIONS} at once: p95 server time", f"< {SERVER_TIME_GOAL_MS} ms each",
            text, bool(measured) and not bad)
    ], {"pages": results}  # fmt: skip


def public_row(base: str, lua: Path, setup: dict) -> tuple[list[dict], dict]:
    results = []
    for path in public_pages(setup):
        status, body = probe(base, path, None)
        ceiling = setup["ceilings"].get(path)
        result = {"path": path, "status": status}
        if status != 200 or ceiling is None:
            result.update(ratio=None, errors=1, note=f"HTTP {status} {body}")
            print(f"  public {path}: HTTP {status}", flush=True)
            results.append(result)
            continue
        wrk(base + path, lua, [], "1s")
        wrk(base + ceiling["static"], lua, [], "1s")
        # Pairs of short measures, the static file right before the page, and the median of their ratios: on a
        # shared machine the load drifts (the task worker and the scheduler wake up now and then), and each ratio
        # compares two measures taken under the same load.
        pairs = []
        for _ in range(PUBLIC_PAIRS):
            static = wrk(base + ceiling["static"], lua, [], PAIR_DURATION)
            page = wrk(base + path, lua, [], PAIR_DURATION)
            pairs.append((page["rps"] / static["rps"] if static["rps"] else 0.0, page, static))
        ratio, page, static = sorted(pairs, key=lambda pair: pair[0])[len(pairs) // 2]
        result.update(
            page,
            bytes=ceiling["bytes"],
            static_rps=static["rps"],
            static_errors=sum(pair[2]["errors"] for pair in pairs),
            errors=sum(pair[1]["errors"] for pair in pairs),
            ratio=round(ratio, 3),
            ratios=[round(pair[0], 3) for pair in pairs],
        )
        print(f"  public {path}: {page['rps']:.0f} req/s, static {static['rps']:.0f}", flush=True)
        results.append(result)
    measured = [r for r in results if r.get("ratio") is not None]
    worst = min(measured, key=lambda r: r["ratio"], default=None)
    bad = [r for r in results if r["errors"] or r.get("ratio") is None or r["ratio"] < PUBLIC_RATIO_GOAL]
    text = (
        f"worst {worst['ratio']:.2f} ({worst['path']}); {len(results)} pages, {len(bad)} under or in error"
        if worst
        else "nothing measured"
    )
    return [
        row("public pages, anonymous: requests/s against a static file of the same size", f"≥ {PUBLIC_RATIO_GOAL}",
            text, bool(measured) and not bad)
    ], {"pages": results}  # fmt: skip
