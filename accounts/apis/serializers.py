"""What the account APIs accept: typed inputs whose refusals are the services' French texts, stated in
the OpenAPI schema as patterns, lengths and required fields. Here: what every input shares (`Input`, `blank_is_text`)
and the account calls' inputs (register, log in and out, passwords); the profile's and the users list's are in
`user_inputs`, the answers' serializers in `outputs`."""

from collections.abc import Mapping

from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers
from rest_framework.settings import api_settings
from rest_framework_simplejwt.exceptions import InvalidToken
from rest_framework_simplejwt.serializers import TokenRefreshSerializer
from rest_framework_simplejwt.settings import api_settings as jwt_settings
from rest_framework_simplejwt.tokens import RefreshToken
from rest_framework_simplejwt.utils import get_md5_hash_password

from studio.api import MSG_INVALID
from studio.parsers import MSG_TEXT_TOO_LONG

from ..models import User
from ..services.common import PASSWORD_MIN_LENGTH
from ..services.errors import (
    MSG_CGU_REQUIRED,
    MSG_EMAIL_INVALID,
    MSG_FORGOT_EMAIL_REQUIRED,
    MSG_LOGIN_BLANK,
    MSG_PASSWORD_TOO_SHORT,
    MSG_PASSWORDS_DIFFER,
    MSG_PHONE_INVALID,
    MSG_POSTAL_CODE_INVALID,
    MSG_REQUIRED_FIELDS,
)
from .fields import (
    NO_NUL_PATTERN,
    NOT_BLANK_PATTERN,
    PHONE_PATTERN,
    POSTAL_CODE_PATTERN,
    Accepted,
    PatternText,
    StrictBoolean,
    StrictEmail,
    Text,
)

MAX_PASSWORD = 4096
MAX_EMAIL = 254


def required_messages(message: str) -> dict:
    return {"required": message, "blank": message, "null": message}


class ObjectBody:
    """A JSON object or a form: any other body (`false`, a list, a number, null) is refused in French, never a 500."""

    default_error_messages = {"invalid": MSG_INVALID}

    def run_validation(self, data=serializers.empty):
        if data is None:
            raise serializers.ValidationError({api_settings.NON_FIELD_ERRORS_KEY: [MSG_INVALID]})
        return super().run_validation(data)


class Input(ObjectBody, serializers.Serializer):
    pass


# --- Registration -------------------------------------------------------------------------------------------


class RegisterInput(Input):
    """The registration form's checks, refused with the same texts as the page; the first refusal shown is the one
    the page puts first (length bounds, required fields, phone, e-mail, postal code, password, confirmation, CGU)."""

    last_name = PatternText(
        NOT_BLANK_PATTERN,
        MSG_REQUIRED_FIELDS,
        max_length=150,
        messages=required_messages(MSG_REQUIRED_FIELDS),
    )
    first_name = PatternText(
        NOT_BLANK_PATTERN,
        MSG_REQUIRED_FIELDS,
        max_length=150,
        messages=required_messages(MSG_REQUIRED_FIELDS),
    )
    phone = PatternText(
        PHONE_PATTERN,
        MSG_PHONE_INVALID,
        max_length=30,
        messages=required_messages(MSG_PHONE_INVALID),
        help_text="10 chiffres (espaces admis).",
    )
    email = StrictEmail(
        max_length=MAX_EMAIL,
        error_messages={
            **required_messages(MSG_REQUIRED_FIELDS),
            "invalid": MSG_EMAIL_INVALID,
            "max_length": MSG_TEXT_TOO_LONG,
        },
    )
    postal_code = PatternText(
        POSTAL_CODE_PATTERN,
        MSG_POSTAL_CODE_INVALID,
        max_length=10,
        messages=required_messages(MSG_POSTAL_CODE_INVALID),
    )
    password = Text(
        min_length=PASSWORD_MIN_LENGTH,
        max_length=MAX_PASSWORD,
        trim_whitespace=False,
        messages={**required_messages(MSG_REQUIRED_FIELDS), "min_length": MSG_PASSWORD_TOO_SHORT},
    )
    confirmPassword = Text(
        max_length=MAX_PASSWORD, trim_whitespace=False, messages=required_messages(MSG_PASSWORDS_DIFFER)
    )
    acceptCGU = Accepted(
        error_messages=required_messages(MSG_CGU_REQUIRED),
        help_text="Conditions générales acceptées : true (ou « on » depuis un formulaire).",
    )
    address = Text(required=False, allow_blank=True, default="", max_length=255)
    city = Text(required=False, allow_blank=True, default="", max_length=120)
    country = Text(required=False, allow_blank=True, default="", max_length=120, help_text="France par défaut.")
    role = Text(
        required=False,
        allow_blank=True,
        default="",
        max_length=20,
        help_text="Ignoré : une inscription crée toujours un compte membre.",
    )
    name = Text(
        required=False,
        allow_blank=True,
        max_length=150,
        help_text="Synonyme de last_name, pour les clients qui l'envoient sous ce nom.",
    )

    def to_internal_value(self, data):
        if isinstance(data, Mapping) and "last_name" not in data and "name" in data:
            data = {key: data.get(key) for key in data.keys()}
            data["last_name"] = data["name"]
        try:
            return super().to_internal_value(data)
        except serializers.ValidationError as exc:
            raise serializers.ValidationError(self._in_spec_order(exc.detail, data)) from None

    def _in_spec_order(self, detail, data):
        if not isinstance(detail, dict):
            return detail
        password, confirm = (
            data.get(key) if isinstance(data, Mapping) else None for key in ("password", "confirmPassword")
        )
        if "confirmPassword" not in detail and isinstance(password, str) and isinstance(confirm, str):
            if password != confirm and "password" not in detail:
                detail["confirmPassword"] = [MSG_PASSWORDS_DIFFER]
        order = list(self.fields)
        too_long = MSG_TEXT_TOO_LONG.split("{")[0]

        def rank(item):
            field, messages = item
            first = str(messages[0]) if isinstance(messages, list) and messages else ""
            if first.startswith(too_long):
                return (0, order.index(field) if field in order else 99)
            if first == MSG_REQUIRED_FIELDS:
                return (1, 0)
            return (2, order.index(field) if field in order else 99)

        return dict(sorted(detail.items(), key=rank))


