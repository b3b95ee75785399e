"""`make bench`: the site as members, staff and visitors use it, on SQLite and on PostgreSQL with Redis.

For each database (BENCH_DATABASES, default "sqlite,postgres"; PostgreSQL is skipped, saying so, when it is not
reachable): seed a large studio into a fresh database, serve it with gunicorn and the production settings on
127.0.0.1, then
- measure each page and API with wrk (BENCH_CONNECTIONS, default 10) against a static file of the home page's size
  served by the same gunicorn through whitenoise (the ceiling, measured again right before each page, so that each
  ratio compares two measures taken under the same load);
- run the booking flow (hold → create order → approve with the simulator → capture) with 10 and 50 members at once
  (BENCH_FLOW_SECONDS each), then check that the database agrees with what the clients saw;
- time one login (and four at once);
- time the owner's view (GET /api/dashboard/stats, a week and the year) at one connection (bench/stats_bench.py).
Prints the tables and writes bench/results/bench-<time>.json.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import stats_bench  # noqa: E402
from flow import booking_rush, login_times  # noqa: E402
from server import PY, ROOT, gunicorn, prepare, production_env  # noqa: E402

# BENCH_QUICK=1: shorter measures (2 s a page, 5 s a rush) for a run in about half the time; same rows.
QUICK = os.environ.get("BENCH_QUICK", "") not in ("", "0")
DURATION = os.environ.get("BENCH_DURATION", "2s" if QUICK else "5s")
WORKERS = os.environ.get("BENCH_WORKERS", "4")
CONNECTIONS = [int(c) for c in os.environ.get("BENCH_CONNECTIONS", "10").split(",")]
DATABASES = os.environ.get("BENCH_DATABASES", "sqlite,postgres").split(",")
FLOW_SECONDS = float(os.environ.get("BENCH_FLOW_SECONDS", "5" if QUICK else "10"))
FLOW_MEMBERS = [int(c) for c in os.environ.get("BENCH_FLOW_MEMBERS", "10,50").split(",") if c]
PG_ADMIN_URL = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432")
PG_DATABASE = os.environ.get("BENCH_PG_DB", "studio_bench")  # another name keeps two runs on one machine apart
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/11")
ONLY = os.environ.get("BENCH_ONLY", "")  # a substring of the endpoint names to measure (development)
LUA = """
done = function(summary, latency, requests)
  io.write(string.format("BENCH p50=%d p95=%d\\n", latency:percentile(50), latency:percentile(95)))
