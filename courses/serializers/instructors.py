"""The instructors API's shapes: a person with a name, an optional account, an active flag and a bio.

Visitors read the active instructors' public shape (name, bio, specialties); staff read and write the whole record.
"""

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from studio.fields import StrictBooleanField

from .catalogue import BlankIsTextSchema
from .fields import MAX_ID, TextField

MSG_INSTRUCTOR_NAME_REQUIRED = "Indiquez le nom du professeur."
MSG_INSTRUCTOR_NAME_TOO_LONG = "Le nom du professeur ne peut pas dépasser 150 caractères."
MSG_INSTRUCTOR_USER_INVALID = "Le compte lié doit être l'identifiant d'un utilisateur, ou null pour aucun."
MSG_INSTRUCTOR_ACTIVE_INVALID = "Indiquez si le professeur est actif (true ou false)."


class InstructorPublicOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    bio = serializers.CharField(allow_blank=True)
    specialties = serializers.CharField(allow_blank=True)


class InstructorPublicOutputSchema(OpenApiSerializerExtension):
    """The public shape holds these four fields and no other: a staff row (with its account) is not one, so the
    list's answer matches exactly one of its two shapes (the `oneOf` of GET /api/instructors)."""

    target_class = InstructorPublicOutput

    def map_serializer(self, auto_schema, direction):
        return {**super().map_serializer(auto_schema, direction), "additionalProperties": False}


class InstructorOutput(InstructorPublicOutput):
    """The whole record, as staff see it."""

    user_id = serializers.IntegerField(allow_null=True, help_text="Le compte qui se connecte comme ce professeur.")
    user_email = serializers.SerializerMethodField()
    active = serializers.BooleanField()

    @extend_schema_field({"type": "string", "format": "email", "nullable": True})
    def get_user_email(self, instructor) -> str | None:
        return instructor.user.email if instructor.user_id else None


class InstructorInputSerializer(serializers.Serializer):
    name = TextField(
        max_length=150,
        error_messages={
            "required": MSG_INSTRUCTOR_NAME_REQUIRED,
            "null": MSG_INSTRUCTOR_NAME_REQUIRED,
            "blank": MSG_INSTRUCTOR_NAME_REQUIRED,
            "invalid": MSG_INSTRUCTOR_NAME_REQUIRED,
            "max_length": MSG_INSTRUCTOR_NAME_TOO_LONG,
        },
    )
    user_id = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        allow_null=True,
        default=None,
        help_text="Un utilisateur existant (404 sinon) ; null : aucun compte.",
        error_messages=dict.fromkeys(
            ("invalid", "min_value", "max_value", "max_string_length"), MSG_INSTRUCTOR_USER_INVALID
        ),
    )
    active = StrictBooleanField(
        required=False, default=True, error_messages=dict.fromkeys(("invalid", "null"), MSG_INSTRUCTOR_ACTIVE_INVALID)
    )
    bio = TextField(required=False, allow_blank=True, default="", max_length=5000)
    specialties = TextField(required=False, allow_blank=True, max_length=255, default="")


class InstructorUpdateInputSerializer(InstructorInputSerializer):
    """PUT: the fields sent change, the others stay."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, partial=True, **kwargs)
        for field in self.fields.values():
            field.required = False


class InstructorSchema(BlankIsTextSchema):
    target_class = InstructorInputSerializer


class InstructorUpdateSchema(BlankIsTextSchema):
    target_class = InstructorUpdateInputSerializer
