"""The booking rush's four steps in-process: CPU ms and queries per step, against the bench's database.

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/studio_bench REDIS_URL=redis://127.0.0.1:6379/11
    .venv/bin/python bench/flow_profile.py                      # CPU ms and queries per step (best of 3 batches)
    .venv/bin/python bench/flow_profile.py --queries            # ... and each step's SQL once
    .venv/bin/python bench/flow_profile.py --profile capture    # cProfile of one step over the batch (tottime)

Each booking is what `make bench`'s rush does (bench/flow.py): hold (`POST /api/reservations-courses`) → create order
→ approve with the simulator → capture, through Django's test client (session cookie, no network), as several bench
members in turn, each on an upcoming session with free seats. It writes real bookings to the database it runs on:
point it at a copy of the bench's database, never at the one `make bench` is measuring. The CPU time of this process
(Django, the ORM, the Redis and PostgreSQL clients; not PostgreSQL's own) is the steady measure of a step's cost.
On PostgreSQL served from this machine, the "PG ms" column is the CPU time of this process's PostgreSQL backend during
each step (its /proc/<pid>/schedstat), PostgreSQL's own share; "commits" counts the transactions that reached the
disk (each COMMIT, and each statement run outside a transaction, waits for its WAL flush: ~4 ms here).
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
# bench/profile.py would shadow the standard library's `profile`, which cProfile imports: bench/ goes last.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != BENCH]
import cProfile  # noqa: E402
import pstats  # noqa: E402

sys.path.insert(0, str(BENCH.parent))
sys.path.append(str(BENCH))
from server import production_env  # noqa: E402

STEPS = ("hold", "create order", "approve", "capture")


def members_and_sessions(count: int):
    """`count` bench members logged in, each with the upcoming sessions that have seats left and that they have not
    booked (so that a hold is rarely refused and the measure is of bookings, not of refusals)."""
    from django.db.models import Q, Sum
    from django.test import Client
    from django.utils import timezone

    from accounts.models import User
    from bookings.models import Reservation, ReservationStatus
    from courses.models import CourseSession

    now = timezone.now()
    members = list(User.objects.filter(email__startswith="bench-member-").order_by("-pk")[:count])
    clients = []
    for member in members:
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(member)
        clients.append((member, client))
    taken = Sum(
        "reservations__participants",
        filter=Q(reservations__status=ReservationStatus.CONFIRMED)
        | Q(reservations__status=ReservationStatus.HELD, reservations__hold_expires_at__gt=now),
    )
    free = [
        s.pk
        for s in CourseSession.objects.filter(start__gt=now + timezone.timedelta(days=2), details="bench")
        .annotate(taken=taken)
        .order_by("start")
        if (s.taken or 0) + 5 < s.max_attendees
    ]
    booked = set(Reservation.objects.filter(user__in=members, session_id__in=free).values_list("user_id", "session_id"))
    sessions = {m.pk: [pk for pk in free if (m.pk, pk) not in booked] for m in members}
    return clients, sessions


class Flow:
    """Books in turn as each member, each time on the next session that member has not booked yet."""

    def __init__(self, clients, sessions):
        self.clients, self.sessions = clients, sessions
        self.turn = 0
        self.next_session = {member.pk: i * 3 for i, (member, _) in enumerate(clients)}

    def _post(self, client, path, body):
        response = client.post(path, body, content_type="application/json")
        return response.status_code, response.json()

    def steps(self):
        """Yield (step name, callable) for one booking; each callable runs one request and checks its answer."""
        member, client = self.clients[self.turn % len(self.clients)]
        self.turn += 1
        identity = {"first_name": member.first_name, "last_name": member.last_name, "email": member.email}
        state = {}

        def hold():
            while True:
                index = self.next_session[member.pk]
                self.next_session[member.pk] = index + 1
                session_id = self.sessions[member.pk][index]
                code, body = self._post(
                    client, "/api/reservations-courses", {"session_id": session_id, "participants": 1, **identity}
                )
                if code == 201:
                    state["hold"] = body
                    return
                assert code == 409, (code, body)  # already booked or full: the next session

        def create_order():
            hold = state["hold"]
            body = {"amount": hold["total_amount"], "reservation_id": hold["id"], "type": "cours"}
            code, order = self._post(client, "/api/paypal/create-order", {**body, "title": hold["title"], **identity})
            assert code == 201, (code, order)
            state["order"] = order["id"]

        def approve():
            code, body = self._post(client, "/api/paypal/simulator/approve", {"orderId": state["order"]})
            assert code == 200, (code, body)

        def capture():
            code, body = self._post(client, "/api/paypal/capture-payment", {"orderId": state["order"]})
            assert code == 200 and body["status"] == "COMPLETED", (code, body)

        return list(zip(STEPS, (hold, create_order, approve, capture), strict=True))


def warm_up(flow: Flow) -> None:
    """One booking per member: each test client loads the middleware (whitenoise's file scan) on its first request."""
    for _ in flow.clients:
        for _name, step in flow.steps():
            step()


def backend_cpu():
    """A function answering the CPU seconds used so far by this process's PostgreSQL backend (None elsewhere)."""
    from django.db import connection

    if connection.vendor != "postgresql" or connection.settings_dict.get("HOST") not in ("127.0.0.1", "localhost"):
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    path = Path(f"/proc/{pid}/schedstat")
    if not path.exists():
        return None
    return lambda: int(path.read_text().split()[0]) / 1e9


def commits(captured) -> int:
    """Transactions that wait for the disk: COMMITs, and writes run outside a transaction (autocommit)."""
    count, in_transaction = 0, False
    for q in captured:
        sql = q["sql"].lstrip().upper()
        if sql.startswith("BEGIN"):
            in_transaction = True
        elif sql.startswith("COMMIT"):
            count, in_transaction = count + 1, False
        elif sql.startswith("ROLLBACK"):
            in_transaction = False
        elif not in_transaction and sql.startswith(("INSERT", "UPDATE", "DELETE")):
            count += 1
    return count


def measure(flow: Flow, bookings: int, batches: int, show_queries: bool) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    warm_up(flow)
    server = backend_cpu()
    best = {name: float("inf") for name in STEPS}
    best_wall = {name: float("inf") for name in STEPS}
    best_server = {name: float("inf") for name in STEPS}
    for _ in range(batches):
        cpu = dict.fromkeys(STEPS, 0.0)
        wall = dict.fromkeys(STEPS, 0.0)
        pg = dict.fromkeys(STEPS, 0.0)
        for _ in range(bookings):
            for name, step in flow.steps():
                s = server() if server else 0.0
                c, w = time.process_time(), time.perf_counter()
                step()
                cpu[name] += time.process_time() - c
                wall[name] += time.perf_counter() - w
                pg[name] += (server() - s) if server else 0.0
        for name in STEPS:
            best[name] = min(best[name], cpu[name] / bookings * 1000)
            best_wall[name] = min(best_wall[name], wall[name] / bookings * 1000)
            best_server[name] = min(best_server[name], pg[name] / bookings * 1000)
    queries = {}
    captured = {}
    for name, step in flow.steps():
        with CaptureQueriesContext(connection) as ctx:
            step()
        queries[name] = len(ctx)
        captured[name] = ctx.captured_queries
    server_us = per_query_server_cpu(flow, server, 20) if show_queries and server else {}
    print(f"{bookings} bookings a batch, best of {batches} batches, {len(flow.clients)} members in turn")
    commit_counts = {name: commits(captured[name]) for name in STEPS}
    print("| step | CPU ms | PG ms | wall ms | queries | commits |\n|---|---:|---:|---:|---:|---:|")
    for name in STEPS:
        print(
            f"| {name} | {best[name]:.2f} | {best_server[name]:.2f} | {best_wall[name]:.2f} | {queries[name]} "
            f"| {commit_counts[name]} |"
        )
    print(
        f"| booking | {sum(best.values()):.2f} | {sum(best_server.values()):.2f} | {sum(best_wall.values()):.2f} "
        f"| {sum(queries.values())} | {sum(commit_counts.values())} |",
        flush=True,
    )
    if show_queries:
        for name in STEPS:
            print(f"\n{name}: {queries[name]} queries")
            for q in captured[name]:
                print(f"  {q['sql'][:260]} … {q['sql'][-60:]}" if len(q["sql"]) > 330 else f"  {q['sql']}")
        for name, (statements, total) in server_us.items():
            print(f"\n{name}: PostgreSQL CPU µs per statement (mean of 20 bookings; BEGIN goes with the first)")
            for sql, cost in statements:
                print(f"  [{cost:6.0f}] {sql[:150]}")
            print(f"  [{total - sum(c for _, c in statements):6.0f}] COMMITs and the rest of the step")


def per_query_server_cpu(flow: Flow, server, bookings: int) -> dict:
    """{step: ([(statement, PostgreSQL backend's CPU µs)], the step's total µs)}: the n-th statement of a step, mean
    over `bookings` (a step whose statements vary is left out)."""
    from django.db import connection

    runs: dict[str, list] = {}
    current: list = []

    def timed(execute, sql, params, many, context):
        start = server()
        try:
            return execute(sql, params, many, context)
        finally:
            current.append((sql, (server() - start) * 1e6))

    with connection.execute_wrapper(timed):
        for _ in range(bookings):
            for name, step in flow.steps():
                current.clear()
                start = server()
                step()
                runs.setdefault(name, []).append((list(current), (server() - start) * 1e6))
    means = {}
    for name, step_runs in runs.items():
        if len({len(statements) for statements, _ in step_runs}) != 1:
            continue
        columns = zip(*(statements for statements, _ in step_runs), strict=True)
        statements = [(column[0][0], sum(c for _, c in column) / len(step_runs)) for column in columns]
        means[name] = (statements, sum(total for _, total in step_runs) / len(step_runs))
    return means


def profile(flow: Flow, step_name: str, bookings: int, sort: str, dump: str | None = None) -> None:
    warm_up(flow)
    profiler = cProfile.Profile(time.process_time)  # CPU time: waiting on PostgreSQL is not counted
    for _ in range(bookings):
        for name, step in flow.steps():
            if name == step_name:
                profiler.enable()
                step()
                profiler.disable()
            else:
                step()
    if dump:
        profiler.dump_stats(dump)
    pstats.Stats(profiler).sort_stats(sort).print_stats(45)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bookings", type=int, default=30, help="bookings per batch")
    parser.add_argument("--batches", type=int, default=3)
    parser.add_argument("--members", type=int, default=10)
    parser.add_argument("--queries", action="store_true", help="print each step's SQL")
    parser.add_argument("--profile", choices=STEPS, help="cProfile this step instead of timing them all")
    parser.add_argument("--sort", default="tottime", help="pstats sort key (tottime, cumulative)")
    parser.add_argument("--dump", help="with --profile: also write the pstats data to this file")
    args = parser.parse_args()
    os.environ.update({k: v for k, v in production_env(Path(tempfile.gettempdir())).items() if k not in os.environ})
    import django

    django.setup()
    flow = Flow(*members_and_sessions(args.members))
    if args.profile:
        profile(flow, args.profile, args.bookings, args.sort, args.dump)
    else:
        measure(flow, args.bookings, args.batches, args.queries)
    return 0


if __name__ == "__main__":
    sys.exit(main())
