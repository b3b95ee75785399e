"""Migrating a studio in service keeps every row, on PostgreSQL.

Models move between apps through `SeparateDatabaseAndState`; a mistake there (a table dropped and created again, a
foreign key re-pointed through a new column, a content type deleted with the admin log that points at it) loses
data without any test of the current schema noticing. So: a scratch database is built by the code of BASE_COMMIT
(its migrations, its `seed_demo`, then a little use of the studio through its models), its rows are counted and each
column's values digested, table by table, the current code's migrations are applied to it, and both are taken again.

Both trees run as subprocesses with the interpreter of this run, each with its own `manage.py`: the old tree is the
BASE_COMMIT snapshot extracted from this repository's history (`git archive`).
"""

import io
import os
import secrets
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import psycopg
import pytest
from django.db import connection
from psycopg import sql

pytestmark = pytest.mark.postgres

# The schema of the studios in service when the models started to move between apps.
BASE_COMMIT = "844517f"
REPO_ROOT = Path(__file__).resolve().parents[2]

# A migration that renames a table (AlterModelTable, or a move that takes the new app's table name) lists it here,
# old name -> new name, so that its rows are looked for under the new name.
RENAMED_TABLES: dict[str, str] = {}
# Grow as the current code adds models (post_migrate creates their content types and permissions); no row may go.
MAY_GROW = {"django_content_type", "auth_permission"}
# The migration history itself: it grows by design.
NOT_COMPARED = {"django_migrations"}
# Tables whose existing values a data migration rewrites on purpose (table -> why): their rows are counted, their
# values not compared.
REWRITTEN_BY_DESIGN: dict[str, str] = {}
# Tables the seed and USE_STUDIO below must fill: were one empty, its rows would prove nothing.
MUST_BE_FILLED = {
    "accounts_user",
    "bookings_reservation",
    "bookings_partyreservation",
    "bookings_partyrequestevent",
    "bookings_waitlistentry",
    "bookings_attendance",
    "bookings_reservationreminder",
    "bookings_pass",
    "courses_coursesession",
    "courses_sessionseries",
    "messaging_roomrentalrequest",
    "messaging_rentalrequestevent",
    "payments_paymentorder",
    "invoices_invoice",
    "django_admin_log",
}

SUBPROCESS_TIMEOUT = 300

# Run by BASE_COMMIT's code (`manage.py shell -c`) after its seed: what a studio in service has and the seed leaves
# out, in particular around what moves (EVJF/EVG and room-rental requests with their history and deposits, weekly
# series, waiting lists and attendance). Written against that commit's models, which do not change any more.
USE_STUDIO = """
from datetime import timedelta
from decimal import Decimal

from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.backends.db import SessionStore
from django.db import transaction
from django.utils import timezone

from accounts.models import Role, User
from bookings.models import PartyRequestEvent, PartyReservation, Reservation, ReservationStatus
from bookings.models_operations import (
    Attendance, AttendanceStatus, BookingPreferences, ReminderKind, ReservationReminder, WaitlistEntry,
)
from courses.models import ClosurePeriod, CourseSession, SessionSeries
from messaging.models import RentalRequestEvent, RoomRentalRequest
from payments.models import PaymentOrder, PaymentStatus
from studio.quotes import RequestEventKind

with transaction.atomic():
    now = timezone.now()
    admin = User.objects.filter(role=Role.ADMIN).order_by("id").first()
    member = User.objects.filter(email="membre@studio-pole-danse.fr").get()
    other = User.objects.create_user("ines.moreau@example.fr", first_name="Inès", last_name="Moreau")

    for reservation, status in zip(
        Reservation.objects.filter(session__start__lt=now).order_by("id"),
        [AttendanceStatus.PRESENT, AttendanceStatus.ABSENT],
    ):
        Attendance.objects.create(reservation=reservation, status=status, marked_by=admin)
    upcoming = Reservation.objects.filter(session__start__gt=now).order_by("session__start").first()
    ReservationReminder.objects.create(reservation=upcoming, kind=ReminderKind.DAY_BEFORE)
    WaitlistEntry.objects.create(session=upcoming.session, user=other)
    Reservation.objects.create(
        session=upcoming.session, user=other, unit_price=Decimal("20.00"), first_name="Inès", last_name="Moreau",
        email=other.email, status=ReservationStatus.CANCELLED, cancelled_at=now,
    )
    BookingPreferences.objects.create(user=member, remind_day_before=False, calendar_token=f"cal-{member.pk}")

    template = CourseSession.objects.filter(start__gt=now).order_by("start").first()
    series = SessionSeries.objects.create(
        course=template.course, weekdays=[template.start.weekday()],
        starts_on=(template.start + timedelta(weeks=20)).date(), ends_on=(template.start + timedelta(weeks=21)).date(),
    )
    for week in (20, 21):
        CourseSession.objects.create(
            course=template.course, start=template.start + timedelta(weeks=week),
            end=template.end + timedelta(weeks=week), instructor=template.instructor, level=template.level,
            series=series,
        )
    today = timezone.localdate()
    ClosurePeriod.objects.create(
        label="Vacances d'été", starts_on=today + timedelta(days=200), ends_on=today + timedelta(days=220)
    )

    party = PartyReservation.objects.order_by("id").first()
    rental = RoomRentalRequest.objects.order_by("id").first()
    PartyRequestEvent.objects.create(party=party, kind=RequestEventKind.SENT, actor=party.user)
    PartyRequestEvent.objects.create(party=party, kind=RequestEventKind.QUOTED, actor=admin, by_staff=True)
    RentalRequestEvent.objects.create(rental=rental, kind=RequestEventKind.SENT)
    for name, request in (("party", party), ("rental", rental)):
        PaymentOrder.objects.create(
            order_id=f"USE-{name.upper()}-{request.pk}", email=request.email, title=f"Acompte {name}",
            amount=Decimal("50.00"), date=str(request.date), status=PaymentStatus.COMPLETED, completed_at=now,
            user=request.user, **{name: request},
        )
        LogEntry.objects.create(
            user=admin, content_type=ContentType.objects.get_for_model(type(request)), object_id=str(request.pk),
            object_repr=str(request)[:200], action_flag=CHANGE, change_message="Devis envoyé",
        )

    session = SessionStore()
    session["_auth_user_id"] = str(member.pk)
    session.create()
print("studio used")
"""


