"""The request path is Django's and django-cors-headers' own, as shipped: the settings name their classes for the
middleware, the session engine, the cache backend and the database engine, and the site answers with their headers.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.middleware.csp import ContentSecurityPolicyMiddleware
from django.test import Client, RequestFactory
from django.utils.csp import build_policy

from accounts.models import User
from accounts.tests.factories import StaffFactory, UserFactory
from studio import decorators

ROOT = Path(__file__).resolve().parent.parent.parent


def _production_like_settings() -> dict:
    """The base settings as a deployment with PostgreSQL and Redis loads them (nothing is connected to)."""
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; print(json.dumps({"
        "'middleware': s.MIDDLEWARE, 'session': s.SESSION_ENGINE, 'cache': s.CACHES['default']['BACKEND'],"
        "'db': s.DATABASES['default']"
        "}, default=str))"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "studio.settings.base",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
        "DATABASE_URL": "postgres://studio@127.0.0.1:5432/studio",
    }
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_the_settings_name_djangos_own_classes():
    found = _production_like_settings()
    own_prefixes = ("django.", "corsheaders.", "whitenoise.")
    stock = [name for name in found["middleware"] if name.startswith(own_prefixes)]
    assert stock == [
        "django.middleware.security.SecurityMiddleware",
        "whitenoise.middleware.WhiteNoiseMiddleware",
        "django.middleware.gzip.GZipMiddleware",
        "corsheaders.middleware.CorsMiddleware",
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.locale.LocaleMiddleware",
        "django.middleware.common.CommonMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
        "django.contrib.messages.middleware.MessageMiddleware",
        "django.middleware.clickjacking.XFrameOptionsMiddleware",
        "django.middleware.csp.ContentSecurityPolicyMiddleware",
    ]
    assert found["session"] == "django.contrib.sessions.backends.cached_db"
    assert found["cache"] == "django.core.cache.backends.redis.RedisCache"
    assert found["db"]["ENGINE"] == "django.db.backends.postgresql"
    assert found["db"]["CONN_HEALTH_CHECKS"] is True and found["db"]["CONN_MAX_AGE"] > 0


@pytest.mark.django_db
def test_a_message_reaches_the_next_page():
    client = Client()
    client.force_login(UserFactory())
    response = client.post("/logout", follow=True)
    assert 'class="django-messages"' in response.text
    assert 'class="django-messages"' not in client.get("/tarifs").text  # shown once


@pytest.mark.django_db
def test_a_page_has_the_headers_of_the_stock_middleware():
    client = Client()
    client.force_login(StaffFactory())
    response = client.get("/admin/dashboard")
    assert response.status_code == 200
    assert response["Vary"] == "Cookie, Accept-Language, origin, Accept-Encoding"
    assert response["Content-Language"] == "fr"
    assert response["Content-Security-Policy"].startswith("default-src 'self'")


@pytest.mark.django_db
def test_the_site_sends_its_policy(client):
    assert client.get("/contact")["Content-Security-Policy"] == build_policy(settings.SECURE_CSP, None)


def test_a_page_that_used_its_nonce_gets_it_in_its_header():
    middleware = ContentSecurityPolicyMiddleware(lambda request: HttpResponse("ok"))
    headers = []
    for _ in range(2):
        request = RequestFactory().get("/")
        middleware.process_request(request)
        nonce = str(request._csp_nonce)
        header = middleware.process_response(request, HttpResponse("ok"))["Content-Security-Policy"]
        assert f"'nonce-{nonce}'" in header
        headers.append(header)
    assert headers[0] != headers[1]


@pytest.mark.django_db
def test_a_logged_in_page_has_the_user_itself(monkeypatch):
    seen = []
    real = decorators._logged_in
    monkeypatch.setattr(decorators, "_logged_in", lambda request: (real(request), seen.append(request.user))[0])
    for factory, path in [(UserFactory, "/my-courses"), (StaffFactory, "/admin/dashboard")]:
        client = Client()
        client.force_login(factory())
        assert client.get(path).status_code == 200
    assert [type(user) for user in seen] == [User, User]
    assert Client().get("/my-courses").status_code == 302


def test_a_visitor_stays_anonymous():
    request = RequestFactory().get("/my-courses")
    request.user = AnonymousUser()
    assert decorators._logged_in(request) is False and isinstance(request.user, AnonymousUser)