end
"""

# Made by the bench's seed (project/management/commands/seed_bench.py).
STAFF_EMAIL = "bench-admin@example.fr"
MEMBER_EMAIL = "bench-member-0@example.fr"
MEMBER_PASSWORD = "bench-mot-de-passe-2026"

SESSIONS_CODE = """
import json, secrets
from importlib import import_module
from django.conf import settings
from django.contrib.auth import SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY
from accounts.models import User
from courses.models import CourseSession
from django.utils import timezone
store = import_module(settings.SESSION_ENGINE).SessionStore
def cookie(u):
    s = store(); s[SESSION_KEY] = str(u.pk)
    s[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    s[HASH_SESSION_KEY] = u.get_session_auth_hash(); s.save(); return s.session_key
staff = User.objects.get(email=%(staff)r)
member = User.objects.get(email=%(member)r)
rush = list(User.objects.filter(email__startswith='bench-member-').exclude(pk=member.pk).order_by('pk')[:%(rush)d])
sessions = list(CourseSession.objects.filter(start__gt=timezone.now() + timezone.timedelta(days=2), details='bench')
                .order_by('start').values_list('pk', flat=True)[:%(sessions)d])
print(json.dumps({
    'staff': cookie(staff), 'member': cookie(member), 'member_id': member.pk,
    'rush': [{'id': u.pk, 'cookie': cookie(u), 'email': u.email, 'first_name': u.first_name,
              'last_name': u.last_name} for u in rush],
    'sessions': sessions,
}))
"""

CHECK_CODE = """
import json, sys
from django.db.models import Sum, Q, Count
from django.utils import timezone
from bookings.models import Reservation, ReservationStatus
from courses.models import CourseSession
from payments.models import PaymentOrder, PaymentStatus
seen = json.load(open(%(seen)r))
now = timezone.now()
over = []
for s in CourseSession.objects.filter(pk__in=seen['sessions']).annotate(
        taken=Sum('reservations__participants', filter=Q(reservations__status=ReservationStatus.CONFIRMED)
                  | Q(reservations__status=ReservationStatus.HELD, reservations__hold_expires_at__gt=now))):
    if (s.taken or 0) > s.max_attendees:
        over.append([s.pk, s.taken, s.max_attendees])
orders = {o.order_id: o for o in PaymentOrder.objects.filter(order_id__in=[c[1] for c in seen['completed']])}
bad = []
for reservation_id, order_id in seen['completed']:
    o = orders.get(order_id)
    if o is None or o.status != PaymentStatus.COMPLETED or o.reservation_id != reservation_id or not o.capture_id:
        bad.append([reservation_id, order_id, 'order not completed'])
confirmed = set(Reservation.objects.filter(pk__in=[c[0] for c in seen['completed']],
                                           status=ReservationStatus.CONFIRMED).values_list('pk', flat=True))
bad += [[r, o, 'reservation not confirmed'] for r, o in seen['completed'] if r not in confirmed]
twice = list(PaymentOrder.objects.filter(reservation_id__in=[c[0] for c in seen['completed']],
    status=PaymentStatus.COMPLETED).values('reservation_id').annotate(n=Count('id')).filter(n__gt=1)
    .values_list('reservation_id', flat=True))
print(json.dumps({'sessions_over_capacity': over, 'payments_not_confirmed': bad,
                  'reservations_paid_twice': twice, 'completed_checked': len(seen['completed'])}))
"""


def shell(env, code: str) -> dict:
    out = subprocess.run([PY, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"manage.py shell failed ({out.returncode}):\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def wrk(url: str, connections: int, lua: Path, headers: list[str], duration: str = DURATION) -> dict:
    cmd = ["wrk", f"-t{min(connections, 2)}", f"-c{connections}", f"-d{duration}", "-s", str(lua), "--timeout", "10s"]
    for h in headers:
        cmd += ["-H", h]
    out = subprocess.run([*cmd, url], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p = re.search(r"BENCH p50=(\d+) p95=(\d+)", out)
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return {
        "rps": rps,
        "p50_ms": int(p.group(1)) / 1000,
        "p95_ms": int(p.group(2)) / 1000,
        "errors": int(non2xx.group(1)) if non2xx else 0,
    }


def targets(cookies: dict) -> list[tuple[str, str, str, list[str]]]:
    """(group, name, path, headers) for every measured page; the group sets its goal."""
    today = datetime.now().date()
    monday = today - timedelta(days=today.weekday())
    week = f"start={monday.isoformat()}&end={(monday + timedelta(days=7)).isoformat()}"
    month_start = today.replace(day=1)
    month_end = month_start + timedelta(days=42)
    month = f"start={(month_start - timedelta(days=7)).isoformat()}&end={month_end.isoformat()}"
    # A browser sends the CSRF cookie it got with its first page: without it every page would mint a new one.
    csrf = "csrftoken=benchbenchbenchbenchbenchbench12"
    member = [f"Cookie: sessionid={cookies['member']}; {csrf}"]
    staff = [f"Cookie: sessionid={cookies['staff']}; {csrf}"]
    return [
        ("ceiling", "ceiling: static file (home size)", "/static/bench/ceiling.html", []),
        ("public", "home /", "/", []),
        ("public", "/tarifs", "/tarifs", []),
        ("public", "/courses/calendar", "/courses/calendar", []),
        ("public", "/gallery", "/gallery", []),
        ("public", "feed: one week", f"/api/course-sessions?{week}", []),
        ("public", "feed: one month", f"/api/course-sessions?{month}", []),
        ("member", "member feed: one week", f"/api/course-sessions?{week}", member),
        ("member", "member feed: one month", f"/api/course-sessions?{month}", member),
        ("member", "member /my-courses", "/my-courses", member),
        ("member", "member /user/profile", "/user/profile", member),
        ("member", "member /user/messages", "/user/messages", member),
        (
            "member",
            "member feedback history API (page 1)",
            f"/api/course-feedback/user/{cookies['member_id']}",
            member,
        ),
        ("staff", "staff /admin/dashboard", "/admin/dashboard", staff),
        ("staff", "staff users API", "/api/users?page=1", staff),
        ("staff", "staff orders API", "/api/paypal/orders?page=1", staff),
        ("staff", "staff passes API", "/api/passes?page=1", staff),
        ("staff", "staff session list (view=staff)", "/api/course-sessions?view=staff&page=1", staff),
    ]


GOALS = {"public": 0.5, "member": 0.25, "staff": 0.2}


def fresh_postgres(name: str) -> str | None:
    try:
        import psycopg
    except ImportError:
        return None
    try:
        with psycopg.connect(f"{PG_ADMIN_URL}/postgres", autocommit=True, connect_timeout=3) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as error:
        print(f"PostgreSQL is not reachable ({error}); its run is skipped.", file=sys.stderr)
        return None
    return f"{PG_ADMIN_URL}/{name}"


def flush_redis(url: str) -> bool:
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=3).flushdb()
    except Exception as error:  # noqa: BLE001 - any failure means no Redis for the run
        print(f"Redis is not reachable at {url} ({error}); the PostgreSQL run is skipped.", file=sys.stderr)
        return False
    return True


def run_database(kind: str, lua: Path) -> dict | None:
    workdir = Path(tempfile.mkdtemp(prefix=f"studio-bench-{kind}-"))
    env = production_env(workdir)
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    if kind == "postgres":
        url = fresh_postgres(PG_DATABASE)
        if url is None or not flush_redis(REDIS_URL):
            return None
        env["DATABASE_URL"] = url
        env["REDIS_URL"] = REDIS_URL
        label = "PostgreSQL + Redis"
    else:
        env["DATABASE_URL"] = f"sqlite:///{workdir / 'site.sqlite3'}"
        label = "SQLite + local-memory cache"
    env["GUNICORN_MAX_REQUESTS"] = "0"  # no worker recycling (and cold caches) in the middle of a measure
    print(f"\n== {label}: seeding ==", flush=True)
    prepare(env, "seed_bench")
    if kind == "postgres":
        # The rows just bulk-loaded vacuumed and their planner statistics taken, as a database in service has them
        # (autovacuum): otherwise autovacuum starts on the new tables in the middle of the measures, and counts read
        # every row instead of the index alone (no visibility map yet).
        import psycopg

        with psycopg.connect(env["DATABASE_URL"], autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")
    cookies = shell(env, SESSIONS_CODE % {"staff": STAFF_EMAIL, "member": MEMBER_EMAIL, "rush": 300, "sessions": 150})
    results, flows, login, stats, stats_queries = [], [], {}, [], {}
    ceiling_dir = ROOT / "staticfiles" / "bench"
    try:
        with gunicorn(env, workdir, "1") as (base, _server):
            home = urllib.request.urlopen(base + "/", timeout=30).read()
        ceiling_dir.mkdir(parents=True, exist_ok=True)
        (ceiling_dir / "ceiling.html").write_bytes(home)
        with gunicorn(env, workdir, WORKERS) as (base, _server):
            ceiling_path = targets(cookies)[0][2]
            for connections in CONNECTIONS:
                for group, name, path, headers in targets(cookies):
                    if ONLY and group != "ceiling" and ONLY not in name:
                        continue
                    # Warm every worker (connections, caches) first: the measure is of the steady state.
                    wrk(base + path, 8, lua, headers, duration="1s")
                    r = wrk(base + path, connections, lua, headers)
                    # The ceiling is measured again right before each page: on a machine shared with other work the
                    # load drifts, and each ratio compares two measures taken under the same load.
                    ceiling = r["rps"] if group == "ceiling" else wrk(base + ceiling_path, connections, lua, [])["rps"]
                    r.update(
                        group=group,
                        name=name,
                        path=path,
                        connections=connections,
                        ceiling_rps=ceiling,
                        ratio=round(r["rps"] / ceiling, 3),
                        goal=GOALS.get(group),
                    )
                    results.append(r)
                    print(f"  {name} @{connections}: {r['rps']:.0f} req/s ({r['ratio']:.2f})", flush=True)
            if not ONLY or ONLY in "staff stats API":
                # The owner's view: one owner at a time, a week and the whole year.
                # 15 s (BENCH_STATS_DURATION): at a few answers a second, enough of them for a p95.
                duration = os.environ.get("BENCH_STATS_DURATION", "15s")
                stats = stats_bench.measure(base, targets(cookies)[-1][3], lua, wrk, duration)
                stats_queries = stats_bench.query_counts(PY, ROOT, env)
            for members in FLOW_MEMBERS:
                seen_path = workdir / f"seen-{members}.json"
                flow = booking_rush(base, cookies, members=members, seconds=FLOW_SECONDS, seen_path=seen_path)
                flow["check"] = shell(env, CHECK_CODE % {"seen": str(seen_path)})
                flows.append(flow)
                print(
                    f"  booking flow, {members} members: {flow['completed_per_s']:.1f} completed bookings/s, "
                    f"check {flow['check']}",
                    flush=True,
                )
            login = login_times(base, MEMBER_EMAIL, MEMBER_PASSWORD)
            print(f"  login: {login}", flush=True)
    finally:
        shutil.rmtree(ceiling_dir, ignore_errors=True)
        shutil.rmtree(workdir, ignore_errors=True)
    return {
        "database": kind,
        "label": label,
        "results": results,
        "booking_flow": flows,
        "login": login,
        "stats_api": stats,
        "stats_queries": stats_queries,
    }


def print_tables(run: dict) -> None:
    print(f"\n### {run['label']}\n")
    print("| endpoint | conns | req/s | p50 ms | p95 ms | static ceiling req/s | ratio | goal | non-2xx |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in run["results"]:
        goal = f"≥ {r['goal']}" if r["goal"] else ""
        print(
            f"| {r['name']} | {r['connections']} | {r['rps']:.0f} | {r['p50_ms']:.2f} | {r['p95_ms']:.2f} | "
            f"{r['ceiling_rps']:.0f} | {r['ratio']:.2f} | {goal} | {r['errors']} |"
        )
    stats_bench.print_table(run.get("stats_api", []), run.get("stats_queries", {}))
    if run["booking_flow"]:
        steps = list(run["booking_flow"][0]["steps"])
        print(
            "\n| booking flow | completed bookings/s | "
            + " | ".join(f"{s} p50 / p95 ms" for s in steps)
            + " | refused (full) | errors | over capacity | payments not confirmed |"
        )
        print("|---|---:|" + "---:|" * len(steps) + "---:|---:|---:|---:|")
        for f in run["booking_flow"]:
            cells = " | ".join(f"{f['steps'][s]['p50_ms']:.0f} / {f['steps'][s]['p95_ms']:.0f}" for s in steps)
            check = f["check"]
            print(
                f"| {f['members']} members, {f['seconds']:.0f} s | {f['completed_per_s']:.1f} | {cells} | "
                f"{f['refused']} | {f['errors']} | {len(check['sessions_over_capacity'])} | "
                f"{len(check['payments_not_confirmed']) + len(check['reservations_paid_twice'])} |"
            )
    if run["login"]:
        lg = run["login"]
        print(
            f"\nLogin: median {lg['one_ms']:.0f} ms alone (of {lg['runs']}), {lg['four_at_once_max_ms']:.0f} ms "
            "for the slowest of four at once."
        )


def main() -> int:
    if not shutil.which("wrk"):
        print("wrk is missing: `apt-get install wrk` (make bench does it).", file=sys.stderr)
        return 1
    lua = Path(tempfile.mkdtemp(prefix="studio-bench-lua-")) / "report.lua"
    lua.write_text(LUA)
    started = time.time()
    load_before = os.getloadavg()
    runs = [run for kind in DATABASES if (run := run_database(kind.strip(), lua)) is not None]
    for run in runs:
        print_tables(run)
    out_dir = ROOT / "bench" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / f"bench-{datetime.now():%Y%m%d-%H%M%S}.json"
    summary = {
        "date": datetime.now().isoformat(timespec="seconds"),
        "duration": DURATION,
        "quick": QUICK,
        "workers": WORKERS,
        "flow_seconds": FLOW_SECONDS,
        "cpus": os.cpu_count(),
        "load_average_before": load_before,
        "load_average_after": os.getloadavg(),
        "elapsed_s": round(time.time() - started),
        "runs": runs,
    }
    out.write_text(json.dumps(summary, indent=2))
    print(f"\nLoad average before/after: {load_before[0]:.2f} / {summary['load_average_after'][0]:.2f}")
    print(f"Written to {out.relative_to(ROOT)}")
    failures = [
        f"{run['database']}: {f['members']} members: {f['check']}"
        for run in runs
        for f in run["booking_flow"]
        if f["check"]["sessions_over_capacity"]
        or f["check"]["payments_not_confirmed"]
        or f["check"]["reservations_paid_twice"]
    ]
    for failure in failures:
        print(f"RELIABILITY FAILURE: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
