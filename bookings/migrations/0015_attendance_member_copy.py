"""On PostgreSQL, each attendance carries a copy of its reservation's member, kept by the database itself (since removed by 0017).

Why: the staff's users list counts each listed member's no-shows (selectors_attendance.user_no_shows_annotation).
Through the reservation, PostgreSQL walks every booking of each member (~38 for the bench's first page) and probes
the absences' index for each: ~850 shared buffers, ~0.45 ms of the database's CPU of every request. With the member
on the absence, it is one probe of an index of absences by member per listed member.

What: a column `member_id` on bookings_attendance that the models do not declare (Django never reads or writes it:
its INSERTs and UPDATEs name their own columns), an index of the absences by it, and two triggers that keep it equal
to bookings_reservation.user_id whatever writes the rows (the ORM, a bulk insert, raw SQL):
- an attendance inserted, or moved to another reservation, copies its reservation's member (BEFORE INSERT, BEFORE
  UPDATE OF reservation_id). It reads the reservation FOR KEY SHARE: the lock the foreign key's check takes on the
  same row in the same statement anyway, taken before the member is read;
- a reservation whose member changes (no service does; the Django admin or raw SQL could) writes it onto its
  attendance (BEFORE UPDATE OF user_id, when it differs), after locking its own row FOR UPDATE. That lock waits for
  a transaction that has inserted the reservation's attendance and not yet ended (it holds KEY SHARE), so the
  UPDATE, run after, sees its row; an insert that comes later waits for this one to end, then reads the new member.
  The lock order stays the documented one (bookings/services/locking.py): the reservation, then its attendance.
bookings/tests/test_attendance_member_copy.py proves both orders of that race and every way of writing the rows.

SQLite keeps the join (the annotation reads the column on PostgreSQL only), as bookings 0014 does: SQLite remakes a
table when a migration alters it, which drops its triggers."""

from django.db import migrations

FORWARD = [
    statement.strip()
    for statement in """
ALTER TABLE "bookings_attendance" ADD COLUMN "member_id" bigint;

CREATE FUNCTION "bookings_attendance_member"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT r."user_id" INTO NEW."member_id" FROM "bookings_reservation" r WHERE r."id" = NEW."reservation_id"
        FOR KEY SHARE;
    RETURN NEW;
END
$$;

CREATE TRIGGER "attendance_member_inserted" BEFORE INSERT ON "bookings_attendance"
    FOR EACH ROW EXECUTE FUNCTION "bookings_attendance_member"();

CREATE TRIGGER "attendance_member_moved" BEFORE UPDATE OF "reservation_id" ON "bookings_attendance"
    FOR EACH ROW WHEN (OLD."reservation_id" IS DISTINCT FROM NEW."reservation_id")
    EXECUTE FUNCTION "bookings_attendance_member"();

CREATE FUNCTION "bookings_reservation_member_to_attendance"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM "bookings_reservation" WHERE "id" = NEW."id" FOR UPDATE;
    UPDATE "bookings_attendance" SET "member_id" = NEW."user_id" WHERE "reservation_id" = NEW."id";
    RETURN NEW;
END
$$;

CREATE TRIGGER "reservation_member_to_attendance" BEFORE UPDATE OF "user_id" ON "bookings_reservation"
    FOR EACH ROW WHEN (OLD."user_id" IS DISTINCT FROM NEW."user_id")
    EXECUTE FUNCTION "bookings_reservation_member_to_attendance"();

UPDATE "bookings_attendance" a SET "member_id" = r."user_id" FROM "bookings_reservation" r
    WHERE r."id" = a."reservation_id";

CREATE INDEX "attendance_absent_member_idx" ON "bookings_attendance" ("member_id") WHERE "status" = 'absent'
""".split("\n\n")
]

BACKWARD = [
    statement.strip()
    for statement in """
DROP INDEX "attendance_absent_member_idx";
DROP TRIGGER "reservation_member_to_attendance" ON "bookings_reservation";
DROP FUNCTION "bookings_reservation_member_to_attendance"();
DROP TRIGGER "attendance_member_moved" ON "bookings_attendance";
DROP TRIGGER "attendance_member_inserted" ON "bookings_attendance";
DROP FUNCTION "bookings_attendance_member"();
ALTER TABLE "bookings_attendance" DROP COLUMN "member_id"
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
        ("bookings", "0014_reservation_session_start_copy"),
    ]

    operations = [migrations.RunPython(forward, backward, elidable=False)]
