"""Login and its throttle (docs/decisions.md 8), sessions, API tokens and their revocation, logout."""

import hashlib
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import authenticate, login, logout
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from rest_framework_simplejwt.exceptions import TokenError
from rest_framework_simplejwt.settings import api_settings
from rest_framework_simplejwt.token_blacklist.models import BlacklistedToken, OutstandingToken
from rest_framework_simplejwt.tokens import RefreshToken

from ..models import User
from .common import normalize_email
from .errors import MSG_EMAIL_NOT_CONFIRMED, AccountError

RESEND_CONFIRMATION_URL = "/api/users/resend-confirmation"

LOGIN_MAX_FAILURES = 5
LOGIN_LOCKOUT = timedelta(minutes=15)
REMEMBER_ME_SECONDS = 7 * 24 * 3600
MSG_LOGGED_OUT = "Vous êtes déconnecté. À bientôt !"


def _throttle_key(email: str, ip: str) -> str:
    digest = hashlib.sha256(f"{email}|{ip}".encode()).hexdigest()
    return f"accounts:login-failures:{digest}"


def _throttle_state(key: str) -> dict:
    state = cache.get(key) or {"failures": 0, "locked_until": None}
    locked_until = state.get("locked_until")
    if locked_until is not None and locked_until <= timezone.now():
        return {"failures": 0, "locked_until": None}  # the cool-off is over: a fresh start
    return state


def login_is_throttled(*, email: str, ip: str) -> bool:
    state = _throttle_state(_throttle_key(normalize_email(email), ip))
    return state["locked_until"] is not None


def _login_failure_record(email: str, ip: str) -> None:
    key = _throttle_key(email, ip)
    state = _throttle_state(key)
    state["failures"] += 1
    if state["failures"] >= LOGIN_MAX_FAILURES:
        state["locked_until"] = timezone.now() + LOGIN_LOCKOUT
    # Failures older than the lock-out window are forgotten.
    cache.set(key, state, timeout=int(LOGIN_LOCKOUT.total_seconds()))


def user_authenticate(*, email: str, password: str, ip: str) -> User:
    """Check the credentials. Same answer for an unknown e-mail and a wrong password (docs/decisions.md 8);
    5 failures for one e-mail from one address lock that pair out for 15 minutes."""
    email = normalize_email(email)
    password = password or ""
    if not email or not password.strip():
        raise AccountError.of("blank")
    if login_is_throttled(email=email, ip=ip):
        raise AccountError.of("throttled")
    user = authenticate(None, email=email, password=password)
    if user is None:
        _login_failure_record(email, ip)
        raise AccountError.of("invalid_credentials")
    if not user.email_confirmed:
        # The body says where to ask for a new link (the login island offers it on this code).
        raise AccountError(
            MSG_EMAIL_NOT_CONFIRMED, code="email_not_confirmed", extra={"resendUrl": RESEND_CONFIRMATION_URL}
        )
    cache.delete(_throttle_key(email, ip))
    return user


def session_login(*, request, user: User, remember: bool) -> None:
    """Open the browser session: 7 days with 'Se souvenir de moi', else until the browser closes
    (docs/decisions.md 6)."""
    login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
    request.session.set_expiry(REMEMBER_ME_SECONDS if remember else 0)


def api_tokens_for(*, user: User) -> dict:
    refresh = RefreshToken.for_user(user)
    return {"token": str(refresh.access_token), "refresh": str(refresh)}


def refresh_token_blacklist(*, refresh: str) -> None:
    """Blacklist a refresh token at logout; an invalid or already blacklisted one is not an error."""
    if not refresh:
        return
    try:
        RefreshToken(refresh).blacklist()
    except TokenError:
        pass


def refresh_token_user_id(*, refresh: str) -> int | None:
    """Whose refresh token this is (a valid, unexpired one), or None."""
    if not refresh or len(refresh) > 4096:
        return None
    try:
        user_id = RefreshToken(refresh).payload.get(api_settings.USER_ID_CLAIM)
    except TokenError:
        return None
    try:
        return int(user_id)
    except (TypeError, ValueError):
        return None


def user_refresh_tokens_revoke(*, user_id: int) -> int:
    """Blacklist every outstanding refresh token of a user (docs/decisions.md 7): at logout, on a password change or
    reset, and before the account is deleted or deactivated. Returns how many were newly revoked."""
    live = OutstandingToken.objects.filter(
        user_id=user_id, expires_at__gt=timezone.now(), blacklistedtoken__isnull=True
    )
    created = BlacklistedToken.objects.bulk_create(
        [BlacklistedToken(token_id=pk) for pk in live.values_list("pk", flat=True)], ignore_conflicts=True
    )
    return len(created)


def user_logout(*, request, refresh: str = "") -> None:
    """End the browser session and every refresh token of the user (the session's, or the token's owner)."""
    user_id = request.user.pk if request.user.is_authenticated else refresh_token_user_id(refresh=refresh)
    refresh_token_blacklist(refresh=refresh)
    if user_id is not None:
        user_refresh_tokens_revoke(user_id=user_id)
    logout(request)


def user_deactivate(*, user: User) -> User:
    """Close an account without deleting it: it can no longer log in, and its tokens stop working at once."""
    with transaction.atomic():
        User.objects.filter(pk=user.pk).update(is_active=False)
        user_refresh_tokens_revoke(user_id=user.pk)
    user.is_active = False
    return user
