"""No request waits on the mail server (docs/decisions.md 41): with a mail server that takes 8 s to accept each message,
the requests that send mail (registration, contact form, forgot-password, a card capture with the simulator) each answer
in under a second, and the worker delivers every mail exactly once.

    .venv/bin/python bench/slow_mail_check.py [--delay 8] [--limit 1.0] [--deadline 180] [--keep]

It starts, on 127.0.0.1:
- an SMTP server (aiosmtpd) whose handler waits `--delay` seconds before accepting each message and records it;
- gunicorn (2 workers) with the production settings of bench/server.py, its SMTP backend pointed at that server
  (MAIL_BACKEND=smtp, EMAIL_HOST, EMAIL_PORT, EMAIL_USE_TLS=false: studio/settings/production.py);
- the task worker (`manage.py db_worker`) and the scheduler (`manage.py crontask`) on the same settings and database.

It then times each request, prints its duration and PASS/FAIL against `--limit`, and polls (up to `--deadline`
seconds) until every expected mail has arrived and the outbox and the task queue are empty; each expected mail must
have arrived exactly once (counted by recipient and subject), no mail may arrive twice, and every outbox row must be
sent. Exits 1 on any failure. The database and the logs are in a temporary directory (kept with --keep).
One request of each kind: the public forms are rate-limited (docs/decisions.md 31).
"""

import argparse
import asyncio
import email
import email.policy
import http.client
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from aiosmtpd.controller import Controller

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import PY, ROOT, free_port, gunicorn, prepare, production_env  # noqa: E402

MEMBER_EMAIL = "membre@studio-pole-danse.fr"  # seed_demo's member (courses/management/commands/seed_demo.py)
MEMBER_PASSWORD = "DemoMembre2026!"


class SlowHandler:
    """Accepts each message `delay` seconds after its data arrived, and records it once accepted."""

    def __init__(self, delay: float):
        self.delay = delay
        self.received: list[dict] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        await asyncio.sleep(self.delay)
        message = email.message_from_bytes(envelope.original_content or envelope.content, policy=email.policy.default)
        subject = str(message["subject"] or "")
        with self.lock:
            for rcpt in envelope.rcpt_tos:
                self.received.append({"to": rcpt.lower(), "subject": subject, "at": time.time()})
        return "250 Message accepted for delivery"

    def counts(self) -> Counter:
        with self.lock:
            return Counter((m["to"], m["subject"]) for m in self.received)


class Http:
    """A minimal client: JSON or form posts, a CSRF cookie of its own (as flow.py), an optional bearer token."""

    def __init__(self, base: str):
        parts = urlsplit(base)
        self.host, self.port = parts.hostname, parts.port
        self.csrf = secrets.token_hex(16)  # 32 characters: an unmasked CSRF secret, as the cookie carries
        self.token = ""

    def post(self, path: str, body: dict, *, form: bool = False) -> tuple[int, dict | str, float]:
        headers = {"Cookie": f"csrftoken={self.csrf}", "X-CSRFToken": self.csrf}
        if form:
            data = urlencode({**body, "csrfmiddlewaretoken": self.csrf}).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        else:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if self.token:
            headers = {"Authorization": f"Bearer {self.token}", "Content-Type": headers["Content-Type"]}
        headers["Content-Length"] = str(len(data))
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        started = time.perf_counter()
        try:
            conn.request("POST", path, body=data, headers=headers)
            response = conn.getresponse()
            raw = response.read()
        finally:
            conn.close()
        elapsed = time.perf_counter() - started
        try:
            payload = json.loads(raw or b"{}")
        except ValueError:
            payload = raw[:300].decode(errors="replace")
        return response.status, payload, elapsed


