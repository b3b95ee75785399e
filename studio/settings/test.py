import os

from .base import *  # noqa: F403
from .base import BASE_DIR, env

DEBUG = False
SECRET_KEY = "test-secret-key-not-for-production-0123456789abcdef"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
# Tasks run at once when enqueued (after the commit, see conftest.py); the tests of the queue itself switch to the
# database backend and run the worker in-process.
TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
CRONTASK = {}
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tests"}}
MEDIA_ROOT = env.path("TEST_MEDIA_ROOT", default=BASE_DIR / ".test-uploads")
PRIVATE_MEDIA_ROOT = env.path("TEST_PRIVATE_MEDIA_ROOT", default=BASE_DIR / ".test-private-uploads")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "dbbackup": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": str(BASE_DIR / ".test-backups")},
    },
}
SENTRY_DSN = ""
ERROR_EMAILS_PER_HOUR = 0  # a page's error mails nobody in the suite; the reporting tests switch it on
DBBACKUP_GPG_RECIPIENT = None
PAYPAL_CLIENT_ID = ""
PAYPAL_CLIENT_SECRET = ""
# Tests reach Stripe only through the fake (payments/tests/fake_stripe.py), never with keys from the environment.
STRIPE_SECRET_KEY = ""
STRIPE_WEBHOOK_SECRET = ""
STRIPE_API_BASE = "http://127.0.0.1:9"
# The API speaks JSON: a test client sends JSON unless a test says multipart (uploads).
REST_FRAMEWORK = {  # noqa: F405
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None},
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

# Rate limits and the e-mail cap are off for the suite; the tests of the limits switch them on (security/conftest.py).
RATELIMIT_ENABLE = False
EMAILS_PER_RECIPIENT_PER_HOUR = None
# The suite books classes months and years ahead (frozen clocks): sessions open for booking a century before; the
# booking windows' own tests set the studio's 14 days (bookings/tests/test_booking_windows.py).
BOOKING_OPENS_DAYS_BEFORE = 36500

# Browser tests hit the live server from several threads at once. SQLite's shared-cache in-memory test database
# answers "database table is locked" under that concurrency; a file with a busy timeout waits instead.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f".test-db-{os.getpid()}.sqlite3")}  # noqa: F405
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    # One test database per run, so that two runs on one machine (a developer and CI, or parallel checks) never
    # drop each other's database.
    DATABASES["default"]["TEST"] = {"NAME": f"test_studio_{os.getpid()}"}  # noqa: F405

# The tests' local push service (notifications/tests/push_service.py) listens on plain http.
WEBPUSH_ALLOW_HTTP_ENDPOINTS = True
# Off by default so that the suite does not depend on the hour it runs at; the tests of the quiet hours turn them
# on (`settings.QUIET_HOURS = ((22, 0), (8, 0))`).
QUIET_HOURS = None
