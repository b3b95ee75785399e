"""`make bench`: the performance people feel, one table of goals, each PASS or FAIL.

On PostgreSQL + Redis, with the processes `make run` starts (the checkout's Procfile: gunicorn with
gunicorn.conf.py, the task worker, the scheduler; production settings), on a freshly seeded large studio
(`manage.py seed_bench`):

1. class opening: 300 members, logged in beforehand, book one 12-place class in the same instant (bench/flow.py);
2. every logged-in page and API with 10 connections at once (wrk, a member's or staff's session cookie);
3. every public page, anonymous, against a static file of the same size served by the same gunicorn;
4. queries per page, small vs large studio (studio/tests/test_bench_queries.py);
5. Lighthouse mobile on every page, against the same server (bench/lighthouse.py).

Prints the table with the date and the machine's load, writes it to bench/runs/<date>-<label>.md with the details
and bench/runs/<date>-<label>.json, and exits 1 when a goal is missed.

Environment: BENCH_PROJECT (the checkout to measure, default this one, served with this venv), BENCH_LABEL (default:
the checkout's short commit), BENCH_QUICK=1 (a smoke run: a small studio, 1 s a page, one Lighthouse run on a few
pages), BENCH_ROWS (e.g. "1,4": only those rows), GUNICORN_WORKERS (2, as `make run`), BENCH_PG_URL, BENCH_PG_DB,
BENCH_REDIS_URL (a Redis database the bench empties).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import xml.etree.ElementTree as ET
from datetime import date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lighthouse  # noqa: E402
from flow import Client, class_opening, percentile, waiting_list_offered, warm_up  # noqa: E402
from server import PY, ROOT, prepare, production_env, site  # noqa: E402

sys.path.insert(0, str(ROOT))
from studio.public_pages import PUBLIC_PAGES  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK", "") not in ("", "0")
PROJECT = Path(os.environ.get("BENCH_PROJECT") or ROOT).resolve()
ROWS = {r.strip() for r in os.environ.get("BENCH_ROWS", "1,2,3,4,5").split(",") if r.strip()}
WORKERS = os.environ.get("GUNICORN_WORKERS", "2")
PG_ADMIN_URL = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432")
PG_DATABASE = os.environ.get("BENCH_PG_DB", "studio_bench")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/11")

# wrk's measure of each page: a public page and its static ceiling (the median ratio of pairs of short measures),
# a logged-in page (a p95: a few hundred answers are enough).
PUBLIC_PAIRS, PAIR_DURATION = (1, "1s") if QUICK else (5, "2s")
LOGGED_IN_DURATION = "1s" if QUICK else "3s"
SEED_ARGS = ("--sessions", "300", "--members", "100", "--reservations", "800") if QUICK else ()
RUSH_MEMBERS, RUSH_PLACES, FIRST_ANSWER_GOAL_MS = 300, 12, 2000
CONNECTIONS, SERVER_TIME_GOAL_MS = 10, 150
PUBLIC_RATIO_GOAL = 0.5
LIGHTHOUSE_RUNS = 1 if QUICK else 3

LUA = """
done = function(summary, latency, requests)
  io.write(string.format("BENCH p50=%d p95=%d timeouts=%d\\n", latency:percentile(50), latency:percentile(95),
                         summary.errors.timeout))