def shell(env: dict, code: str) -> dict:
    out = subprocess.run(
        [PY, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


SESSIONS_CODE = """
import json
from datetime import timedelta
from django.utils import timezone
from courses.models import CourseSession
ids = list(CourseSession.objects.filter(start__gt=timezone.now() + timedelta(days=1)).order_by('start')
           .values_list('pk', flat=True)[:20])
print(json.dumps({'sessions': ids}))
"""

QUEUE_CODE = """
import json
from django.db.models import Count
from django_tasks_db.models import DBTaskResult
from studio.models import OutgoingEmail
print(json.dumps({
    'outbox': {row['status']: row['n'] for row in OutgoingEmail.objects.values('status').annotate(n=Count('id'))},
    'outbox_rows': [[to.lower(), s, st, a] for to_list, s, st, a in
                    OutgoingEmail.objects.values_list('to', 'subject', 'status', 'attempts') for to in to_list],
    'tasks': {row['status']: row['n'] for row in DBTaskResult.objects.values('status').annotate(n=Count('id'))},
}))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--delay", type=float, default=8.0, help="seconds the SMTP server takes per message")
    parser.add_argument("--limit", type=float, default=1.0, help="the most a request may take, in seconds")
    parser.add_argument("--deadline", type=float, default=180.0, help="seconds to wait for every mail")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (database, logs)")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="slow-mail-"))
    handler = SlowHandler(args.delay)
    smtp = Controller(handler, hostname="127.0.0.1", port=free_port())
    smtp.start()
    print(f"SMTP server on 127.0.0.1:{smtp.port}, {args.delay:g} s per message; work directory {workdir}")

    env = production_env(workdir)
    env.update(
        MAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(smtp.port),
        EMAIL_USE_TLS="false",
        EMAIL_HOST_USER="",
        EMAIL_HOST_PASSWORD="",
        LOG_LEVEL="INFO",  # the worker's log says what it sent
    )
    studio_name = env.get("STUDIO_NAME", "Studio Pole Danse Lyon")
    staff_mailbox = env.get("STAFF_NOTIFICATION_EMAIL", env.get("STUDIO_EMAIL", "contact@studio-pole-danse.fr"))
    failures: list[str] = []
    background: list[tuple[str, subprocess.Popen, object]] = []
    try:
        prepare(env)
        for name, command in (
            ("worker", ["manage.py", "db_worker", "--queue-name", "default", "--interval", "1", "--no-reload"]),
            ("scheduler", ["manage.py", "crontask", "--no-heartbeat"]),
        ):
            log = open(workdir / f"{name}.log", "wb")  # noqa: SIM115 - closed in finally
            process = subprocess.Popen([PY, *command], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
            background.append((name, process, log))

        with gunicorn(env, workdir, workers="2") as (base, _server):
            print(f"gunicorn (2 workers, production settings) on {base}; worker and scheduler started")
            # Both gunicorn workers load the pages' code first (GETs only: the rate limits count posts), so that the
            # timings below are those of a running site, not of a worker's first import.
            for _ in range(4):
                for page in ("/", "/contact", "/register", "/forgot-password", "/login", "/courses/calendar"):
                    urllib.request.urlopen(base + page, timeout=60).read()
            print(f"load average before the requests: {os.getloadavg()[0]:.1f} (on {os.cpu_count()} cores)\n")
            expected: list[tuple[str, str]] = []
            timings: list[tuple[str, int, float]] = []

            def timed(label: str, ok_codes: tuple[int, ...], client: Http, path: str, body: dict, **kw):
                code, payload, seconds = client.post(path, body, **kw)
                timings.append((label, code, seconds))
                verdict = "PASS" if code in ok_codes and seconds < args.limit else "FAIL"
                print(f"{verdict}  {label:<28} HTTP {code}  {seconds * 1000:8.1f} ms")
                if verdict == "FAIL":
                    failures.append(f"{label}: HTTP {code} in {seconds:.2f} s ({str(payload)[:300]})")
                return code, payload

            tag = secrets.token_hex(4)
            newcomer = f"slow-mail-{tag}@example.fr"
            timed(
                "registration (API)",
                (201,),
                Http(base),
                "/api/users/register",
                {
                    "first_name": "Lente",
                    "last_name": "Messagerie",
                    "email": newcomer,
                    "phone": "0612345678",
                    "postal_code": "69002",
                    "password": "Serveur-Lent-2026!",
                    "confirmPassword": "Serveur-Lent-2026!",
                    "acceptCGU": True,
                },
            )
            expected.append((newcomer, f"{studio_name} – Confirmez votre adresse email"))

            subject = f"Serveur de mail lent {tag}"
            timed(
                "contact form (POST /contact)",
                (302, 303),
                Http(base),
                "/contact",
                {"name": "Visiteuse Patiente", "email": f"visiteuse-{tag}@example.fr", "subject": subject,
                 "message": "Bonjour, ce message vérifie que le formulaire n'attend pas le serveur de mail."},
                form=True,
            )  # fmt: skip
            expected.append((staff_mailbox, f"{studio_name} – Nouveau message : {subject}"))

            timed("forgot-password (API)", (200,), Http(base), "/api/users/forgot-password", {"email": MEMBER_EMAIL})
            expected.append((MEMBER_EMAIL, f"{studio_name} – Réinitialisation de votre mot de passe"))

            member = Http(base)
            code, login, _ = member.post("/api/users/login", {"email": MEMBER_EMAIL, "password": MEMBER_PASSWORD})
            if code != 200:
                raise RuntimeError(f"member login failed: {code} {login}")
            member.token = login["token"]
            identity = {"first_name": "Membre", "last_name": "Démo", "email": MEMBER_EMAIL}
            hold = None
            for session_id in shell(env, SESSIONS_CODE)["sessions"]:
                code, body, seconds = member.post(
                    "/api/reservations-courses", {"session_id": session_id, "participants": 1, **identity}
                )
                if code == 201:
                    hold = body
                    timings.append(("seat hold", code, seconds))
                    verdict = "PASS" if seconds < args.limit else "FAIL"
                    print(f"{verdict}  {'seat hold (session ' + str(session_id) + ')':<28} HTTP {code}  "
                          f"{seconds * 1000:8.1f} ms")  # fmt: skip
                    if verdict == "FAIL":
                        failures.append(f"seat hold: {seconds:.2f} s")
                    break
            if hold is None:
                raise RuntimeError("no upcoming session took a hold for the demo member")
            code, order = timed(
                "create order (simulator)",
                (201,),
                member,
                "/api/paypal/create-order",
                {"amount": hold["total_amount"], "reservation_id": hold["id"], "type": "cours", "title": hold["title"],
                 **identity},
            )  # fmt: skip
            if code != 201:
                raise RuntimeError(f"create order failed: {code} {order}")
            timed("simulator approve", (200,), member, "/api/paypal/simulator/approve", {"orderId": order["id"]})
            code, captured = timed("capture", (200,), member, "/api/paypal/capture-payment", {"orderId": order["id"]})
            if not (isinstance(captured, dict) and captured.get("status") == "COMPLETED"):
                failures.append(f"capture did not complete the payment: {captured}")
            expected.append((MEMBER_EMAIL, f"{studio_name} – Votre reçu de paiement"))
            expected.append((MEMBER_EMAIL, f"{studio_name} – Votre réservation est confirmée"))

            # Wait for the worker: every expected mail received, then the outbox and the queue drained (so that
            # no second copy can still be on its way). The deadline bounds the wait; it is not the verdict.
            print(f"\nWaiting (at most {args.deadline:g} s) for the worker to deliver {len(expected)} mails…")
            started = time.monotonic()
            state: dict = {}
            while True:
                counts = handler.counts()
                arrived = all(counts[key] >= 1 for key in expected)
                if arrived:
                    state = shell(env, QUEUE_CODE)
                    queue_busy = state["tasks"].get("READY", 0) + state["tasks"].get("RUNNING", 0)
                    outbox_busy = state["outbox"].get("PENDING", 0) + state["outbox"].get("SENDING", 0)
                    if not queue_busy and not outbox_busy:
                        break
                if time.monotonic() - started > args.deadline:
                    state = shell(env, QUEUE_CODE)
                    failures.append(f"not everything was delivered within {args.deadline:g} s")
                    break
                time.sleep(1)
            waited = time.monotonic() - started
            counts = handler.counts()
            print(f"Waited {waited:.1f} s after the last request. Outbox: {state.get('outbox')}; "
                  f"task queue: {state.get('tasks')}\n")  # fmt: skip
            print("Mails received (recipient | subject | count):")
            for (to, subj), n in sorted(counts.items()):
                print(f"  {to} | {subj} | {n}")
            for key in expected:
                n = counts[key]
                verdict = "PASS" if n == 1 else "FAIL"
                print(f"{verdict}  expected once: {key[0]} | {key[1]}: received {n}")
                if n != 1:
                    failures.append(f"{key[0]} | {key[1]}: received {n} times")
            for key, n in counts.items():
                if n > 1 and key not in expected:
                    failures.append(f"{key[0]} | {key[1]}: received {n} times")
            not_sent = [row for row in state.get("outbox_rows", []) if row[2] != "SENT"]
            if not_sent:
                failures.append(f"outbox rows not sent: {not_sent}")
            unknown = [row for row in state.get("outbox_rows", []) if (row[0], row[1]) not in counts]
            if unknown:
                failures.append(f"outbox rows that never reached the server: {unknown}")
    except Exception as exc:  # noqa: BLE001 - reported as a failure with the logs' tails
        failures.append(f"{exc.__class__.__name__}: {exc}")
    finally:
        for _name, process, _log in background:
            process.terminate()
        for _name, process, log in background:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log.close()
        smtp.stop()

    sent_lines = [
        line for line in (workdir / "worker.log").read_text(errors="replace").splitlines() if "sent to" in line
    ]
    print(f"\nWorker log: {len(sent_lines)} 'sent' lines")
    for line in sent_lines:
        print(f"  {line[:200]}")
    if failures:
        print("\nFAIL")
        for failure in failures:
            print(f"  - {failure}")
        for name in ("gunicorn", "worker", "scheduler"):
            path = workdir / f"{name}.log"
            if path.exists():
                print(f"\n--- {name}.log (last lines) ---\n{path.read_text(errors='replace')[-2500:]}")
    else:
        print("\nPASS: every request answered in under "
              f"{args.limit:g} s and every mail arrived exactly once")  # fmt: skip
    if args.keep or failures:
        print(f"(logs and database kept in {workdir})")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
