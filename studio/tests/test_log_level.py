"""LOG_LEVEL silences what is below it: a member told a class is full (a 409, which Django reports as a warning)
writes nothing to the console of a site run at LOG_LEVEL=ERROR, and an error still does."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOG = (
    "import django, logging; django.setup(); "
    "logging.getLogger('django.request').warning('Conflict: /api/reservations-courses'); "
    "logging.getLogger('django.request').error('Internal Server Error: /api/reservations-courses')"
)


@pytest.mark.parametrize("settings_module", ["studio.settings.test", "studio.settings.production"])
def test_log_level_error_keeps_warnings_off_the_console(settings_module):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": settings_module,
        "LOG_LEVEL": "ERROR",
        "DJANGO_SECRET_KEY": "a-long-enough-secret-key-for-the-production-settings-0123456789",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_ALLOW_UNSHARED_CACHE": "true",
    }
    done = subprocess.run([sys.executable, "-c", LOG], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Conflict" not in done.stderr
    assert "Internal Server Error: /api/reservations-courses" in done.stderr
