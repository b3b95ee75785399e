"""make bench's settings: the environment it reads and the goals it checks (see run.py's docstring)."""

import os
from pathlib import Path

from server import ROOT

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
# Class openings measured, each on a class of its own with the same members: the first answer's p95 is their median
# (as Lighthouse's is over its runs), since on a shared 2-core machine one opening moves by a third from run to run.
OPENINGS = 1 if QUICK else 3
CONNECTIONS, SERVER_TIME_GOAL_MS = 10, 150
PUBLIC_RATIO_GOAL = 0.5
LIGHTHOUSE_RUNS = 1 if QUICK else 3

LUA = """
done = function(summary, latency, requests)
  io.write(string.format("BENCH p50=%d p95=%d timeouts=%d\\n", latency:percentile(50), latency:percentile(95),
                         summary.errors.timeout))
end
"""