end
"""


def label_of(project: Path) -> str:
    if os.environ.get("BENCH_LABEL"):
        return re.sub(r"[^A-Za-z0-9_.-]+", "-", os.environ["BENCH_LABEL"])
    git = ["git", "-C", str(project)]
    commit = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run([*git, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True)
    return (commit or project.name) + ("-dirty" if dirty.stdout.strip() else "") + ("-quick" if QUICK else "")


def shell(env: dict, script: str, **extra_env: str) -> dict:
    """Run a bench script inside the measured checkout's `manage.py shell`; its last output line is JSON."""
    code = (Path(__file__).resolve().parent / script).read_text()
    out = subprocess.run(
        [PY, "manage.py", "shell", "-c", code],
        cwd=PROJECT,
        env={**env, **extra_env},
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise RuntimeError(f"{script} failed ({out.returncode}):\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def fresh_database(env: dict) -> None:
    import psycopg
    import redis

    with psycopg.connect(f"{PG_ADMIN_URL}/postgres", autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{PG_DATABASE}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{PG_DATABASE}"')
    redis.Redis.from_url(REDIS_URL, socket_connect_timeout=5).flushdb()
    env["DATABASE_URL"] = f"{PG_ADMIN_URL}/{PG_DATABASE}"
    env["REDIS_URL"] = REDIS_URL


def vacuum(env: dict) -> None:
    """Rows just bulk-loaded vacuumed and analysed, as autovacuum leaves a database in service: otherwise autovacuum
    starts in the middle of the measures and the planner has no statistics yet."""
    import psycopg

    with psycopg.connect(env["DATABASE_URL"], autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")


def build_other_checkout() -> None:
    """Another checkout's islands built with its own sources (this repository's node_modules when the lock files
    agree, else its own `npm ci`)."""
    modules = PROJECT / "node_modules"
    if not modules.exists():
        same_lock = (PROJECT / "package-lock.json").read_bytes() == (ROOT / "package-lock.json").read_bytes()
        if same_lock:
            modules.symlink_to(ROOT / "node_modules")
        else:
            subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=PROJECT, check=True)
    subprocess.run(["npm", "run", "--silent", "build"], cwd=PROJECT, check=True, stdout=subprocess.DEVNULL)


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


# --- rows -----------------------------------------------------------------------------------------------------------


def row(figure: str, goal: str, measured: str, passed: bool | None, **details) -> dict:
    verdict = "PASS" if passed else ("not run" if passed is None else "FAIL")
    return {"figure": figure, "goal": goal, "measured": measured, "verdict": verdict, **details}


def rush_rows(base: str, env: dict, setup: dict) -> tuple[list[dict], dict]:
    errors = warm_up(base, setup["warm"], setup["warm_session"])
    if errors:
        raise RuntimeError(f"the warm-up bookings failed: {errors[:3]}")
    print(f"  class opening: {len(setup['rush'])} members, one {setup['rush_places']}-place class…", flush=True)
    seen = class_opening(base, setup["rush"], setup["rush_session"])
    refused = [setup["rush"][i] for i in seen["full_members"]]
    offered = waiting_list_offered(base, refused, setup["rush_session"])
    db = shell(
        env,
        "rush_check.py",
        BENCH_CHECK=json.dumps({"session": setup["rush_session"], "seen_captured": seen["captured_seen"]}),
    )
    rows, alarms = rush_verdicts(seen, db, offered, setup["rush_places"])
    return rows, {"clients": seen, "database": db, "waiting_list": offered, "alarms": alarms}


def rush_verdicts(seen: dict, db: dict, offered: dict, places: int) -> tuple[list[dict], list[str]]:
    """The class opening's rows, from what the clients saw and what the database holds; and the alarms for what
    must never happen (more seats confirmed than the class has, a seat paid twice)."""
    members = seen["members"]
    others = members - db["reservations_confirmed"]
    paid_ok = (
        db["confirmed_paid_once"] == db["reservations_confirmed"] == len(seen["captured_seen"])
        and not db["paid_twice"]
        and not db["paid_not_confirmed"]
        and not db["orders_without_capture"]
        and not db["provider_not_captured"]
        and not db["seen_not_in_database"]
    )
    alarms = []
    if db["seats_confirmed"] > places:
        alarms.append(f"OVERBOOKED: {db['seats_confirmed']} seats confirmed in a {places}-place class")
    if db["paid_twice"]:
        alarms.append(f"PAID TWICE: reservations {db['paid_twice']} have more than one completed payment")
    if db["paid_not_confirmed"]:
        alarms.append(f"PAID BUT NOT CONFIRMED: reservations {db['paid_not_confirmed']}")
    rows = [
        row("class opening: seats confirmed (database)", f"exactly {places}", str(db["seats_confirmed"]),
            db["seats_confirmed"] == places and db["holds_left"] == 0),
        row("class opening: payments captured per confirmed seat (database)", "exactly 1 each",
            f"{db['confirmed_paid_once']}/{db['reservations_confirmed']} once; twice {len(db['paid_twice'])}, "
            f"unpaid {len(db['confirmed_unpaid'])}, paid unconfirmed {len(db['paid_not_confirmed'])}", paid_ok),
        row("class opening: members answered", f"{members}/{members}", f"{seen['answered']}/{members}",
            seen["answered"] == members),
        row("class opening: errors (5xx, timeouts, unexpected answers)", "0",
            f"{seen['errors']} ({seen['server_errors']} 5xx or timeouts)", seen["errors"] == 0),
        row("class opening: p95 of each member's first answer", f"< {FIRST_ANSWER_GOAL_MS / 1000:g} s",
            f"{seen['first_answer_p95_ms'] / 1000:.2f} s (p50 {seen['first_answer_p50_ms'] / 1000:.2f}, max "
            f"{seen['first_answer_max_ms'] / 1000:.2f})", seen["first_answer_p95_ms"] < FIRST_ANSWER_GOAL_MS),
        row("class opening: every other member told full, offered the waiting list",
            f"{others}/{others}",
            f"told full {seen['told_full']}/{others}, waiting list offered in that answer "
            f"{seen.get('waitlist_in_answer', 0)}, class read full {offered['reads_full']}, "
            f"joined the waiting list {offered['joined']}",
            seen["told_full"] == others == seen.get("waitlist_in_answer", 0) == offered["reads_full"]
            == offered["joined"]),
    ]  # fmt: skip
    return rows, alarms


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


def queries_row(workdir: Path) -> tuple[list[dict], dict]:
    test = "studio/tests/test_bench_queries.py"
    report = workdir / "queries.xml"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DJANGO_SETTINGS_MODULE"] = "studio.settings.test"
    out = subprocess.run(
        [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", test, f"--junitxml={report}"],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
    )
    cases = list(ET.parse(report).getroot().iter("testcase")) if report.exists() else []
    failed = [c for c in cases if c.find("failure") is not None or c.find("error") is not None]
    pages = [c for c in cases if c.get("name", "").startswith("test_every_measured_page")]
    pages_equal = [c for c in pages if c not in failed]
    passed = out.returncode == 0 and bool(pages) and not failed
    text = f"{len(pages_equal)}/{len(pages)} pages equal; {len(cases) - len(failed)}/{len(cases)} tests pass"
    details = {"returncode": out.returncode, "tail": out.stdout[-1500:], "failed": [c.get("name") for c in failed]}
    return [row("queries per page, small vs large studio", "equal", text, passed)], details


def lighthouse_rows(base: str, setup: dict) -> tuple[list[dict], dict]:
    accounts = {"member": setup["member"], "staff": setup["staff"], "course": setup["course"]}
    pages, cookies = lighthouse.pages_and_cookies(accounts, logged_in=True)
    if QUICK:
        pages = ["/", "/courses/calendar", "/my-courses", "/admin/dashboard"]
    print(f"  Lighthouse: {len(pages)} pages × {LIGHTHOUSE_RUNS} run(s)…", flush=True)
    scores = lighthouse.audit(base, pages, LIGHTHOUSE_RUNS, ["performance"], cookies)
    per_page = lighthouse.medians(scores, ["performance"])
    n = len(per_page)
    worst_perf = min(per_page.items(), key=lambda kv: kv[1]["performance"])
    worst_lcp = max(per_page.items(), key=lambda kv: kv[1]["lcp_ms"])
    worst_cls = max(per_page.items(), key=lambda kv: kv[1]["cls"])
    return [
        row("Lighthouse mobile: performance", f"≥ {lighthouse.THRESHOLDS['performance']} on every page",
            f"worst {worst_perf[1]['performance']:.0f} ({worst_perf[0]}); {n} pages",
            worst_perf[1]["performance"] >= lighthouse.THRESHOLDS["performance"]),
        row("Lighthouse mobile: Largest Contentful Paint", f"< {lighthouse.LCP_LIMIT_MS / 1000:.1f} s on every page",
            f"worst {worst_lcp[1]['lcp_ms'] / 1000:.2f} s ({worst_lcp[0]})",
            worst_lcp[1]["lcp_ms"] < lighthouse.LCP_LIMIT_MS),
        row("Lighthouse mobile: Cumulative Layout Shift", f"< {lighthouse.CLS_LIMIT} on every page",
            f"worst {worst_cls[1]['cls']:.3f} ({worst_cls[0]})", worst_cls[1]["cls"] < lighthouse.CLS_LIMIT),
    ], {"pages": per_page, "runs": LIGHTHOUSE_RUNS}  # fmt: skip


ROW_TITLES = {
    "1": ["class opening: 300 members, one 12-place class"],
    "2": ["logged-in pages and APIs"],
    "3": ["public pages, anonymous"],
    "4": ["queries per page, small vs large studio"],
    "5": ["Lighthouse mobile"],
}


def attempt(number: str, rows: dict, details: dict, measure) -> None:
    """Run one row; a row that crashes is a FAIL with its traceback, and the others still run."""
    if number not in ROWS:
        rows[number] = [row(ROW_TITLES[number][0], "", "not run (BENCH_ROWS)", None)]
        return
    try:
        rows[number], details[number] = measure()
    except Exception as error:  # noqa: BLE001 - reported in the table and the run file
        rows[number] = [row(ROW_TITLES[number][0], "", f"crashed: {error.__class__.__name__}: {error}"[:300], False)]
        details[number] = {"traceback": traceback.format_exc()}
        print(traceback.format_exc(), file=sys.stderr)


# --- the report -----------------------------------------------------------------------------------------------------


def table(rows: list[dict]) -> str:
    lines = ["| figure | goal | measured | verdict |", "|---|---|---|---|"]
    lines += [f"| {r['figure']} | {r['goal']} | {r['measured']} | {r['verdict']} |" for r in rows]
    return "\n".join(lines)


def detail_sections(details: dict) -> str:
    out = []
    if "1" in details and "clients" in details["1"]:
        c = details["1"]["clients"]
        out.append("### Class opening, step by step (ms, as the clients saw them)\n")
        out.append("| step | answers | p50 | p95 |\n|---|---:|---:|---:|")
        out += [f"| {s} | {v['n']} | {v['p50']} | {v['p95']} |" for s, v in c["steps_ms"].items()]
        if c["error_samples"]:
            samples = "; ".join(json.dumps(e, ensure_ascii=False) for e in c["error_samples"])
            out.append(f"\nErrors (first five): {samples}")
    if "2" in details and "pages" in details["2"]:
        out.append(f"\n### Logged-in pages and APIs ({CONNECTIONS} connections, {LOGGED_IN_DURATION} each)\n")
        out.append("Server time: gunicorn's own time for each answer (its access log); clients: as wrk saw them, with")
        out.append(f"the wait for a free worker ({WORKERS} workers of gunicorn.conf.py's threads).\n")
        out.append("| who | page | req/s | server p50 ms | server p95 ms | clients p50 ms | clients p95 ms | errors |")
        out.append("|---|---|---:|---:|---:|---:|---:|---:|")
        for r in sorted(details["2"]["pages"], key=lambda r: -(r.get("server_p95_ms") or 1e9)):
            if r.get("server_p95_ms") is None:
                out.append(f"| {r['who']} | {r['path']} | | | | | | {r.get('note', '')} |")
            else:
                out.append(
                    f"| {r['who']} | {r['path']} | {r['rps']:.0f} | {r['server_p50_ms']:.0f} | "
                    f"{r['server_p95_ms']:.0f} | {r['p50_ms']:.1f} | {r['p95_ms']:.1f} | {r['errors']} |"
                )
    if "3" in details and "pages" in details["3"]:
        out.append(
            f"\n### Public pages ({CONNECTIONS} connections; the median of {PUBLIC_PAIRS} ratios, each of "
            f"{PAIR_DURATION} of the static file then the page)\n"
        )
        out.append("| page | bytes | req/s | static req/s | ratio | p95 ms | errors |")
        out.append("|---|---:|---:|---:|---:|---:|---:|")
        for r in details["3"]["pages"]:
            if r.get("ratio") is None:
                out.append(f"| {r['path']} | | | | | | {r.get('note', '')} |")
            else:
                out.append(
                    f"| {r['path']} | {r['bytes']} | {r['rps']:.0f} | {r['static_rps']:.0f} | {r['ratio']:.2f} | "
                    f"{r['p95_ms']:.1f} | {r['errors'] + r['static_errors']} |"
                )
    if "5" in details and "pages" in details["5"]:
        out.append(f"\n### Lighthouse mobile (median of {details['5']['runs']})\n")
        out.append("| page | performance | LCP s | CLS |\n|---|---:|---:|---:|")
        for page, r in details["5"]["pages"].items():
            out.append(f"| {page} | {r['performance']:.0f} | {r['lcp_ms'] / 1000:.2f} | {r['cls']:.3f} |")
    return "\n".join(out)


def main() -> int:
    if not shutil.which("wrk"):
        print("wrk is missing: `apt-get install wrk` (make bench does it).", file=sys.stderr)
        return 1
    started_at, started = datetime.now(), time.time()
    load_before = os.getloadavg()
    label = label_of(PROJECT)
    workdir = Path(tempfile.mkdtemp(prefix="studio-bench-"))
    lua = workdir / "report.lua"
    lua.write_text(LUA)
    env = production_env(workdir)
    rows: dict[str, list[dict]] = {}
    details: dict[str, dict] = {}
    ceiling_dir = PROJECT / "staticfiles" / "bench"
    kind = "quick" if QUICK else "full"
    print(f"make bench: {PROJECT} ({label}), {kind} run, {started_at:%Y-%m-%d %H:%M}", flush=True)
    try:
        fresh_database(env)
        if PROJECT != ROOT:
            print("  building the islands of the checkout measured…", flush=True)
            build_other_checkout()
        print("  seeding a large studio (seed_bench)…", flush=True)
        prepare(env, "seed_bench", *SEED_ARGS, root=PROJECT)
        setup_args = {
            "members": RUSH_MEMBERS,
            "places": RUSH_PLACES,
            "warm_members": 4,
            "public_pages": public_pages({"course": "{course}"}),
        }
        setup = shell(env, "setup_data.py", BENCH_SETUP=json.dumps(setup_args))
        vacuum(env)
        # Queries per page runs on its own SQLite test database, before the server starts (not beside a measure).
        attempt("4", rows, details, lambda: queries_row(workdir))
        with site(env, workdir, root=PROJECT, workers=WORKERS) as (base, _processes):
            print(f"  serving {base}: gunicorn ({WORKERS} workers), task worker, scheduler", flush=True)
            attempt("3", rows, details, lambda: public_row(base, lua, setup))
            attempt("2", rows, details, lambda: logged_in_row(base, lua, setup, workdir / "web.log"))
            attempt("1", rows, details, lambda: rush_rows(base, env, setup))
            attempt("5", rows, details, lambda: lighthouse_rows(base, setup))
    except Exception as error:  # noqa: BLE001 - the setup failed: reported as such
        traceback.print_exc()
        rows.setdefault("setup", [row("bench setup", "", f"crashed: {error.__class__.__name__}: {error}"[:300], False)])
    finally:
        shutil.rmtree(ceiling_dir, ignore_errors=True)

    load_after = os.getloadavg()
    ordered = [r for key in ("setup", "1", "2", "3", "4", "5") for r in rows.get(key, [])]
    failed = [r for r in ordered if r["verdict"] == "FAIL"]
    header = (
        f"## make bench, {started_at:%Y-%m-%d %H:%M} — {label}\n\n"
        f"Checkout {PROJECT} ({label}); PostgreSQL + Redis; gunicorn ({WORKERS} workers, gunicorn.conf.py's threads), "
        f"task worker and scheduler; {'quick smoke run (small studio, short measures)' if QUICK else 'seed_bench'}. "
        f"Load average (1/5/15 min) {load_before[0]:.2f}/{load_before[1]:.2f}/{load_before[2]:.2f} before, "
        f"{load_after[0]:.2f}/{load_after[1]:.2f}/{load_after[2]:.2f} after, on {os.cpu_count()} cores; "
        f"{round(time.time() - started)} s."
    )
    alarms = details.get("1", {}).get("alarms", [])
    report = header + "\n\n" + table(ordered) + "\n"
    if alarms:
        report += "\n" + "\n".join(f"**{a}**" for a in alarms) + "\n"
    print("\n" + report)
    for alarm in alarms:
        print(f"RELIABILITY FAILURE: {alarm}", file=sys.stderr)

    runs = ROOT / "bench" / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    stem = f"{started_at:%Y-%m-%d-%H%M}-{label}"
    summary = {
        "date": started_at.isoformat(timespec="seconds"),
        "label": label,
        "project": str(PROJECT),
        "quick": QUICK,
        "workers": WORKERS,
        "cpus": os.cpu_count(),
        "load_average_before": load_before,
        "load_average_after": load_after,
        "elapsed_s": round(time.time() - started),
        "rows": ordered,
        "details": details,
    }
    (runs / f"{stem}.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False))
    (runs / f"{stem}.md").write_text(
        report + f"\nRaw figures: [{stem}.json]({stem}.json)\n\n" + detail_sections(details) + "\n"
    )
    print(f"Written to bench/runs/{stem}.md and .json")
    shutil.rmtree(workdir, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
