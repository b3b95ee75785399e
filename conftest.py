"""Project-wide fixtures: users by role, PostgreSQL-only marker, and the Playwright browser on Debian's Chromium."""

import os

import pytest
from django.conf import settings
from django.db import connection

# Playwright's sync API runs an event loop in the test thread; the ORM calls the tests make are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("postgres"):
            item.add_marker(pytest.mark.django_db(transaction=True))


@pytest.fixture(autouse=True)
def _require_postgres(request):
    if request.node.get_closest_marker("postgres") and connection.vendor != "postgresql":
        pytest.skip(
            "needs PostgreSQL: SQLite ignores row locks. `make test` runs this on PostgreSQL at 127.0.0.1:5432."
        )


@pytest.fixture(autouse=True)
def _fresh_cache():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _media_root(tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path / "uploads"
    settings.PRIVATE_MEDIA_ROOT = tmp_path / "private-uploads"


@pytest.fixture
def member(db):
    from accounts.tests.factories import UserFactory

    return UserFactory(first_name="Emma", last_name="Petit", email="emma@example.fr")


@pytest.fixture
def other_member(db):
    from accounts.tests.factories import UserFactory

    return UserFactory(first_name="Lucie", last_name="Martin", email="lucie@example.fr")


@pytest.fixture
def staff(db):
    from accounts.tests.factories import StaffFactory

    return StaffFactory(first_name="Camille", last_name="Laurent")


@pytest.fixture
def supervisor(db):
    from accounts.tests.factories import SupervisorFactory

    return SupervisorFactory(first_name="Paul", last_name="Durand")


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


# --- Browser tests -------------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "locale": "fr-FR", "timezone_id": "Europe/Paris"}


@pytest.fixture
def login_as(live_server, context):
    """Open a browser session for `user` without going through the login form."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    def _login(user):
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.save()
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": live_server.url}]
        )
        return user

    return _login
