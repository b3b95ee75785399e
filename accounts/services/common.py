"""Shared account pieces: the refused-action error, input normalisation and the checks used by several flows."""

import re

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from studio.api import MSG_TEXT_TOO_LONG
from studio.errors import ApplicationError

from ..models import User

# Field checks shared by registration, password reset and profile edits (SPEC.md 5).
MSG_PHONE_INVALID = "❌ Le numéro de téléphone doit contenir 10 chiffres."
MSG_EMAIL_INVALID = "❌ L'email n'est pas valide."
MSG_POSTAL_CODE_INVALID = "❌ Le code postal doit contenir 5 chiffres."
MSG_PASSWORD_TOO_SHORT = "❌ Le mot de passe doit contenir au moins 6 caractères."
MSG_PASSWORDS_DIFFER = "❌ Les mots de passe ne correspondent pas."
MSG_PASSWORD_TOO_COMMON = "❌ Ce mot de passe est trop courant. Choisissez-en un autre."

PASSWORD_MIN_LENGTH = 6
PHONE_RE = re.compile(r"^\d{10}$")
POSTAL_CODE_RE = re.compile(r"^\d{5}$")
DEFAULT_COUNTRY = "France"


class AccountError(ApplicationError):
    """A refused account action: a French message, the HTTP status the API answers, and the field at fault."""

    def __init__(
        self, message: str, status: int | None = None, field: str | None = None, code: str | None = None, **kwargs
    ):
        super().__init__(message, status=status, field=field, code=code, **kwargs)


# --- Small shared checks --------------------------------------------------------------------------------------


def normalize_email(email: str | None) -> str:
    return (email or "").strip().lower()


def normalize_phone(phone: str | None) -> str:
    """Spaces, dots and dashes between digits are accepted: '06 12 34 56 78' is 10 digits."""
    return re.sub(r"[\s.\-]", "", phone or "")


def _check_phone(phone: str) -> None:
    if not PHONE_RE.match(phone):
        raise AccountError(MSG_PHONE_INVALID, field="phone")


def _check_email(email: str) -> None:
    try:
        validate_email(email)
    except ValidationError:
        raise AccountError(MSG_EMAIL_INVALID, field="email") from None


def _check_postal_code(postal_code: str) -> None:
    if not POSTAL_CODE_RE.match(postal_code):
        raise AccountError(MSG_POSTAL_CODE_INVALID, field="postal_code")


def _check_password(password: str, *, user: User | None = None, field: str = "password") -> None:
    if len(password) < PASSWORD_MIN_LENGTH:
        raise AccountError(MSG_PASSWORD_TOO_SHORT, field=field)
    try:
        validate_password(password, user=user)
    except ValidationError as exc:
        codes = {error.code for error in exc.error_list}
        if "password_too_short" in codes:
            raise AccountError(MSG_PASSWORD_TOO_SHORT, field=field) from None
        if "password_too_common" in codes:
            raise AccountError(MSG_PASSWORD_TOO_COMMON, field=field) from None
        raise AccountError(f"❌ {exc.messages[0]}", field=field) from None


def _truthy(value) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in {"1", "true", "on", "yes", "oui"}
    return bool(value)


def _check_lengths(values: dict, max_lengths: dict) -> None:
    for field, max_length in max_lengths.items():
        if len(values.get(field) or "") > max_length:
            raise AccountError(MSG_TEXT_TOO_LONG.format(max_length=max_length), field=field)


def _absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"
