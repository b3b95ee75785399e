"""The owner's view under `make bench`: GET /api/dashboard/stats for a week and for the bench's full year,
one connection at a time (one owner opening the page), against the goal of 300 ms; and the queries each answer ran,
counted on the bench's own database (the same number for a week and a year)."""

import subprocess
from datetime import date, timedelta

GOAL_MS = 300

QUERIES_CODE = """
import json
from datetime import date
from django.db import connection
from django.test.utils import CaptureQueriesContext
from insights.period import Period
from insights.selectors import class_stats, member_stats, money_stats, upcoming_stats
counts = {}
for name, (first, last) in %(periods)r.items():
    period = Period(first_day=date.fromisoformat(first), last_day=date.fromisoformat(last))
    with CaptureQueriesContext(connection) as context:
        money_stats(period=period); class_stats(period=period); member_stats(period=period); upcoming_stats()
    counts[name] = len(context.captured_queries)
print(json.dumps(counts))
"""


def periods(today: date | None = None) -> dict[str, tuple[str, str]]:
    """The week so far and the year up to today (the bench's sessions run half a year either side of its seeding)."""
    today = today or date.today()
    monday = today - timedelta(days=today.weekday())
    return {
        "week": (monday.isoformat(), today.isoformat()),
        "year": ((today - timedelta(days=364)).isoformat(), today.isoformat()),
    }


def targets(staff_headers: list[str]) -> list[tuple[str, str, list[str]]]:
    return [
        (f"staff stats API: {name}", f"/api/dashboard/stats?from={first}&to={last}", staff_headers)
        for name, (first, last) in periods().items()
    ]


def measure(base: str, staff_headers: list[str], lua, wrk, duration: str) -> list[dict]:
    """p50/p95 at one connection for each period; `wrk` is run.py's runner. The warm-up reaches every gunicorn worker
    (8 connections, 3 s), so that no measured request pays a worker's first request (imports, connection)."""
    rows = []
    for name, path, headers in targets(staff_headers):
        wrk(base + path, 8, lua, headers, duration="3s")
        r = wrk(base + path, 1, lua, headers, duration=duration)
        r.update(name=name, path=path, connections=1, goal_ms=GOAL_MS, met=r["p95_ms"] < GOAL_MS and not r["errors"])
        rows.append(r)
        print(f"  {name} @1: p50 {r['p50_ms']:.1f} ms, p95 {r['p95_ms']:.1f} ms ({r['rps']:.1f} req/s)", flush=True)
    return rows


def query_counts(python: str, root, env) -> dict:
    out = subprocess.run(
        [python, "manage.py", "shell", "-c", QUERIES_CODE % {"periods": periods()}],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    import json

    return json.loads(out.stdout.strip().splitlines()[-1])


def print_table(rows: list[dict], queries: dict) -> None:
    if not rows:
        return
    print("\n| owner's view | conns | p50 ms | p95 ms | req/s | goal | met | non-2xx | queries |")
    print("|---|---:|---:|---:|---:|---:|---|---:|---:|")
    for r in rows:
        period = r["name"].rsplit(": ", 1)[-1]
        print(
            f"| {r['name']} | 1 | {r['p50_ms']:.1f} | {r['p95_ms']:.1f} | {r['rps']:.1f} | p95 < {r['goal_ms']} ms | "
            f"{'yes' if r['met'] else 'NO'} | {r['errors']} | {queries.get(period, '?')} |"
        )
