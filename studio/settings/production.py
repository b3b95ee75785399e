"""Production: every secret and service from the environment (README, "Déploiement")."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import REDIS_URL, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, env

if not REDIS_URL and not env.bool("DJANGO_ALLOW_UNSHARED_CACHE", default=False):
    # docs/decisions.md 31: the rate limits, the per-recipient e-mail cap and the login throttle count in the cache. A
    # per-process memory cache gives each gunicorn worker its own counters, so the limits would not hold.
    raise ImproperlyConfigured(
        "REDIS_URL is required in production: the rate limits (public forms, e-mails per recipient, login "
        "attempts) need a cache shared by every worker process. Set REDIS_URL=redis://host:6379/0 "
        "(DJANGO_ALLOW_UNSHARED_CACHE=true is for single-process measurements only: the limits then do not hold)."
    )

if STRIPE_SECRET_KEY and not STRIPE_WEBHOOK_SECRET:
    # docs/decisions.md 42: a SEPA debit is paid only when its payment_intent.succeeded arrives, and only a verified
    # webhook can say so; without the endpoint's secret every delivery would be refused and no debit ever paid.
    raise ImproperlyConfigured(
        "STRIPE_WEBHOOK_SECRET is required in production when STRIPE_SECRET_KEY is set: Stripe's webhooks are "
        "verified with it (the endpoint's whsec_… secret, Stripe Dashboard > Developers > Webhooks)."
    )

DEBUG = False
SECRET_KEY = env("DJANGO_SECRET_KEY")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]  # a monitor may ask over plain HTTP, inside
SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=True)

MAILERS = {
    "default": {
        "BACKEND": env("MAIL_BACKEND", default="django.core.mail.backends.smtp.EmailBackend"),
        "OPTIONS": {
            "host": env("EMAIL_HOST", default="localhost"),
            "port": env.int("EMAIL_PORT", default=587),
            "username": env("EMAIL_HOST_USER", default=""),
            "password": env("EMAIL_HOST_PASSWORD", default=""),
            "use_tls": env.bool("EMAIL_USE_TLS", default=True),
            "timeout": env.int("EMAIL_TIMEOUT", default=10),
        },
    }
}

LOG_LEVEL = env("LOG_LEVEL", default="INFO")  # noqa: F405
LOGGING["root"]["level"] = LOGGING["handlers"]["console"]["level"] = LOG_LEVEL  # noqa: F405
