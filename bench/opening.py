"""Row 1 of make bench: the class opening, 300 members booking one 12-place class in the same instant (flow.py),
then what the database holds (rush_check.py); OPENINGS times, on a class of its own each."""

import json
import statistics
import time
from pathlib import Path

from config import FIRST_ANSWER_GOAL_MS, PROJECT
from flow import class_opening, waiting_list_offered, warm_up
from report import row
from server import shell


def rush_rows(base: str, env: dict, setup: dict, workdir: Path) -> tuple[list[dict], dict]:
    errors = warm_up(base, setup["warm"], setup["warm_session"])
    if errors:
        raise RuntimeError(f"the warm-up bookings failed: {errors[:3]}")
    runs = []
    for number, session in enumerate(setup["rush_sessions"], start=1):
        settle(env, workdir)
        print(
            f"  class opening {number}/{len(setup['rush_sessions'])}: {len(setup['rush'])} members, one "
            f"{setup['rush_places']}-place class…",
            flush=True,
        )
        seen = class_opening(base, setup["rush"], session)
        refused = [setup["rush"][i] for i in seen["full_members"]]
        offered = waiting_list_offered(base, refused, session)
        db = shell(
            env,
            "rush_check.py",
            root=PROJECT,
            BENCH_CHECK=json.dumps({"session": session, "seen_captured": seen["captured_seen"]}),
        )
        runs.append({"clients": seen, "database": db, "waiting_list": offered})
    rows, alarms = rush_verdicts(runs, setup["rush_places"])
    return rows, {"openings": runs, "alarms": alarms}


def rush_verdicts(runs: list[dict], places: int) -> tuple[list[dict], list[str]]:
    """The class opening's rows over every opening: what must hold (seats, payments, answers, the waiting list)
    holds in each, and the first answer's p95 is their median. The alarms are what must never happen (more seats
    confirmed than the class has, a seat paid twice), in any opening."""
    checks = [_opening_checks(run["clients"], run["database"], run["waiting_list"], places) for run in runs]
    alarms = [alarm for check in checks for alarm in check["alarms"]]
    p95s = [run["clients"]["first_answer_p95_ms"] for run in runs]
    median = statistics.median(p95s)
    members = runs[0]["clients"]["members"]

    def each(key: str) -> str:
        return "; ".join(check[key][0] for check in checks)

    def passed(key: str) -> bool:
        return all(check[key][1] for check in checks)

    rows = [
        row("class opening: seats confirmed (database)", f"exactly {places}", each("seats"), passed("seats")),
        row("class opening: payments captured per confirmed seat (database)", "exactly 1 each", each("paid"),
            passed("paid")),
        row("class opening: members answered", f"{members}/{members}", each("answered"), passed("answered")),
        row("class opening: errors (5xx, timeouts, unexpected answers)", "0", each("errors"), passed("errors")),
        row(f"class opening: p95 of each member's first answer (median of {len(runs)} openings)",
            f"< {FIRST_ANSWER_GOAL_MS / 1000:g} s",
            f"{median / 1000:.2f} s (openings: " + ", ".join(
                f"{run['clients']['first_answer_p95_ms'] / 1000:.2f} s, p50 "
                f"{run['clients']['first_answer_p50_ms'] / 1000:.2f}" for run in runs) + ")",
            median < FIRST_ANSWER_GOAL_MS),
        row("class opening: every other member told full, offered the waiting list", "all of them",
            each("full"), passed("full")),
    ]  # fmt: skip
    return rows, alarms


def _opening_checks(seen: dict, db: dict, offered: dict, places: int) -> dict:
    """One opening's figures, each as (text, met), from what the clients saw and what the database holds."""
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
    return {
        "alarms": alarms,
        "seats": (str(db["seats_confirmed"]), db["seats_confirmed"] == places and db["holds_left"] == 0),
        "paid": (
            f"{db['confirmed_paid_once']}/{db['reservations_confirmed']} once; twice {len(db['paid_twice'])}, "
            f"unpaid {len(db['confirmed_unpaid'])}, paid unconfirmed {len(db['paid_not_confirmed'])}",
            paid_ok,
        ),
        "answered": (f"{seen['answered']}/{members}", seen["answered"] == members),
        "errors": (f"{seen['errors']} ({seen['server_errors']} 5xx or timeouts)", seen["errors"] == 0),
        "full": (
            f"told full {seen['told_full']}/{others}, waiting list offered in that answer "
            f"{seen.get('waitlist_in_answer', 0)}, class read full {offered['reads_full']}, "
            f"joined {offered['joined']}",
            seen["told_full"]
            == others
            == seen.get("waitlist_in_answer", 0)
            == offered["reads_full"]
            == offered["joined"],
        ),
    }


def settle(env: dict, workdir: Path, timeout_s: float = 60) -> None:
    """Wait for the site to be in service: the scheduler started, and the task worker done with what is due (the
    warm-up's e-mails and receipts), so that the class opens neither beside processes still starting nor beside the
    warm-up's own aftermath, but beside whatever the opening itself sets off."""
    import psycopg

    deadline = time.monotonic() + timeout_s
    scheduler_log = workdir / "scheduler.log"
    with psycopg.connect(env["DATABASE_URL"], autocommit=True) as conn:
        while time.monotonic() < deadline:
            started = scheduler_log.exists() and "Starting scheduler" in scheduler_log.read_text(errors="replace")
            (due,) = conn.execute(
                "SELECT count(*) FROM django_tasks_database_dbtaskresult"
                " WHERE status IN ('READY', 'RUNNING') AND run_after <= now()"
            ).fetchone()
            if started and not due:
                return
            time.sleep(0.5)
    raise RuntimeError(f"the site did not settle within {timeout_s:g} s (scheduler started, task queue drained)")
