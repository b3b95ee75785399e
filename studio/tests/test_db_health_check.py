"""Django's health check of persistent PostgreSQL connections (CONN_HEALTH_CHECKS): a connection the server ended
is replaced before the request uses it."""

import select

import psycopg
import pytest
from django.db import connections

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def postgresql_only():
    if connections["default"].vendor != "postgresql":
        pytest.skip("the health check of PostgreSQL connections needs PostgreSQL")


@pytest.fixture
def health_checks(monkeypatch):
    connection = connections["default"]  # the wrapper itself (django.db.connection is a proxy)
    monkeypatch.setattr(connection, "health_check_enabled", True)
    calls = []
    original = type(connection).is_usable
    monkeypatch.setattr(connection, "is_usable", lambda: calls.append("SELECT 1") or original(connection))
    return calls


def backend_pid() -> int:
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def new_request():
    """What Django does when a request starts (request_started -> close_old_connections)."""
    connections["default"].close_if_unusable_or_obsolete()


def test_a_connection_the_server_ended_is_replaced_before_the_request_uses_it(health_checks):
    connection = connections["default"]
    pid = backend_pid()
    settings = connection.settings_dict
    with psycopg.connect(
        host=settings["HOST"] or None, port=settings["PORT"] or None, user=settings["USER"],
        dbname=settings["NAME"], autocommit=True,
    ) as other:  # fmt: skip
        assert other.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone()[0] is True
    poller = select.poll()
    poller.register(connection.connection.fileno(), select.POLLIN)
    assert poller.poll(10_000), "the server's farewell never reached the socket"

    new_request()
    assert backend_pid() != pid  # a new connection, and the request's query did not fail
    assert health_checks == ["SELECT 1"]
