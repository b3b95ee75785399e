"""What the users APIs accept: a profile change (`ProfileInput`) and the staff list's query (`UserListQuery`).
The inputs' shared machinery and the account calls' inputs are in `serializers`."""

from collections.abc import Mapping
from urllib.parse import urlsplit

from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers

from studio.api import MSG_INVALID
from studio.apis import PageQuery
from studio.parsers import MSG_TEXT_TOO_LONG

from .. import selectors
from ..models import Role
from ..services.errors import (
    MSG_AVATAR_INVALID,
    MSG_EMAIL_INVALID,
    MSG_NAMES_REQUIRED,
    MSG_PHONE_INVALID,
    MSG_POSTAL_CODE_INVALID,
    MSG_ROLE_INVALID,
)
from .fields import (
    NOT_BLANK_PATTERN,
    PHONE_PATTERN,
    PatternText,
    StrictBoolean,
    StrictEmail,
    Text,
)
from .serializers import MAX_EMAIL, Input, blank_is_text, required_messages

PROFILE_FIELDS = (
    "first_name",
    "last_name",
    "email",
    "phone",
    "address",
    "postal_code",
    "city",
    "country",
    "role",
    "company_name",
    "company_siren",
    "company_vat_number",
    "company_address",
)


def _is_avatar_url(value) -> bool:
    """The avatar's URL sent back, or no avatar (null, or "null" from a form): not a new picture."""
    if value is None:
        return True
    return isinstance(value, str) and (value == "null" or value.startswith("/") or bool(urlsplit(value).scheme))


class ProfileInput(Input):
    """The fields to change; absent ones stay. What a member, a supervisor or an admin may change is the
    service's rule (docs/decisions.md 11, 32)."""

    first_name = PatternText(
        NOT_BLANK_PATTERN,
        MSG_NAMES_REQUIRED,
        required=False,
        max_length=150,
        messages=required_messages(MSG_NAMES_REQUIRED),
    )
    last_name = PatternText(
        NOT_BLANK_PATTERN,
        MSG_NAMES_REQUIRED,
        required=False,
        max_length=150,
        messages=required_messages(MSG_NAMES_REQUIRED),
    )
    name = PatternText(
        NOT_BLANK_PATTERN,
        MSG_NAMES_REQUIRED,
        required=False,
        max_length=150,
        messages=required_messages(MSG_NAMES_REQUIRED),
        help_text="Synonyme de last_name, pour les clients qui l'envoient sous ce nom.",
    )
    email = StrictEmail(
        required=False,
        max_length=MAX_EMAIL,
        help_text="Modifiable par l'équipe seulement.",
        error_messages={
            **required_messages(MSG_EMAIL_INVALID),
            "invalid": MSG_EMAIL_INVALID,
            "max_length": MSG_TEXT_TOO_LONG,
        },
    )
    phone = PatternText(
        f"{PHONE_PATTERN}|^$",
        MSG_PHONE_INVALID,
        required=False,
        allow_blank=True,
        max_length=30,
        messages={"null": MSG_PHONE_INVALID},
    )
    address = Text(required=False, allow_blank=True, max_length=255)
    postal_code = PatternText(
        r"^\d{5}$|^$",
        MSG_POSTAL_CODE_INVALID,
        required=False,
        allow_blank=True,
        max_length=10,
        messages={"null": MSG_POSTAL_CODE_INVALID},
    )
    city = Text(required=False, allow_blank=True, max_length=120)
    country = Text(required=False, allow_blank=True, max_length=120)
    role = serializers.ChoiceField(
        choices=Role.choices,
        required=False,
        allow_blank=True,
        error_messages={"invalid_choice": MSG_ROLE_INVALID, "null": MSG_ROLE_INVALID},
        help_text="Modifiable par un administrateur ; vide : inchangé.",
    )
    # A company to invoice (docs/decisions.md 54); the service checks the SIREN's key and the VAT number's shape.
    company_name = Text(required=False, allow_blank=True, max_length=200)
    company_siren = Text(required=False, allow_blank=True, max_length=20, help_text="9 chiffres (clé de Luhn).")
    company_vat_number = Text(required=False, allow_blank=True, max_length=30)
    company_address = Text(required=False, allow_blank=True, max_length=300)
    avatar = serializers.FileField(
        required=False, allow_null=True, help_text="Une image JPEG, PNG, GIF ou WebP (vérifiée par son contenu)."
    )
    remove_avatar = StrictBoolean(required=False, default=False)

    def to_internal_value(self, data):
        if isinstance(data, Mapping) and data.get("avatar") == "":
            raise serializers.ValidationError({"avatar": [MSG_AVATAR_INVALID]})
        if isinstance(data, Mapping) and "avatar" in data and _is_avatar_url(data.get("avatar")):
            # The dashboard sends the user object back as it got it: its avatar is a URL, not a new file.
            data = {key: data.get(key) for key in data.keys() if key != "avatar"}
        return super().to_internal_value(data)

    def validate(self, attrs):
        if not self.initial_data:
            # An empty body (or a form that is not one) changes nothing: the schema asks for one field at least.
            raise serializers.ValidationError(MSG_INVALID)
        return attrs

    def changes(self) -> dict:
        d = self.validated_data
        changes = {field: d[field] for field in PROFILE_FIELDS if field in d}
        if "last_name" not in changes and "name" in d:
            changes["last_name"] = d["name"]
        return changes


class UserListQuery(PageQuery):
    search = Text(required=False, allow_blank=True, default="", max_length=100, help_text="Nom ou e-mail.")
    ordering = Text(
        required=False,
        allow_blank=True,
        default="",
        max_length=200,
        help_text="Champs séparés par des virgules, « - » devant pour l'ordre inverse : "
        f"{', '.join(sorted(selectors.USER_ORDERINGS))}. Les autres sont ignorés.",
    )


class ProfileInputSchema(OpenApiSerializerExtension):
    """ProfileInput in the schema: at least one field (an empty body is refused)."""

    target_class = ProfileInput

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target_class, direction, bypass_extensions=True)
        return {**blank_is_text(schema), "minProperties": 1}
