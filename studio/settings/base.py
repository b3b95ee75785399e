"""Settings shared by every environment. One environ.Env() reads the environment."""

from .api import *  # noqa: F403  (REST framework, JWT, the OpenAPI schema, CORS)
from .environment import BASE_DIR, env
from .storage import *  # noqa: F403  (uploads, static files and backups)

SECRET_KEY = env("DJANGO_SECRET_KEY", default="insecure-local-key-change-me-in-production-0123456789")
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
SITE_URL = env("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "rest_framework",
    "rest_framework_simplejwt",
    "rest_framework_simplejwt.token_blacklist",
    "corsheaders",
    "drf_spectacular",
    "webpack_loader",
    "django_tasks_db",
    "crontask",
    "dbbackup",
    "studio",
    "operations",  # above the core only: backups, health checks, error reports, alerts to the admins
    "accounts",
    "courses",
    "offers",  # below payments, above quotes: promo codes and gift cards
    "waivers",  # beside courses, below bookings: the health questionnaire, the waiver and the house rules
    "bookings",
    "payments",
    "media_library",
    "messaging",
    "quotes",  # above bookings and messaging, below payments: requests answered with a quote and a deposit
    "invoices",  # above payments: invoices and credit notes of completed payments
    "privacy",  # above invoices: a member's data export and account deletion
    "project",  # the top: root URLs, sitemap, bench seed (may import every app; nothing imports it)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "studio.request_limits.RequestSizeLimitMiddleware",  # 413 before anything reads an oversized body
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files, already compressed (gzip and brotli) by collectstatic
    # Pages and API answers gzipped for browsers that ask (a phone on 4G gets the 28 KB home page as 7 KB), after the
    # page cache has answered: the cache keeps plain bytes for every client. Django's own BREACH mitigation applies.
    "django.middleware.gzip.GZipMiddleware",
    "studio.cache.PublicPageCacheMiddleware",  # cached public pages for visitors, before sessions and CSRF
    "corsheaders.middleware.CorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "operations.reporting.ReportingContextMiddleware",  # whose names an error report must not carry
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",  # the policy is SECURE_CSP, below
    "studio.pwa.AccountHeaderMiddleware",  # whose data the service worker keeps offline (docs/decisions.md 53)
    "studio.request_limits.RefusedMethodPageMiddleware",  # a page's empty 405 becomes a French page
]

ROOT_URLCONF = "project.urls"
WSGI_APPLICATION = "studio.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "studio.context_processors.studio",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Persistent connections: a new PostgreSQL connection per request cost more than most pages. Health checks
# drop a connection the server closed before it is reused. Each gunicorn worker keeps one connection; with many
# workers or hosts, PgBouncer in transaction mode sits in front of PostgreSQL (README, "Déploiement").
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=600)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves several threads or workers: wait for the write lock instead of failing, take it
    # at the start of a transaction (no upgrade deadlock), and let readers work during writes (WAL).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=20,
        transaction_mode="IMMEDIATE",
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend"]
LOGIN_URL = "/login"
LOGIN_REDIRECT_URL = "/"
# Argon2id first (Django's recommendation); hashes made by the others are upgraded at the member's next login. The
# parameters are in accounts/hashers.py.
PASSWORD_HASHERS = [
    "accounts.hashers.StudioArgon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 6}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", "Français")]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/uploads/"
MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / "uploads")
# Identity documents (reduced-rate proofs) live outside MEDIA_ROOT, which is served publicly; only their member and
# staff download them, through a view (media_library/private.py). Back it up with MEDIA_ROOT.
PRIVATE_MEDIA_ROOT = env.path("PRIVATE_MEDIA_ROOT", default=BASE_DIR / "private-uploads")


FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024

WEBPACK_LOADER = {
    "DEFAULT": {
        "STATS_FILE": BASE_DIR / "frontend" / "webpack-stats.json",
        "BUNDLE_DIR_NAME": "dist/",
        "CACHE": not DEBUG,
    }
}
# The files of each named dynamic import, written by the build beside the stats (`{% async_chunks %}`).
WEBPACK_ASYNC_CHUNKS_FILE = BASE_DIR / "frontend" / "webpack-async-chunks.json"

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = 7 * 24 * 3600  # "Se souvenir de moi"; otherwise the session ends with the browser
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "strict-origin-when-cross-origin"


