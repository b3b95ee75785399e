"""`make bench`: seed a large studio, serve it with gunicorn and the production settings on 127.0.0.1, and measure
each page with wrk at 1 and 10 connections against a static file of the home page's size served by whitenoise
(the ceiling). Prints requests/s, p50 and p95 and the ratio to the ceiling; writes bench/results/<timestamp>.json.
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
DURATION = os.environ.get("BENCH_DURATION", "5s")
WORKERS = os.environ.get("BENCH_WORKERS", "4")
LUA = """
done = function(summary, latency, requests)
  io.write(string.format("BENCH p50=%d p95=%d\\n", latency:percentile(50), latency:percentile(95)))
end
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def django_env(workdir: Path) -> dict:
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", f"sqlite:///{workdir / 'bench.sqlite3'}")
    env.update(
        DJANGO_SETTINGS_MODULE="studio.settings.production",
        DJANGO_SECRET_KEY="bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SECURE_SSL_REDIRECT="false",
        DJANGO_SECURE_COOKIES="false",
        DJANGO_SECURE_HSTS_SECONDS="0",
        MEDIA_ROOT=str(workdir / "uploads"),
        LOG_LEVEL="ERROR",
    )
    return env


def manage(env, *args):
    subprocess.run([PY, "manage.py", *args], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


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


def wrk(url: str, connections: int, lua: Path, headers: list[str]) -> dict:
    cmd = ["wrk", f"-t{min(connections, 2)}", f"-c{connections}", f"-d{DURATION}", "-s", str(lua), "--timeout", "10s"]
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


def main() -> int:
    if not shutil.which("wrk"):
        print("wrk is missing: `apt-get install wrk` (make bench does it).", file=sys.stderr)
        return 1
    workdir = Path(tempfile.mkdtemp(prefix="studio-bench-"))
    env = django_env(workdir)
    print(f"Database: {env['DATABASE_URL']}")
    manage(env, "migrate", "--noinput")
    manage(env, "seed_bench")
    manage(env, "collectstatic", "--noinput")
    cookie = staff_session_cookie(env)

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(workdir / "gunicorn.log", "wb")  # noqa: SIM115 - closed with the server
    server = subprocess.Popen(
        [
            PY,
            "-m",
            "gunicorn",
            "-c",
            "gunicorn.conf.py",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            WORKERS,
            "--threads",
            "1",
            "--access-logfile",
            "/dev/null",
            "studio.wsgi",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(100):
            try:
                home = urllib.request.urlopen(base + "/", timeout=2).read()
                break
            except OSError:
                time.sleep(0.2)
        else:
            print((workdir / "gunicorn.log").read_text())
            return 1
        # The ceiling: a static file the size of the home page, through the same gunicorn and whitenoise.
        static_root = ROOT / "staticfiles" / "bench"
        static_root.mkdir(parents=True, exist_ok=True)
        (static_root / "ceiling.html").write_bytes(home)
        server.send_signal(signal.SIGHUP)  # reload workers so whitenoise indexes the new file
        time.sleep(3)

        today = datetime.now().date()
        monday = today - timedelta(days=today.weekday())
        week = f"start={monday.isoformat()}&end={(monday + timedelta(days=7)).isoformat()}"
        month_start = today.replace(day=1)
        month_end = month_start + timedelta(days=42)
        month = f"start={(month_start - timedelta(days=7)).isoformat()}&end={month_end.isoformat()}"
        targets = [
            ("ceiling: static file (home size)", "/static/bench/ceiling.html", []),
            ("home /", "/", []),
            ("/tarifs", "/tarifs", []),
            ("/courses/calendar", "/courses/calendar", []),
            ("feed: one week", f"/api/course-sessions?{week}", []),
            ("feed: one month", f"/api/course-sessions?{month}", []),
            ("/gallery", "/gallery", []),
            ("/api/course-sessions (staff)", "/api/course-sessions?page=1", [f"Cookie: sessionid={cookie}"]),
        ]
        lua = workdir / "report.lua"
        lua.write_text(LUA)
        results = []
        for connections in (1, 10):
            ceiling = None
            for name, path, headers in targets:
                r = wrk(base + path, connections, lua, headers)
                if ceiling is None:
                    ceiling = r["rps"]
                r.update(name=name, path=path, connections=connections, ratio=round(r["rps"] / ceiling, 3))
                results.append(r)
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        shutil.rmtree(ROOT / "staticfiles" / "bench", ignore_errors=True)

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
    out.write_text(
        json.dumps(
            {
                "duration": DURATION,
                "workers": WORKERS,
                "database": env["DATABASE_URL"].split(":")[0],
                "results": results,
            },
            indent=2,
        )
    )
    print(f"\nWritten to {out.relative_to(ROOT)}")
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
