"""Security headers and the production settings' deploy check."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_pages_carry_security_headers(client):
    response = client.get("/")
    csp = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in csp.split(";") if " " in part.strip())
    assert "'self'" in directives["script-src"]
    assert "unsafe-inline" not in directives["script-src"]
    assert "unsafe-eval" not in directives["script-src"]
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "strict-origin-when-cross-origin"


@pytest.mark.django_db
def test_session_and_csrf_cookies_are_lax_and_session_is_httponly(settings):
    assert settings.SESSION_COOKIE_HTTPONLY is True
    assert settings.SESSION_COOKIE_SAMESITE == "Lax"
    assert settings.CSRF_COOKIE_SAMESITE == "Lax"


def test_production_settings_pass_check_deploy():
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DJANGO_SETTINGS_MODULE": "studio.settings.production",
        "DJANGO_SECRET_KEY": "a-long-random-production-secret-key-for-the-deploy-check-0123456789",
        "DJANGO_ALLOWED_HOSTS": "studio.example.fr",
        "DJANGO_CSRF_TRUSTED_ORIGINS": "https://studio.example.fr",
        "DATABASE_URL": "sqlite:////tmp/deploy-check.sqlite3",
        "REDIS_URL": "redis://127.0.0.1:6379/0",  # production needs a shared cache (docs/decisions.md 31)
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