# E-mail through Django 6.1's MAILERS: the console by default, SMTP in production.
MAILERS = {"default": {"BACKEND": env("MAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")}}
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Studio Pole Danse <no-reply@studio-pole-danse.fr>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

REDIS_URL = env("REDIS_URL", default="")
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    # Without Redis, Django's file cache: shared by every process on the machine (the gunicorn workers, the task
    # worker, the scheduler), so a change made in one drops the cached pages for all, and the rate limits and the
    # login lock-out count once per address whichever worker answers.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": env("CACHE_DIR", default=str(BASE_DIR / ".cache")),
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    }
PUBLIC_CACHE_SECONDS = env.int("PUBLIC_CACHE_SECONDS", default=600)

# Rate limits on the public forms and the per-recipient e-mail cap (docs/decisions.md 31, studio/ratelimit.py), counted
# in the default cache. TRUSTED_PROXY_COUNT: how many proxies in front of the app append to X-Forwarded-For
# (0: none, the client is REMOTE_ADDR; 1: one nginx or load balancer; README, "Déploiement").
RATELIMIT_ENABLE = env.bool("RATELIMIT_ENABLE", default=True)
RATELIMIT_IP_META_KEY = "studio.ratelimit.client_ip"
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
PUBLIC_FORM_RATES = {
    "contact": env("RATE_CONTACT", default="5/10m"),
    "rental": env("RATE_ROOM_RENTAL", default="5/h"),
    "register": env("RATE_REGISTER", default="5/h"),
    "forgot_password": env("RATE_FORGOT_PASSWORD", default="5/15m"),
    "resend": env("RATE_RESEND_CONFIRMATION", default="5/15m"),
    "gift_card_check": env("RATE_GIFT_CARD_CHECK", default="10/10m"),
    "promo_check": env("RATE_PROMO_CHECK", default="30/10m"),
}
EMAILS_PER_RECIPIENT_PER_HOUR = env.int("EMAILS_PER_RECIPIENT_PER_HOUR", default=5)
STAFF_NOTIFICATIONS_PER_HOUR = env.int("STAFF_NOTIFICATIONS_PER_HOUR", default=30)

# Background work (docs/decisions.md 41) through Django's task framework. The embedded default queues tasks in the
# database (django-tasks-db; worker: `manage.py db_worker`). TASKS_BACKEND=rq queues them in Redis instead
# (django-tasks-rq; workers on any machine: `manage.py rqworker default`), at TASKS_REDIS_URL or REDIS_URL.
TASKS_BACKEND = env("TASKS_BACKEND", default="database")
if TASKS_BACKEND == "rq":
    INSTALLED_APPS.append("django_rq")
    RQ_QUEUES = {"default": {"URL": env("TASKS_REDIS_URL", default=REDIS_URL or "redis://127.0.0.1:6379/0")}}
    RQ = {"JOB_CLASS": "django_tasks_rq.backend.Job"}  # the workers run Django tasks, not plain functions
    TASKS = {"default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": ["default"]}}
else:
    TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
# The scheduler (`manage.py crontask`) enqueues the periodic jobs. Every job is safe when two schedulers run it;
# with Redis configured, a lock there also keeps a second scheduler idle until the first stops.
if REDIS_URL:
    CRONTASK = {"REDIS_URL": REDIS_URL}
EMAIL_MAX_ATTEMPTS = env.int("EMAIL_MAX_ATTEMPTS", default=6)
# Sessions read from the cache, written through to the database, when the cache is one every worker
# shares: a per-process memory cache would keep serving a session another worker logged out.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db" if REDIS_URL else "django.contrib.sessions.backends.db"

