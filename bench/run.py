"""`make bench`: seed a large studio, serve it with gunicorn and the production settings on 127.0.0.1, and measure
each page with wrk at 1 and 10 connections against a static file of the home page's size served by whitenoise
(the ceiling). Prints requests/s, p50 and p95 and the ratio to the ceiling; writes bench/results/<timestamp>.json.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import PY, ROOT, gunicorn, prepare, production_env  # noqa: E402

DURATION = os.environ.get("BENCH_DURATION", "5s")
WORKERS = os.environ.get("BENCH_WORKERS", "4")
LUA = """
done = function(summary, latency, requests)
  io.write(string.format("BENCH p50=%d p95=%d\\n", latency:percentile(50), latency:percentile(95)))
end
"""


def staff_session_cookie(env) -> str:
    code = (
        "from django.contrib.sessions.backends.db import SessionStore;"
        "from django.contrib.auth import SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY;"
        "from accounts.models import User;"
        "u = User.objects.get(email='bench-admin@example.fr');"
        "s = SessionStore(); s[SESSION_KEY] = str(u.pk);"
        "s[BACKEND_SESSION_KEY] = 'django.contrib.auth.backends.ModelBackend';"
        "s[HASH_SESSION_KEY] = u.get_session_auth_hash(); s.save(); print(s.session_key)"
    )
    out = subprocess.run(
        [PY, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )
    return out.stdout.strip().splitlines()[-1]


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


def targets(cookie: str) -> list[tuple[str, str, list[str]]]:
    today = datetime.now().date()
    monday = today - timedelta(days=today.weekday())
    week = f"start={monday.isoformat()}&end={(monday + timedelta(days=7)).isoformat()}"
    month_start = today.replace(day=1)
    month_end = month_start + timedelta(days=42)
    month = f"start={(month_start - timedelta(days=7)).isoformat()}&end={month_end.isoformat()}"
    return [
        ("ceiling: static file (home size)", "/static/bench/ceiling.html", []),
        ("home /", "/", []),
        ("/tarifs", "/tarifs", []),
        ("/courses/calendar", "/courses/calendar", []),
        ("feed: one week", f"/api/course-sessions?{week}", []),
        ("feed: one month", f"/api/course-sessions?{month}", []),
        ("/gallery", "/gallery", []),
        ("/api/course-sessions (staff)", "/api/course-sessions?view=staff&page=1", [f"Cookie: sessionid={cookie}"]),
    ]


def main() -> int:
    if not shutil.which("wrk"):
        print("wrk is missing: `apt-get install wrk` (make bench does it).", file=sys.stderr)
        return 1
    workdir = Path(tempfile.mkdtemp(prefix="studio-bench-"))
    env = production_env(workdir)
    env["GUNICORN_MAX_REQUESTS"] = "0"  # no worker recycling (and cold caches) in the middle of a measure
    print(f"Database: {env['DATABASE_URL']}")
    prepare(env, "seed_bench")
    cookie = staff_session_cookie(env)
    lua = workdir / "report.lua"
    lua.write_text(LUA)
    results = []
    ceiling_dir = ROOT / "staticfiles" / "bench"
    try:
        # The ceiling: a static file the size of the home page, through the same gunicorn and whitenoise.
        with gunicorn(env, workdir, "1") as (base, _server):
            home = urllib.request.urlopen(base + "/", timeout=30).read()
        ceiling_dir.mkdir(parents=True, exist_ok=True)
        (ceiling_dir / "ceiling.html").write_bytes(home)
        with gunicorn(env, workdir, WORKERS) as (base, _server):
            for connections in (1, 10):
                ceiling = None
                for name, path, headers in targets(cookie):
                    # Warm every worker's cache first: the measure is of the steady state.
                    wrk(base + path, 8, lua, headers, duration="1s")
                    r = wrk(base + path, connections, lua, headers)
                    ceiling = ceiling or r["rps"]
                    r.update(name=name, path=path, connections=connections, ratio=round(r["rps"] / ceiling, 3))
                    results.append(r)
    finally:
        shutil.rmtree(ceiling_dir, ignore_errors=True)
        shutil.rmtree(workdir, ignore_errors=True)

    print("\n| endpoint | conns | req/s | p50 ms | p95 ms | ratio to static | non-2xx |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(
            f"| {r['name']} | {r['connections']} | {r['rps']:.0f} | {r['p50_ms']:.2f} | {r['p95_ms']:.2f} | "
            f"{r['ratio']:.2f} | {r['errors']} |"
        )
    out_dir = ROOT / "bench" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / f"bench-{datetime.now():%Y%m%d-%H%M%S}.json"
    database = env["DATABASE_URL"].split(":")[0]
    summary = {"duration": DURATION, "workers": WORKERS, "database": database, "results": results}
    out.write_text(json.dumps(summary, indent=2))
    print(f"\nWritten to {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
