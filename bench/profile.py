"""Profile pages in-process against the bench's database (what `make bench` seeded last), without a network.

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/studio_bench REDIS_URL=redis://127.0.0.1:6379/11
    .venv/bin/python bench/profile.py /my-courses --as member       # pyinstrument's call tree and the queries
    .venv/bin/python bench/profile.py all                           # CPU ms per request for every measured page

CPU time of this process per request (Django, ORM, templates, the Redis and PostgreSQL clients) is steadier than
wrk's requests/s on a shared machine: it is what the README's "where the time went" column quotes.
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import production_env  # noqa: E402

EMAILS = {"staff": "bench-admin@example.fr", "member": "bench-member-0@example.fr"}


def clients():
    from django.test import Client

    from accounts.models import User

    made = {"anonymous": Client(HTTP_HOST="127.0.0.1")}
    for who, email in EMAILS.items():
        made[who] = Client(HTTP_HOST="127.0.0.1")
        made[who].force_login(User.objects.get(email=email))
    return made


def every_page(requests: int) -> None:
    from run import targets

    from accounts.models import User

    made = clients()
    member_id = User.objects.get(email=EMAILS["member"]).pk
    for group, name, path, _headers in targets({"member": "", "staff": "", "member_id": member_id}):
        if group == "ceiling":
            continue
        who = "member" if group == "member" else "staff" if group == "staff" else "anonymous"
        client = made[who]
        for _ in range(5):
            response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        cpu = wall = float("inf")  # the best of three batches: the least disturbed by other work on the machine
        for _ in range(3):
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            for _ in range(requests):
                client.get(path)
            cpu = min(cpu, (time.process_time() - cpu_start) / requests * 1000)
            wall = min(wall, (time.perf_counter() - wall_start) / requests * 1000)
        print(f"| {name} | {cpu:.2f} | {wall:.2f} | {len(response.content)} |", flush=True)


def one_page(path: str, who: str, requests: int) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from pyinstrument import Profiler

    client = clients()[who]
    for _ in range(5):
        assert client.get(path).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        size = len(client.get(path).content)
    profiler = Profiler(interval=0.0005)
    profiler.start()
    for _ in range(requests):
        client.get(path)
    profiler.stop()
    print(profiler.output_text(unicode=True, color=False, show_all=False))
    print(f"{len(queries)} queries, {size} bytes:")
    for q in queries.captured_queries:
        print(f"  {q['time']}s  {q['sql'][:220]}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("path", help="a path, or 'all' for every page the bench measures")
    parser.add_argument("--as", dest="who", default="anonymous", choices=["anonymous", "member", "staff"])
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    os.environ.update({k: v for k, v in production_env(Path(tempfile.gettempdir())).items() if k not in os.environ})
    import django

    django.setup()
    if args.path == "all":
        print("| endpoint | CPU ms / request | wall ms | bytes |\n|---|---:|---:|---:|")
        every_page(args.requests)
    else:
        one_page(args.path, args.who, args.requests)
    return 0


if __name__ == "__main__":
    sys.exit(main())