# The studio's identity (docs/decisions.md 20): configuration with demo defaults.
STUDIO = {
    "name": env("STUDIO_NAME", default="Studio Pole Danse Lyon"),
    "phone": env("STUDIO_PHONE", default="04 78 00 00 00"),
    "email": env("STUDIO_EMAIL", default="contact@studio-pole-danse.fr"),
    "address": env("STUDIO_ADDRESS", default="12 rue de la République"),
    "postal_code": env("STUDIO_POSTAL_CODE", default="69002"),
    "city": env("STUDIO_CITY", default="Lyon"),
    "latitude": env.float("STUDIO_LATITUDE", default=45.7640),
    "longitude": env.float("STUDIO_LONGITUDE", default=4.8357),
    "facebook_url": env("STUDIO_FACEBOOK_URL", default="https://www.facebook.com/studiopoledanse"),
    "instagram_url": env("STUDIO_INSTAGRAM_URL", default="https://www.instagram.com/studiopoledanse"),
    "tiktok_url": env("STUDIO_TIKTOK_URL", default="https://www.tiktok.com/@studiopoledanse"),
    "reviews_widget_id": env("STUDIO_REVIEWS_WIDGET_ID", default="demo-widget"),
    "founder": env("STUDIO_FOUNDER", default="Camille Laurent"),
    # Opening hours in schema.org's form (days Mo Tu We Th Fr Sa Su, 24-hour times), for search engines' listing.
    "opening_hours": env.list("STUDIO_OPENING_HOURS", default=["Mo-Fr 14:00-22:00", "Sa 10:00-13:00"]),
}
# The terms of sale (docs/decisions.md 47): the studio's text is a template (headings and paragraphs only, so the
# purchase e-mail's PDF can carry it too); the version is recorded on each order that accepted it, so a new text
# needs a new version.
TERMS_OF_SALE = {
    "version": env("TERMS_OF_SALE_VERSION", default="2026-11"),
    "template": env("TERMS_OF_SALE_TEMPLATE", default="legal/cgv_demo.html"),
}
# The consumer mediator the legal notice names (Code de la consommation L612-1): configuration with demo values.
CONSUMER_MEDIATOR = {
    "name": env("CONSUMER_MEDIATOR_NAME", default="CM2C, Centre de la médiation de la consommation"),
    "address": env("CONSUMER_MEDIATOR_ADDRESS", default="14 rue Saint-Jean, 75017 Paris"),
    "website": env("CONSUMER_MEDIATOR_WEBSITE", default="https://www.cm2c.net"),
}
STAFF_NOTIFICATION_EMAIL = env("STAFF_NOTIFICATION_EMAIL", default=STUDIO["email"])
# Who hears of the site's own troubles (operations/alerts.py): a stopped scheduler or worker, a failed or missing
# backup, and (without SENTRY_DSN) the errors of pages. Not Django's ADMINS, whose handler would send in the request.
OPERATIONS_EMAILS = env.list("OPERATIONS_EMAILS", default=[STAFF_NOTIFICATION_EMAIL])
ERROR_EMAILS_PER_HOUR = env.int("ERROR_EMAILS_PER_HOUR", default=10)
# Error reports to a Sentry-compatible service (Sentry, GlitchTip…) when set; personal data scrubbed
# (operations/reporting.py).
SENTRY_DSN = env("SENTRY_DSN", default="")
SENTRY_ENVIRONMENT = env("SENTRY_ENVIRONMENT", default="production")
# The legal mentions of invoices and credit notes (docs/decisions.md 40): configuration with demo defaults,
# copied onto each document when it is issued (a later change never alters an issued invoice).
INVOICE_LEGAL = {
    "legal_name": env("INVOICE_LEGAL_NAME", default="Studio Pole Danse Lyon (EI Camille Laurent)"),
    "address": env("INVOICE_LEGAL_ADDRESS", default=f"{STUDIO['address']}, {STUDIO['postal_code']} {STUDIO['city']}"),
    "siret": env("INVOICE_SIRET", default="123 456 789 00012"),
    "vat_note": env("INVOICE_VAT_NOTE", default="TVA non applicable, art. 293 B du CGI"),
    "vat_number": env("INVOICE_VAT_NUMBER", default=""),
}
# The studio's VAT status for documents issued from `since` (a date, AAAA-MM-JJ; before it, `before`):
# franchise (en base, art. 293 B), exempt (art. 261-4-4° b) or taxable at `rate` % (docs/decisions.md 54).
INVOICE_VAT = {
    "status": env("INVOICE_VAT_STATUS", default="franchise"),
    "since": env("INVOICE_VAT_SINCE", default="") or None,
    "before": env("INVOICE_VAT_BEFORE", default="franchise"),
    "rate": env("INVOICE_VAT_RATE", default="20.00"),
}

