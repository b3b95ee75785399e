#!/usr/bin/env python
"""The security review's defects attacked again from outside: gunicorn, production settings, PostgreSQL, Redis.

Run:  .venv/bin/python security/outside_attack.py
      (ATTACK_DB=studio_attack, ATTACK_REDIS_DB=5, ATTACK_WORKERS=2 by default; --keep-db skips the fresh database)

What it does, the way bench/server.py starts a production-like site:
  1. drops and creates the PostgreSQL database ATTACK_DB, empties Redis db ATTACK_REDIS_DB (this script's own
     number), migrates, runs seed_demo and collectstatic (bench.server.prepare);
  2. starts the task worker (manage.py db_worker: the e-mail outbox and the queued password-reset mails) and gunicorn
     (2 workers, studio.settings.production, REDIS_URL set, the payment simulator: no PayPal credentials);
  3. uses the demo accounts seed_demo prints (admin, supervisor, members) and registers its own throw-away ones;
  4. replays every defect below over HTTP exactly as it was found, then a few attacks of its own on the write
     endpoints, and prints one line per check: what was tried, what the server answered, SAFE or BROKEN.
Exit status 1 when anything is BROKEN (or a check could not run: ERROR).

The defects, numbered as the checks and the tests (security/test_replayed_review_*.py) name them: 1 pay for one seat,
get more; 2 charged twice (card, and card plus class card); 3 a pass longer than what was paid; 4 a supervisor can
become admin; 5 logins survive a password reset; 6 server errors on bad input (numbers and bodies); 7 a hold that lapses
while it is paid; 8 no limits on the public forms that send mail; 9 registration tells who has an account, and so
does forgot-password's timing; 10 a page on another site can log a member out.

Observation only goes through HTTP, except the mailbox: e-mails are read from the outbox table (OutgoingEmail), which
is what the recipient would get (the mail backend of this run is local memory).

Rate limits are part of the defence (item 8 expects 429). TRUSTED_PROXY_COUNT stays 0 (the default: the client is
REMOTE_ADDR, X-Forwarded-For is never trusted), so every request comes from 127.0.0.1 and the steps that are not about
limits reset the rate-limit counters in Redis first (keys rl:*, mail-quota:*, login failures), which the output says.
SEAT_HOLD_MINUTES=1 for this run so that item 7 (a hold that lapses) takes one minute instead of fifteen.
"""

import argparse
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

from .accounts import item4, item5, item9, item10
from .extra import own_attacks
from .harness import (
    DB_NAME,
    HOLD_MINUTES,
    PG_SERVER,
    PY,
    REDIS_DB,
    RESULTS,
    ROOT,
    WORKERS,
    Studio,
    fresh_database,
    gunicorn,
    note,
    prepare,
    production_env,
    redis_client,
    report,
    reset_limits,
)
from .limits import item6, item8
from .money import item1, item2, item3, item7_finish, item7_start

# --- main --------------------------------------------------------------------------------------------------------


def run(base: str) -> None:
    st = Studio(base)
    reset_limits()
    ctx7 = item7_start(st)
    steps = [
        ("1", item1),
        ("2", item2),
        ("3", item3),
        ("4", item4),
        ("5", item5),
        ("6", item6),
        ("8", item8),
        ("9", item9),
        ("10", item10),
    ]
    for name, step in steps:
        if name not in ("8",):
            reset_limits()
            note(f"rate-limit counters reset before item {name} (all requests come from 127.0.0.1)")
        try:
            step(st)
        except Exception as exc:  # noqa: BLE001 - a check that could not run is reported, not hidden
            report(f"{name} (could not run)", step.__name__, f"{exc.__class__.__name__}: {exc}", None)
            traceback.print_exc()
    reset_limits()
    try:
        item7_finish(st, ctx7)
    except Exception as exc:  # noqa: BLE001
        report("7 (could not run)", "item7", f"{exc.__class__.__name__}: {exc}", None)
        traceback.print_exc()
    reset_limits()
    note("rate-limit counters reset before the attacks of our own")
    try:
        own_attacks(st)
    except Exception as exc:  # noqa: BLE001
        report("own (could not run)", "own_attacks", f"{exc.__class__.__name__}: {exc}", None)
        traceback.print_exc()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep-db", action="store_true", help="reuse the database (no drop, migrate and seed only)")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="outside-attack-"))
    env = production_env(workdir)
    env.update(
        DATABASE_URL=f"{PG_SERVER}/{DB_NAME}",
        REDIS_URL=f"redis://127.0.0.1:6379/{REDIS_DB}",
        DJANGO_ALLOW_UNSHARED_CACHE="false",  # the shared cache is what production runs on
        SEAT_HOLD_MINUTES=str(HOLD_MINUTES),
        TRUSTED_PROXY_COUNT="0",
        SITE_URL="http://127.0.0.1",
    )
    for key in ("PAYPAL_CLIENT_ID", "PAYPAL_CLIENT_SECRET", "PAYPAL_WEBHOOK_ID", "RATELIMIT_ENABLE"):
        env.pop(key, None)
    print(f"database {DB_NAME}, Redis db {REDIS_DB}, workdir {workdir}", flush=True)
    if not args.keep_db:
        fresh_database()
    redis_client().flushdb()  # this run's own db number only
    prepare(env)
    worker_log = open(workdir / "worker.log", "wb")  # noqa: SIM115
    worker = subprocess.Popen(
        [PY, "manage.py", "db_worker", "--queue-name", "default", "--interval", "1", "--no-reload"],
        cwd=ROOT, env=env, stdout=worker_log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        with gunicorn(env, workdir, workers=WORKERS) as (base, _server):
            print(f"gunicorn {WORKERS} workers at {base} (studio.settings.production, PostgreSQL, Redis)", flush=True)
            run(base)
            log = (workdir / "gunicorn.log").read_text(errors="replace")
            errors = log.count("Traceback")
            report(
                "server log",
                "gunicorn.log after every attack",
                f"{errors} traceback(s)",
                errors == 0,
                "no unhandled error",
            )
            if errors:
                print(log[-4000:])
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
        worker_log.close()

    print("\n| # | tried | answer | verdict |\n|---|---|---|---|")
    for row in RESULTS:
        print(f"| {row['item']} | {row['tried']} | {row['answer']} | {row['verdict']} |")
    bad = [r for r in RESULTS if r["verdict"] != "SAFE"]
    print(f"\n{len(RESULTS) - len(bad)} SAFE, {len(bad)} not safe")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
