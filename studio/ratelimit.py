"""Rate limits on the public forms that write or mail, and a per-recipient cap on e-mails (docs/decisions.md 31).

The counting is django-ratelimit's (`is_ratelimited`: fixed windows in the cache, atomic `incr`), used the same way
by the API (a DRF throttle class) and by the no-JavaScript pages (a view decorator), so that one visitor has one
quota per form whichever way they post. The counters live in the default cache: production refuses to start
without a shared one (Redis, studio/settings/production.py), or each worker would count on its own.
"""

import functools
import hashlib
import ipaddress

from django.conf import settings
from django.core.cache import cache
from django.shortcuts import render
from django_ratelimit.core import get_usage
from rest_framework.throttling import BaseThrottle

from .parsers import MSG_RATE_LIMITED

# Per client address. "5/10m" is five posts in a ten-minute window (django-ratelimit's rate syntax).
DEFAULT_PUBLIC_FORM_RATES = {
    "contact": "5/10m",
    "rental": "5/h",
    "register": "5/h",
    "forgot_password": "5/15m",
    "resend": "5/15m",
    "gift_card_check": "10/10m",
    "promo_check": "30/10m",
}
DEFAULT_EMAILS_PER_RECIPIENT_PER_HOUR = 5
# The studio's own mailbox gets one e-mail per contact message or rental request: a higher cap, the posts being
# rate-limited per client already; past it the posts are still stored and listed in the dashboard.
DEFAULT_STAFF_NOTIFICATIONS_PER_HOUR = 30
HOUR = 3600


# --- The client's address -----------------------------------------------------------------------------------


def _valid_ip(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None


def client_ip(request) -> str:
    """The visitor's address. With TRUSTED_PROXY_COUNT = n (the proxies in front of the app that append to
    X-Forwarded-For), it is the n-th entry from the right: the one our outermost proxy saw. Entries further left
    were written by the client and are never trusted. With 0 (the default: no proxy), REMOTE_ADDR."""
    remote = request.META.get("REMOTE_ADDR") or "0.0.0.0"
    proxies = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if proxies <= 0:
        return remote
    forwarded = [part for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if not forwarded:
        return remote
    candidate = forwarded[-proxies] if len(forwarded) >= proxies else forwarded[0]
    return _valid_ip(candidate) or remote


# --- Public forms ---------------------------------------------------------------------------------------------


def _form_rate(form: str) -> str | None:
    return getattr(settings, "PUBLIC_FORM_RATES", DEFAULT_PUBLIC_FORM_RATES).get(form)


def public_form_usage(request, form: str) -> dict | None:
    """Count one post of `form` from this client; None when limits are off. django-ratelimit keys by
    client_ip through RATELIMIT_IP_META_KEY."""
    rate = _form_rate(form)
    if not rate:
        return None
    return get_usage(request, group=f"public-form:{form}", key="ip", rate=rate, method="POST", increment=True)


def public_form_limited(request, form: str) -> tuple[bool, int]:
    """(refused, seconds until the window ends)."""
    usage = public_form_usage(request, form)
    if usage is None or not usage["should_limit"]:
        return False, 0
    return True, max(usage["time_left"], 1)


class PublicFormThrottle(BaseThrottle):
    """DRF throttle for the public form APIs: the view names its form with `rate_limit_form`. A refused request
    answers 429 with Retry-After and the French message (studio.api.exception_handler)."""

    def allow_request(self, request, view):
        refused, self._wait = public_form_limited(request._request, view.rate_limit_form)
        return not refused

    def wait(self):
        return self._wait


def rate_limited_page(form: str):
    """The same limit for a no-JS page form: a POST past the limit gets a French page with status 429."""

    def decorator(view):
        @functools.wraps(view)
        def wrapped(request, *args, **kwargs):
            if request.method == "POST":
                refused, wait = public_form_limited(request, form)
                if refused:
                    response = render(
                        request,
                        "request_refused.html",
                        {"page_title": "Trop de demandes", "message": MSG_RATE_LIMITED, "back_url": request.path},
                        status=429,
                    )
                    response["Retry-After"] = str(wait)
                    return response
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


# --- E-mails per recipient --------------------------------------------------------------------------------------


def recipient_quota_take(address: str, *, cap: int | None = None, scope: str = "account") -> bool:
    """Count one e-mail to `address` in the current hour; False past the cap (then the caller sends nothing, and
    answers the visitor as it would have: the cap is not revealed). The cap is EMAILS_PER_RECIPIENT_PER_HOUR for
    account e-mails, or `cap` for another `scope` (staff notifications of the public forms); setting
    EMAILS_PER_RECIPIENT_PER_HOUR to None switches every cap off (the test suite does)."""
    default_cap = getattr(settings, "EMAILS_PER_RECIPIENT_PER_HOUR", DEFAULT_EMAILS_PER_RECIPIENT_PER_HOUR)
    if default_cap is None:
        return True
    cap = default_cap if cap is None else cap
    digest = hashlib.sha256(address.strip().lower().encode()).hexdigest()
    key = f"mail-quota:{scope}:{digest}"
    if cache.add(key, 1, timeout=HOUR):
        count = 1
    else:
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, timeout=HOUR)
            count = 1
        else:
            if count == 1:
                # Expired between Django's existence check and Redis' INCR, which then made a new key with no
                # expiry: give it the hour, or the address would stay counted for good.
                cache.touch(key, timeout=HOUR)
    return count <= cap


def staff_notification_recipients(addresses: list[str]) -> list[str]:
    """The staff addresses that may still be told of a public form post this hour (STAFF_NOTIFICATIONS_PER_HOUR):
    past it the post is stored and shown in the dashboard, but no more e-mail goes out."""
    cap = getattr(settings, "STAFF_NOTIFICATIONS_PER_HOUR", DEFAULT_STAFF_NOTIFICATIONS_PER_HOUR)
    return [address for address in addresses if recipient_quota_take(address, cap=cap, scope="staff")]