# Business constants: the price per participant (docs/decisions.md 12), the seat hold (docs/decisions.md 13)
# and the cancellation window (docs/decisions.md 44).
DEFAULT_PRICE_PER_PARTICIPANT = "25.00"
SEAT_HOLD_MINUTES = env.int("SEAT_HOLD_MINUTES", default=15)
# The full-class answer reads a session's seat state from the shared cache between its changes
# (bookings/services/seat_state.py); false reads the database every time.
SEAT_STATE_CACHE = env.bool("SEAT_STATE_CACHE", default=True)
# The free-cancellation window of a new course (each course then has its own, docs/decisions.md 44).
CANCELLATION_WINDOW_HOURS = env.int("CANCELLATION_WINDOW_HOURS", default=24)
# A session opens for booking this many days before it starts, at this Paris time (a course may override both,
# docs/decisions.md 45).
BOOKING_OPENS_DAYS_BEFORE = env.int("BOOKING_OPENS_DAYS_BEFORE", default=14)
BOOKING_OPENS_AT = env("BOOKING_OPENS_AT", default="00:00")

# Payments (docs/decisions.md 15): PayPal when credentials exist, the simulator otherwise.
PAYPAL_CLIENT_ID = env("PAYPAL_CLIENT_ID", default="")
PAYPAL_CLIENT_SECRET = env("PAYPAL_CLIENT_SECRET", default="")
PAYPAL_WEBHOOK_ID = env("PAYPAL_WEBHOOK_ID", default="")
PAYPAL_MODE = env("PAYPAL_MODE", default="sandbox")  # sandbox or live
PAYPAL_API_BASE = env(
    "PAYPAL_API_BASE",
    default="https://api-m.paypal.com" if PAYPAL_MODE == "live" else "https://api-m.sandbox.paypal.com",
)
# Stripe (docs/decisions.md 42): cards, CB, Apple Pay, Google Pay and SEPA direct debit (payments/stripe_gateway.py).
# STRIPE_API_BASE points the gateway elsewhere only in tests (payments/tests/fake_stripe.py).
STRIPE_SECRET_KEY = env("STRIPE_SECRET_KEY", default="")
STRIPE_PUBLISHABLE_KEY = env("STRIPE_PUBLISHABLE_KEY", default="")
STRIPE_WEBHOOK_SECRET = env("STRIPE_WEBHOOK_SECRET", default="")
STRIPE_API_BASE = env("STRIPE_API_BASE", default="https://api.stripe.com")
# A subscription's SEPA debit: the pre-notification e-mail goes this many days before it; the simulator's bank settles
# a debit (paid, or returned for the failing test IBAN) this many days after it was sent (0 in a demonstration).
SUBSCRIPTION_SEPA_NOTICE_DAYS = env.int("SUBSCRIPTION_SEPA_NOTICE_DAYS", default=2)
SIMULATOR_SEPA_SETTLE_DAYS = env.int("SIMULATOR_SEPA_SETTLE_DAYS", default=3)

# Upload size limits per kind (docs/decisions.md 22), configurable.
MAX_IMAGE_UPLOAD_BYTES = env.int("MAX_IMAGE_UPLOAD_BYTES", default=10 * 1024 * 1024)
MAX_VIDEO_UPLOAD_BYTES = env.int("MAX_VIDEO_UPLOAD_BYTES", default=200 * 1024 * 1024)
MAX_AVATAR_UPLOAD_BYTES = env.int("MAX_AVATAR_UPLOAD_BYTES", default=5 * 1024 * 1024)
# Reduced-rate proofs (identity documents) a member may send in any hour; past it the API answers 429.
REDUCED_PROOFS_PER_HOUR = env.int("REDUCED_PROOFS_PER_HOUR", default=5)

