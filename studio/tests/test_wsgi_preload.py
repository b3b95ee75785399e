"""gunicorn loads the site once in its master before forking the workers (gunicorn.conf.py's preload_app): loading
it imports every view, so a new or recycled worker answers its first request at once, and opens no database or cache
connection that the forked workers would then share."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOAD = """
import sys
exec(open("gunicorn.conf.py").read(), (namespace := {}))
assert namespace["preload_app"] is True, "preload_app"
import studio.wsgi
from django.core.cache import caches
from django.db import connections
assert "bookings.apis.reservations" in sys.modules and "payments.apis.checkout" in sys.modules, "views imported"
assert all(c.connection is None for c in connections.all()), "a database connection was opened"
assert all(not getattr(getattr(c, "_cache", None), "_pools", None) for c in caches.all()), "a cache connection"
print("ok")
"""


def test_loading_the_site_imports_every_view_and_connects_to_nothing():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "studio.settings.production",
        "DJANGO_SECRET_KEY": "a-long-enough-secret-key-for-the-production-settings-0123456789",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_ALLOW_UNSHARED_CACHE": "true",
    }
    env.pop("GUNICORN_PRELOAD", None)
    done = subprocess.run([sys.executable, "-c", LOAD], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("ok")
