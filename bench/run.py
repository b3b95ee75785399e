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
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lighthouse  # noqa: E402
from config import (  # noqa: E402
    LIGHTHOUSE_RUNS,
    LUA,
    OPENINGS,
    PG_ADMIN_URL,
    PG_DATABASE,
    PROJECT,
    QUICK,
    REDIS_URL,
    ROWS,
    RUSH_MEMBERS,
    RUSH_PLACES,
    SEED_ARGS,
    WORKERS,
)
from opening import rush_rows, settle  # noqa: E402
from pages import logged_in_row, public_pages, public_row  # noqa: E402
from report import detail_sections, row, table  # noqa: E402
from server import PY, ROOT, prepare, production_env, shell, site  # noqa: E402


def label_of(project: Path) -> str:
    if os.environ.get("BENCH_LABEL"):
        return re.sub(r"[^A-Za-z0-9_.-]+", "-", os.environ["BENCH_LABEL"])
    git = ["git", "-C", str(project)]
    commit = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run([*git, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True)
    return (commit or project.name) + ("-dirty" if dirty.stdout.strip() else "") + ("-quick" if QUICK else "")


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


def lighthouse_rows(base: str, setup: dict, env: dict, workdir: Path) -> tuple[list[dict], dict]:
    # The pages are measured on a settled site, as each class opening is: not beside the task worker still sending
    # the last opening's receipts and waiting-list e-mails.
    settle(env, workdir, timeout_s=300)
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
            "openings": OPENINGS,
            "warm_members": 4,
            "public_pages": public_pages({"course": "{course}"}),
        }
        setup = shell(env, "setup_data.py", root=PROJECT, BENCH_SETUP=json.dumps(setup_args))
        vacuum(env)
        # Queries per page runs on its own SQLite test database, before the server starts (not beside a measure).
        attempt("4", rows, details, lambda: queries_row(workdir))
        with site(env, workdir, root=PROJECT, workers=WORKERS) as (base, _processes):
            print(f"  serving {base}: gunicorn ({WORKERS} workers), task worker, scheduler", flush=True)
            attempt("3", rows, details, lambda: public_row(base, lua, setup))
            attempt("2", rows, details, lambda: logged_in_row(base, lua, setup, workdir / "web.log"))
            attempt("1", rows, details, lambda: rush_rows(base, env, setup, workdir))
            attempt("5", rows, details, lambda: lighthouse_rows(base, setup, env, workdir))
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
    if os.environ.get("BENCH_KEEP", "") in ("", "0"):
        shutil.rmtree(workdir, ignore_errors=True)
    else:  # the processes' logs (web.log is gunicorn's access log, with each request's time in the server)
        print(f"Logs kept in {workdir}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
