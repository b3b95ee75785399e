"""Error reports without personal data.

With SENTRY_DSN set, errors of pages, APIs and tasks go to that Sentry-compatible service (sentry-sdk's Django and
logging integrations: the worker logs a failed task as an error, which becomes an event). Personal data is kept out:
`send_default_pii=False` (no user, cookies, addresses), no local variables, no request bodies, and `scrub_event`
masks every e-mail address and the connected person's names wherever they appear (an exception's message, a SQL
breadcrumb's parameters).

Without it, a page's or a task's error is mailed to OPERATIONS_EMAILS through the outbox, scrubbed the same way, once
per kind of error an hour and at most ERROR_EMAILS_PER_HOUR in all (a failing page under load must not flood anyone)."""

import contextvars
import logging
import re
import traceback

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

_request = contextvars.ContextVar("operations_request", default=None)

EMAIL = re.compile(r"[\w.+'-]+@[\w-]+(?:\.[\w-]+)+", re.UNICODE)
EMAIL_MASK = "[e-mail]"
NAME_MASK = "[nom]"
ERROR_MAIL_SUBJECT = "Erreur sur le site : {summary}"


class ReportingContextMiddleware:
    """Remembers the request being answered, so that a report can mask whose names it must not carry."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _request.set(request)
        try:
            return self.get_response(request)
        finally:
            _request.reset(token)


def _connected_names() -> list[str]:
    request = _request.get()
    user = getattr(request, "user", None) if request is not None else None
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    words = {user.get_full_name(), getattr(user, "first_name", ""), getattr(user, "last_name", "")}
    words |= {getattr(user, "email", ""), getattr(user, "username", "")}
    # The longest first: "Emma Petit" is masked whole before "Emma" alone.
    return sorted((w for w in words if w and len(w) >= 2), key=len, reverse=True)


def scrub_text(text: str, names: list[str]) -> str:
    text = EMAIL.sub(EMAIL_MASK, text)
    for name in names:
        text = re.sub(re.escape(name), NAME_MASK, text, flags=re.IGNORECASE)
    return text


def _scrub(value, names):
    if isinstance(value, str):
        return scrub_text(value, names)
    if isinstance(value, dict):
        return {key: _scrub(item, names) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_scrub(item, names) for item in value]
    return value


def scrub_event(event, hint=None):
    """sentry-sdk's before_send: no user, no cookies, no body, and no e-mail address or name left in any text."""
    names = _connected_names()
    event.pop("user", None)
    request = event.get("request")
    if isinstance(request, dict):
        for key in ("cookies", "data", "env"):
            request.pop(key, None)
        headers = request.get("headers") or {}
        request["headers"] = {
            key: value
            for key, value in headers.items()
            if key.lower() not in ("cookie", "authorization", "x-csrftoken")
        }
    return _scrub(event, names)


def sentry_setup(dsn: str | None = None) -> bool:
    """Start sentry-sdk when a DSN is configured (the app's ready(); a test passes its fake endpoint)."""
    dsn = dsn if dsn is not None else getattr(settings, "SENTRY_DSN", "")
    if not dsn:
        return False
    import sentry_sdk
    from sentry_sdk.integrations.django import DjangoIntegration
    from sentry_sdk.integrations.logging import LoggingIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=getattr(settings, "SENTRY_ENVIRONMENT", "production"),
        integrations=[DjangoIntegration(), LoggingIntegration(level=logging.INFO, event_level=logging.ERROR)],
        send_default_pii=False,
        include_local_variables=False,
        max_request_body_size="never",
        before_send=scrub_event,
        traces_sample_rate=0,
    )
    return True


def sentry_enabled() -> bool:
    try:
        import sentry_sdk
    except ImportError:  # pragma: no cover - sentry-sdk is in requirements.txt
        return False
    return sentry_sdk.get_client().is_active()


class OutboxErrorHandler(logging.Handler):
    """The errors of pages (django.request) and of tasks (django.tasks, the worker), mailed through the outbox when no
    Sentry-compatible service takes them."""

    def emit(self, record):
        try:
            if record.exc_info is None or sentry_enabled() or not getattr(settings, "ERROR_EMAILS_PER_HOUR", 0):
                return  # only exceptions: a view's own 5xx answer (a 503 it meant) is no error to report
            error_mail_queue(record)
        except Exception:  # noqa: BLE001 - reporting an error must never raise another one in the page
            self.handleError(record)


def error_mail_queue(record) -> bool:
    names = _connected_names()
    exc_type, exc, tb = record.exc_info or (None, None, None)
    summary = f"{exc_type.__name__}: {exc}" if exc_type else record.getMessage()
    summary = scrub_text(summary, names)[:200]
    where = f"{record.pathname}:{record.lineno}"
    if tb is not None:
        last = traceback.extract_tb(tb)[-1]
        where = f"{last.filename}:{last.lineno}"
    kind_key = f"operations:error-mail:{exc_type.__name__ if exc_type else record.msg}:{where}"[:240]
    if not cache.add(kind_key, 1, 3600):
        return False  # this error was mailed in the last hour
    hour_key = f"operations:error-mails:{timezone.now():%Y%m%d%H}"
    cache.add(hour_key, 0, 3600)
    if cache.incr(hour_key) > settings.ERROR_EMAILS_PER_HOUR:
        return False
    request = getattr(record, "request", None)
    # Imported here: logging builds this handler while the settings load, before the models can be imported.
    from studio.emails import send_templated_email

    send_templated_email(
        to=settings.OPERATIONS_EMAILS,
        subject=ERROR_MAIL_SUBJECT.format(summary=summary[:120]),
        template="operations_error",
        context={
            "summary": summary,
            "origin": (
                f"{request.method} {scrub_text(request.path, names)}"
                if request is not None
                else f"tâche d'arrière-plan : {scrub_text(record.getMessage(), names)}"
            ),
            "occurred_at": timezone.now(),
            "traceback": scrub_text("".join(traceback.format_exception(exc_type, exc, tb)) if exc_type else "", names),
        },
        topic="operations.error",
    )
    return True
