"""On PostgreSQL, drop the columns the models do not declare and the triggers that kept them: each reservation's copy
of its session's start (0014) and each attendance's copy of its reservation's member (0015), with their functions and
the absences' index by that member. The member's history and the users list's no-show counts read the sessions and
the reservations through the ORM's joins instead, the same on SQLite and PostgreSQL. SQLite never had them.

Reverse: the columns, triggers and index are created again and filled, as 0014 and 0015 left them, so that
migrating further back runs their own reverse."""

from importlib import import_module

from django.db import migrations

FORWARD = [
    'DROP TRIGGER IF EXISTS "session_start_to_reservations" ON "courses_coursesession"',
    'DROP TRIGGER IF EXISTS "reservation_session_start_moved" ON "bookings_reservation"',
    'DROP TRIGGER IF EXISTS "reservation_session_start_inserted" ON "bookings_reservation"',
    'DROP FUNCTION IF EXISTS "bookings_session_start_to_reservations"()',
    'DROP FUNCTION IF EXISTS "bookings_reservation_session_start"()',
    'ALTER TABLE "bookings_reservation" DROP COLUMN IF EXISTS "session_start"',
    'DROP TRIGGER IF EXISTS "reservation_member_to_attendance" ON "bookings_reservation"',
    'DROP TRIGGER IF EXISTS "attendance_member_moved" ON "bookings_attendance"',
    'DROP TRIGGER IF EXISTS "attendance_member_inserted" ON "bookings_attendance"',
    'DROP FUNCTION IF EXISTS "bookings_reservation_member_to_attendance"()',
    'DROP FUNCTION IF EXISTS "bookings_attendance_member"()',
    'DROP INDEX IF EXISTS "attendance_absent_member_idx"',
    'ALTER TABLE "bookings_attendance" DROP COLUMN IF EXISTS "member_id"',
]


def _on_postgresql(schema_editor, statements):
    if schema_editor.connection.vendor == "postgresql":
        for statement in statements:  # one at a time, without parameters (the function bodies hold `;` and `%`)
            schema_editor.execute(statement, params=None)


def forward(apps, schema_editor):
    _on_postgresql(schema_editor, FORWARD)


def backward(apps, schema_editor):
    for name in ("0014_reservation_session_start_copy", "0015_attendance_member_copy"):
        _on_postgresql(schema_editor, import_module(f"{__package__}.{name}").FORWARD)


class Migration(migrations.Migration):
    dependencies = [
        ("bookings", "0016_party_spectators_guest_of_honour"),
    ]

    operations = [migrations.RunPython(forward, backward, elidable=False)]
