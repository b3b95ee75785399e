"""A freshly migrated PostgreSQL database holds no trigger of ours and no column the models do not declare: what the
database stores is what the models say, on PostgreSQL as on SQLite."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.postgres

COPY_COLUMNS = {"bookings_reservation": "session_start", "bookings_attendance": "member_id"}


def _user_triggers() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal")
        return cursor.fetchone()[0]


def _columns(table: str) -> set[str]:
    with connection.cursor() as cursor:
        return {column.name for column in connection.introspection.get_table_description(cursor, table)}


def _migrate(*targets) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(list(targets))


def _latest() -> tuple[str, str]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes("bookings")[0]


def test_a_migrated_database_has_no_trigger_and_no_undeclared_column():
    assert _user_triggers() == 0
    for table, column in COPY_COLUMNS.items():
        assert column not in _columns(table), table


def test_migrating_back_restores_the_earlier_schema_and_forward_drops_it_again():
    """The removal can be rolled back (and rolled back further, through the migrations that added them)."""
    latest = _latest()
    try:
        _migrate(("bookings", "0016_party_spectators_guest_of_honour"))
        assert _user_triggers() == 6
        assert all(column in _columns(table) for table, column in COPY_COLUMNS.items())
        _migrate(("bookings", "0013_users_list_no_show_indexes"))
        assert _user_triggers() == 0
    finally:
        # Every app's latest, not only bookings': migrating bookings back also unapplied the apps that depend on it
        # (quotes, then payments), which the rest of the suite needs.
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert MigrationExecutor(connection).loader.graph.leaf_nodes("bookings")[0] == latest
    assert _user_triggers() == 0
    assert not any(column in _columns(table) for table, column in COPY_COLUMNS.items())