# Content Security Policy through Django's built-in middleware. No inline scripts anywhere.
from django.utils.csp import CSP  # noqa: E402

SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:", "blob:", "https:"],
    "media-src": [CSP.SELF, "blob:", "https:"],
    "font-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "frame-src": [
        "https://www.google.com",
        "https://maps.google.com",
        "https://www.openstreetmap.org",
        "https://www.youtube-nocookie.com",
        "https://www.youtube.com",
        "https://player.vimeo.com",
        "https://www.facebook.com",
        "https://www.instagram.com",
        "https://www.tiktok.com",
        "https://www.paypal.com",
        "https://www.sandbox.paypal.com",
    ],
    "frame-ancestors": [CSP.NONE],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
}
# The attendance sheet's QR reader (qr-scanner) decodes in a worker it starts from a blob: URL of its own bundled code.
SECURE_CSP["worker-src"] = [CSP.SELF, "blob:"]
if PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET:
    # PayPal's JS SDK, fetched only when a payment starts (docs/decisions.md 18), and the hosts it talks to.
    SECURE_CSP["script-src"] += [
        "https://www.paypal.com",
        "https://www.sandbox.paypal.com",
        "https://*.paypalobjects.com",
    ]
    SECURE_CSP["connect-src"] += ["https://*.paypal.com", "https://*.paypalobjects.com"]

# The level is the console handler's too: Django's own loggers (django.request reports every 4xx as a warning) pass
# records at INFO to the root's handlers whatever the root's level.
LOG_LEVEL = env("LOG_LEVEL", default="WARNING")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {
        "console": {"class": "logging.StreamHandler", "level": LOG_LEVEL},
        # Without SENTRY_DSN, a page's or a task's error is mailed to OPERATIONS_EMAILS (outbox), a few an hour.
        "errors_by_email": {"class": "operations.reporting.OutboxErrorHandler", "level": "ERROR"},
    },
    "loggers": {
        "django.request": {"handlers": ["errors_by_email"], "level": "ERROR", "propagate": True},
        "django.tasks": {"handlers": ["errors_by_email"], "propagate": True},  # a failed task, in the worker
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
}

# Web Push (docs/decisions.md 53): the studio's VAPID key pair, base64url (the private key's 32 raw bytes, the public
# key's uncompressed point, which browsers take as `applicationServerKey`); `manage.py push_vapid_keys` makes a pair.
# Without them the site offers no push (e-mail stays). The subject is the contact push services may write to.
INSTALLED_APPS.append("notifications")  # beside courses, messaging and waivers: bookings pushes through it
WEBPUSH_VAPID_PUBLIC_KEY = env("WEBPUSH_VAPID_PUBLIC_KEY", default="")
WEBPUSH_VAPID_PRIVATE_KEY = env("WEBPUSH_VAPID_PRIVATE_KEY", default="")
WEBPUSH_VAPID_SUBJECT = env("WEBPUSH_VAPID_SUBJECT", default="mailto:contact@studio-pole-danse.fr")
# The worker posts pushes to the browser's push service: https only, except the tests' local push service.
WEBPUSH_ALLOW_HTTP_ENDPOINTS = env.bool("WEBPUSH_ALLOW_HTTP_ENDPOINTS", default=False)
# The push services' hosts (and their subdomains) a subscription may name: Chrome, Edge, Samsung and Opera (FCM),
# Firefox (Mozilla), Safari (Apple), older Edge (Windows). Anything else is refused (docs/decisions.md 61).
WEBPUSH_ENDPOINT_HOSTS = env.list(
    "WEBPUSH_ENDPOINT_HOSTS",
    default=[
        "fcm.googleapis.com",
        "android.googleapis.com",
        "push.services.mozilla.com",
        "push.apple.com",
        "notify.windows.com",
    ],
)
# Quiet hours, Paris time (docs/decisions.md 53): no push and no automatic booking from the first to the second.
QUIET_HOURS = ((22, 0), (8, 0))