def _git(*args, **kwargs):
    return subprocess.run(["git", "-C", str(REPO_ROOT), *args], capture_output=True, timeout=120, **kwargs)


def _extract_base_tree(destination):
    if shutil.which("git") is None:
        pytest.skip("git is not installed: the tree of the base commit cannot be extracted.")
    if _git("rev-parse", "--verify", "--quiet", f"{BASE_COMMIT}^{{commit}}").returncode != 0:
        pytest.skip(
            f"commit {BASE_COMMIT} is not in this checkout's history (a shallow clone or an export?): "
            "the schema to migrate from cannot be rebuilt."
        )
    archive = _git("archive", "--format=tar", BASE_COMMIT)
    assert archive.returncode == 0, archive.stderr.decode()
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(destination, filter="data")


def _server_params():
    settings = connection.settings_dict
    return {
        "host": settings["HOST"] or "127.0.0.1",
        "port": str(settings["PORT"] or 5432),
        "user": settings["USER"] or "postgres",
        "password": settings["PASSWORD"] or "",
    }


def _database_url(params, name):
    password = f":{params['password']}" if params["password"] else ""
    return f"postgres://{params['user']}{password}@{params['host']}:{params['port']}/{name}"


def _manage(tree, env, *args):
    completed = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT,
    )
    assert completed.returncode == 0, (
        f"`manage.py {' '.join(args)}` in {tree} failed ({completed.returncode}):\n"
        f"{completed.stdout[-4000:]}\n{completed.stderr[-4000:]}"
    )
    return completed.stdout


def _row_counts(conninfo):
    with psycopg.connect(**conninfo) as conn:
        tables = [
            row[0]
            for row in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
        ]
        return {
            table: conn.execute(sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(table))).fetchone()[0]
            for table in tables
        }


def _column_digests(conninfo, tables):
    """{table: {column: digest}}: each column's values as a sorted multiset, so that a value lost, changed or swapped
    for another (a foreign key re-pointed, a date shifted) shows even when the count is kept; a column renamed or
    added is only in one of the two and is not compared."""
    digests = {}
    with psycopg.connect(**conninfo) as conn:
        for table in tables:
            columns = [
                row[0]
                for row in conn.execute(
                    "SELECT column_name FROM information_schema.columns"
                    " WHERE table_schema = 'public' AND table_name = %s ORDER BY column_name",
                    [table],
                )
            ]
            parts = [
                sql.SQL("md5(coalesce(string_agg(quote_nullable({c}), ',' ORDER BY quote_nullable({c})), ''))").format(
                    c=sql.Identifier(column)
                )
                for column in columns
            ]
            query = sql.SQL("SELECT {} FROM {}").format(sql.SQL(", ").join(parts), sql.Identifier(table))
            digests[table] = dict(zip(columns, conn.execute(query).fetchone(), strict=True))
    return digests


def _sequences_behind_their_ids(conninfo, tables):
    """Tables whose id sequence would hand out an id already taken (a table rebuilt and its rows copied)."""
    behind = {}
    with psycopg.connect(**conninfo) as conn:
        with_ids = {
            row[0]
            for row in conn.execute(
                "SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'id'"
            )
        }
        for table in sorted(with_ids.intersection(tables)):
            sequence = conn.execute("SELECT pg_get_serial_sequence(%s, 'id')", [table]).fetchone()
            if not sequence or sequence[0] is None:
                continue
            top = conn.execute(sql.SQL("SELECT max(id) FROM {}").format(sql.Identifier(table))).fetchone()[0]
            last, called = conn.execute(
                sql.SQL("SELECT last_value, is_called FROM {}").format(sql.SQL(sequence[0]))
            ).fetchone()
            if top is not None and (last if called else last - 1) < top:
                behind[table] = f"max(id) {top}, sequence at {last}"
    return behind


