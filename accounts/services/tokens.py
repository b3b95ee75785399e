"""Single-use links (e-mail confirmation, password reset, e-mail change): only the token's hash is stored."""

import hashlib
import secrets
from datetime import timedelta

from django.utils import timezone

from ..models import AccountToken, TokenPurpose, User

CONFIRMATION_LINK_LIFETIME = timedelta(days=3)
RESET_LINK_LIFETIME = timedelta(hours=1)
EMAIL_CHANGE_LINK_LIFETIME = timedelta(days=3)


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def account_token_create(*, user: User, purpose: str, lifetime: timedelta | None = None) -> str:
    """Create a single-use link token and return the raw value (only its hash is stored). `lifetime` overrides the
    purpose's own (a client created at the desk gets a week to choose a password: docs/decisions.md 50)."""
    lifetime = lifetime or {
        TokenPurpose.CONFIRM_EMAIL: CONFIRMATION_LINK_LIFETIME,
        TokenPurpose.CHANGE_EMAIL: EMAIL_CHANGE_LINK_LIFETIME,
    }.get(purpose, RESET_LINK_LIFETIME)
    raw = secrets.token_urlsafe(32)
    AccountToken.objects.create(
        user=user, purpose=purpose, token_hash=_hash_token(raw), expires_at=timezone.now() + lifetime
    )
    return raw


def account_token_find(*, token: str, purpose: str, lock: bool = False) -> AccountToken | None:
    """The usable token for this raw value, or None (unknown, used or expired)."""
    if not token or len(token) > 200:
        return None
    queryset = AccountToken.objects.select_related("user")
    if lock:
        queryset = queryset.select_for_update()
    found = queryset.filter(token_hash=_hash_token(token), purpose=purpose).first()
    if found is None or not found.is_usable or not found.user.is_active:
        return None
    return found
