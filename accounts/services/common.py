"""Shared account pieces: the refused-action error, input normalisation and the checks used by several flows."""

import re

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from ..models import User
from .errors import AccountError

PASSWORD_MIN_LENGTH = 6
PHONE_RE = re.compile(r"^\d{10}$")
POSTAL_CODE_RE = re.compile(r"^\d{5}$")
DEFAULT_COUNTRY = "France"


# --- Small shared checks --------------------------------------------------------------------------------------


def normalize_email(email: str | None) -> str:
    return (email or "").strip().lower()


def normalize_phone(phone: str | None) -> str:
    """Spaces, dots and dashes between digits are accepted: '06 12 34 56 78' is 10 digits."""
    return re.sub(r"[\s.\-]", "", phone or "")


def _check_phone(phone: str) -> None:
    if not PHONE_RE.match(phone):
        raise AccountError.of("phone_invalid", field="phone")


def _check_email(email: str) -> None:
    try:
        validate_email(email)
    except ValidationError:
        raise AccountError.of("email_invalid", field="email") from None


def _check_postal_code(postal_code: str) -> None:
    if not POSTAL_CODE_RE.match(postal_code):
        raise AccountError.of("postal_code_invalid", field="postal_code")


def _check_password(password: str, *, user: User | None = None, field: str = "password") -> None:
    if len(password) < PASSWORD_MIN_LENGTH:
        raise AccountError.of("password_too_short", field=field)
    try:
        validate_password(password, user=user)
    except ValidationError as exc:
        codes = {error.code for error in exc.error_list}
        if "password_too_short" in codes:
            raise AccountError.of("password_too_short", field=field) from None
        if "password_too_common" in codes:
            raise AccountError.of("password_too_common", field=field) from None
        raise AccountError(f"❌ {exc.messages[0]}", code="password_invalid", field=field) from None


def _truthy(value) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in {"1", "true", "on", "yes", "oui"}
    return bool(value)


def _check_lengths(values: dict, max_lengths: dict) -> None:
    for field, max_length in max_lengths.items():
        if len(values.get(field) or "") > max_length:
            raise AccountError.of("text_too_long", field=field, max_length=max_length)


def _absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"