def _ids(conninfo, table):
    with psycopg.connect(**conninfo) as conn:
        return {row[0] for row in conn.execute(sql.SQL("SELECT id FROM {}").format(sql.Identifier(table)))}


@pytest.fixture
def scratch_database():
    params = _server_params()
    name = f"keep_rows_{os.getpid()}_{secrets.token_hex(4)}"
    admin = {**params, "dbname": "postgres", "autocommit": True}
    with psycopg.connect(**admin) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield {"url": _database_url(params, name), "conninfo": {**params, "dbname": name}}
    finally:
        with psycopg.connect(**admin) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def test_migrating_a_studio_in_service_keeps_every_row(scratch_database, tmp_path):
    old_tree = tmp_path / "base"
    old_tree.mkdir()
    _extract_base_tree(old_tree)

    env = {key: value for key, value in os.environ.items() if key not in {"PYTHONPATH", "DJANGO_SETTINGS_MODULE"}}
    env.update(
        DJANGO_SETTINGS_MODULE="studio.settings.local",
        DJANGO_DEBUG="false",
        DATABASE_URL=scratch_database["url"],
        MEDIA_ROOT=str(tmp_path / "uploads"),
        PRIVATE_MEDIA_ROOT=str(tmp_path / "private-uploads"),
        CACHE_DIR=str(tmp_path / "cache"),
        REDIS_URL="",  # the file cache in tmp_path: nothing shared with another run
        TASKS_BACKEND="database",  # the tasks wait in the database, as a studio's queue does; no worker runs
        MAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
    )

    _manage(old_tree, env, "migrate", "--noinput", "-v", "0")
    _manage(old_tree, env, "seed_demo")
    assert "studio used" in _manage(old_tree, env, "shell", "-c", USE_STUDIO)

    conninfo = scratch_database["conninfo"]
    before = _row_counts(conninfo)
    empty = sorted(table for table in MUST_BE_FILLED if not before.get(table))
    assert not empty, f"the studio built by {BASE_COMMIT} left these tables empty: {empty}"
    compared = [table for table in before if table not in NOT_COMPARED | MAY_GROW | set(REWRITTEN_BY_DESIGN)]
    digests_before = _column_digests(conninfo, compared)
    content_types_before = _ids(conninfo, "django_content_type")
    permissions_before = _ids(conninfo, "auth_permission")

    _manage(REPO_ROOT, env, "migrate", "--noinput", "-v", "0")

    after = _row_counts(conninfo)
    lost = {}
    for table, count in before.items():
        if table in NOT_COMPARED:
            continue
        new_name = RENAMED_TABLES.get(table, table)
        if new_name not in after:
            lost[table] = f"{count} rows, table gone (renamed? list it in RENAMED_TABLES)"
        elif table in MAY_GROW and after[new_name] < count:
            lost[table] = f"{count} rows before, {after[new_name]} after"
        elif table not in MAY_GROW and after[new_name] != count:
            lost[table] = f"{count} rows before, {after[new_name]} after"
    assert not lost, f"migrating the studio of {BASE_COMMIT} changed these tables: {lost}"
    present = [table for table in compared if RENAMED_TABLES.get(table, table) in after]
    digests_after = _column_digests(conninfo, [RENAMED_TABLES.get(table, table) for table in present])
    changed = {
        table: sorted(
            column
            for column, digest in digests_before[table].items()
            if digests_after[RENAMED_TABLES.get(table, table)].get(column, digest) != digest
        )
        for table in present
    }
    changed = {table: columns for table, columns in changed.items() if columns}
    assert not changed, (
        f"migrating the studio of {BASE_COMMIT} changed the values of these columns (on purpose? list the table in "
        f"REWRITTEN_BY_DESIGN): {changed}"
    )
    behind = _sequences_behind_their_ids(conninfo, sorted(after))
    assert not behind, f"the next row would reuse an id: {behind}"
    # Renamed in place (a moved model's content type takes its new app label), never deleted: the admin log and the
    # permissions point at them by id.
    assert content_types_before <= _ids(conninfo, "django_content_type")
    assert permissions_before <= _ids(conninfo, "auth_permission")

    _manage(REPO_ROOT, env, "migrate", "--check", "--noinput")
    unapplied = [line for line in _manage(REPO_ROOT, env, "showmigrations", "--list").splitlines() if "[ ]" in line]
    assert not unapplied, unapplied