class EmailInput(Input):
    email = StrictEmail(
        max_length=MAX_EMAIL,
        error_messages={
            **required_messages(MSG_FORGOT_EMAIL_REQUIRED),
            "invalid": MSG_FORGOT_EMAIL_REQUIRED,
            "max_length": MSG_FORGOT_EMAIL_REQUIRED,
        },
    )


# --- Login, tokens, logout ------------------------------------------------------------------------------------


class LoginInput(Input):
    email = PatternText(
        NOT_BLANK_PATTERN, MSG_LOGIN_BLANK, max_length=MAX_EMAIL, messages=required_messages(MSG_LOGIN_BLANK)
    )
    password = PatternText(
        NOT_BLANK_PATTERN,
        MSG_LOGIN_BLANK,
        max_length=MAX_PASSWORD,
        trim_whitespace=False,
        messages=required_messages(MSG_LOGIN_BLANK),
    )
    remember = StrictBoolean(required=False, default=False, help_text="« Se souvenir de moi » : 7 jours.")


class RefreshInput(ObjectBody, TokenRefreshSerializer):
    """simplejwt's refresh, refused (401) for an account that no longer exists or is inactive, and for a token
    issued before the password last changed (docs/decisions.md 7)."""

    refresh = Text(max_length=MAX_PASSWORD)

    def validate(self, attrs):
        token = RefreshToken(attrs["refresh"])  # TokenError (bad, expired, blacklisted) → 401 in the view
        user_id = token.payload.get(jwt_settings.USER_ID_CLAIM)
        try:
            user = User.objects.filter(pk=int(user_id)).first()
        except (TypeError, ValueError, OverflowError):
            user = None
        if user is None or not user.is_active:
            raise InvalidToken()
        if jwt_settings.CHECK_REVOKE_TOKEN and token.payload.get(
            jwt_settings.REVOKE_TOKEN_CLAIM
        ) != get_md5_hash_password(user.password):
            raise InvalidToken()
        return super().validate(attrs)


class RefreshRequest(Input):
    """The body of /api/users/token/refresh, as the schema shows it (RefreshInput does the work)."""

    refresh = Text(max_length=MAX_PASSWORD, help_text="Le jeton de rafraîchissement reçu à la connexion.")


class LogoutInput(Input):
    refresh = Text(
        required=False,
        allow_blank=True,
        default="",
        max_length=MAX_PASSWORD,
        help_text="Le jeton de rafraîchissement d'un client API, s'il y en a un.",
    )


# --- Password reset -----------------------------------------------------------------------------------------


class ResetPasswordInput(Input):
    newPassword = Text(
        min_length=PASSWORD_MIN_LENGTH,
        max_length=MAX_PASSWORD,
        trim_whitespace=False,
        messages={**required_messages(MSG_PASSWORD_TOO_SHORT), "min_length": MSG_PASSWORD_TOO_SHORT},
    )
    confirmPassword = Text(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        max_length=MAX_PASSWORD,
        help_text="Vérifiée si elle est envoyée.",
    )


# --- Profile --------------------------------------------------------------------------------------------------

EMPTY_TEXT = {"type": "string", "maxLength": 0}
# Free text only (as drf-spectacular spells NO_NUL_PATTERN). The profile's phone and postal code, whose patterns
# also take '', keep their oneOf: the service refuses '' unless the stored value is empty too (a state rule).
FREE_TEXT = {NO_NUL_PATTERN, NO_NUL_PATTERN.replace(r"\x", r"\u00")}


def blank_is_text(schema: dict) -> dict:
    """drf-spectacular states a text that may be blank as `oneOf: [its pattern, maxLength 0]`; the patterns here
    accept the empty text already, so '' would match both branches and be refused by `oneOf` (schemathesis: an
    empty `refresh` at logout). `anyOf` says what the server does."""
    for prop in schema.get("properties", {}).values():
        branches = prop.get("oneOf", [])
        if len(branches) == 2 and branches[1] == EMPTY_TEXT and branches[0].get("pattern") in FREE_TEXT:
            prop["anyOf"] = prop.pop("oneOf")
    return schema


class InputSchema(OpenApiSerializerExtension):
    """Every account input: a blank text is anyOf, not oneOf (`blank_is_text`)."""

    target_class = Input
    match_subclasses = True
    priority = -1

    def map_serializer(self, auto_schema, direction):
        return blank_is_text(auto_schema._map_serializer(self.target, direction, bypass_extensions=True))
