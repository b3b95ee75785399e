"""On PostgreSQL, each reservation carries a copy of its session's start, kept by the database itself (since removed by 0017).

Why: the member's history (bookings/member_history.py) orders the member's reservations by their session's start;
without the copy PostgreSQL looks up the start of each of them (~210 for the bench's member) in the sessions' index.
EXPLAIN (ANALYZE, BUFFERS) of its first page on the bench's data: shared buffers 563 -> 137, execution about halved.

What: a column `session_start` on bookings_reservation that the models do not declare (Django never reads or writes
it: its INSERTs and UPDATEs name their own columns), and two triggers that keep it equal to
courses_coursesession.start whatever writes the rows (the ORM, a bulk update, raw SQL):
- a reservation inserted, or moved to another session, copies its session's start (BEFORE INSERT, BEFORE UPDATE OF
  session_id). It reads the session FOR KEY SHARE: the lock the foreign key's check takes on the same row in the same
  statement anyway, taken before the start is read;
- a session whose start changes writes it onto its reservations (BEFORE UPDATE OF start, when it differs), after
  locking its own row FOR UPDATE. That lock waits for every transaction that has inserted a reservation of the
  session and not yet ended (they hold KEY SHARE), so the UPDATE, run after, sees their rows; and an insert that
  comes later waits for this one to end, then reads the new start. The lock order stays the documented one
  (payments/services/locking.py): the session, then its reservations.
bookings/tests/test_reservation_session_start.py proves both orders of that race and every way of writing the rows.

SQLite keeps the join (member_history reads the column on PostgreSQL only): SQLite remakes a table when a migration
alters it, which drops its triggers, and the embedded set-up does not need the speed."""

from django.db import migrations

FORWARD = [
    statement.strip()
    for statement in """
ALTER TABLE "bookings_reservation" ADD COLUMN "session_start" timestamp with time zone;

CREATE FUNCTION "bookings_reservation_session_start"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT s."start" INTO NEW."session_start" FROM "courses_coursesession" s WHERE s."id" = NEW."session_id"
        FOR KEY SHARE;
    RETURN NEW;
END
$$;

CREATE TRIGGER "reservation_session_start_inserted" BEFORE INSERT ON "bookings_reservation"
    FOR EACH ROW EXECUTE FUNCTION "bookings_reservation_session_start"();

CREATE TRIGGER "reservation_session_start_moved" BEFORE UPDATE OF "session_id" ON "bookings_reservation"
    FOR EACH ROW WHEN (OLD."session_id" IS DISTINCT FROM NEW."session_id")
    EXECUTE FUNCTION "bookings_reservation_session_start"();

CREATE FUNCTION "bookings_session_start_to_reservations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM "courses_coursesession" WHERE "id" = NEW."id" FOR UPDATE;
    UPDATE "bookings_reservation" SET "session_start" = NEW."start" WHERE "session_id" = NEW."id";
    RETURN NEW;
END
$$;

CREATE TRIGGER "session_start_to_reservations" BEFORE UPDATE OF "start" ON "courses_coursesession"
    FOR EACH ROW WHEN (OLD."start" IS DISTINCT FROM NEW."start")
    EXECUTE FUNCTION "bookings_session_start_to_reservations"();

UPDATE "bookings_reservation" r SET "session_start" = s."start" FROM "courses_coursesession" s
    WHERE s."id" = r."session_id"
""".split("\n\n")
]

BACKWARD = [
    statement.strip()
    for statement in """
DROP TRIGGER "session_start_to_reservations" ON "courses_coursesession";
DROP FUNCTION "bookings_session_start_to_reservations"();
DROP TRIGGER "reservation_session_start_moved" ON "bookings_reservation";
DROP TRIGGER "reservation_session_start_inserted" ON "bookings_reservation";
DROP FUNCTION "bookings_reservation_session_start"();
ALTER TABLE "bookings_reservation" DROP COLUMN "session_start"
""".split(";\n")
]


def _run(schema_editor, statements):
    if schema_editor.connection.vendor == "postgresql":
        for statement in statements:  # one at a time, without parameters (the bodies hold `;`)
            schema_editor.execute(statement, params=None)


def forward(apps, schema_editor):
    _run(schema_editor, FORWARD)


def backward(apps, schema_editor):
    _run(schema_editor, BACKWARD)


class Migration(migrations.Migration):
    dependencies = [
        ("bookings", "0013_users_list_no_show_indexes"),
    ]

    operations = [migrations.RunPython(forward, backward, elidable=False)]
