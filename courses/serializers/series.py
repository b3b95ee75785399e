"""The weekly series' shapes (docs/decisions.md 35): the series asked for (`POST /api/course-sessions/series`), the
fields "this and the following" sets on each session (`PUT /api/course-sessions/{id}/following`), and the answers."""

from django.core.validators import RegexValidator
from rest_framework import serializers

from media_library.fields import NO_NUL_PATTERN
from studio.fields import DateTimeOutputField, StrictBooleanField
from studio.parsers import MSG_TEXT_TOO_LONG

from ..models import MAX_SESSION_PLACES, Level
from ..services.sessions import (
    MSG_LEVEL_INVALID,
    MSG_MAX_ATTENDEES_MAX,
    MSG_MAX_ATTENDEES_MIN,
    MSG_PRICE_INVALID,
    MSG_SESSION_FIELDS_REQUIRED,
)
from .fields import CentsField, id_field

MSG_WEEKDAYS_INVALID = "Choisissez au moins un jour de la semaine (0 = lundi … 6 = dimanche)."
MSG_TIME_INVALID = "L'heure doit être au format HH:MM."
MSG_DATE_INVALID = "La date doit être au format AAAA-MM-JJ."
MSG_DURATION_INVALID = "La durée doit être un nombre de minutes entre 15 et 600."
TIME_PATTERN = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"


def _same(message, *keys):
    return dict.fromkeys(keys, message)


def _price_field() -> CentsField:
    """The price per participant of a series or of "this and the following" (optional: the course's by default)."""
    keys = ("invalid", "null", "min_value", "max_value", "max_digits", "max_decimal_places", "max_whole_digits")
    return CentsField(
        required=False, allow_null=True, error_messages=_same(MSG_PRICE_INVALID, *keys, "max_string_length")
    )


def _details_field() -> serializers.CharField:
    return serializers.CharField(
        max_length=5000,
        required=False,
        allow_blank=True,
        default="",
        validators=[RegexValidator(NO_NUL_PATTERN)],
        error_messages={"max_length": MSG_TEXT_TOO_LONG},
    )


def _level_field() -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=[("", "—"), *Level.choices],
        required=False,
        default="",
        error_messages=_same(MSG_LEVEL_INVALID, "invalid_choice", "null"),
    )


def _max_attendees_field(**kwargs) -> serializers.IntegerField:
    """The places of each session; `required`, when they are, says so in French as a number below 1 does."""
    required = "default" not in kwargs
    return serializers.IntegerField(
        min_value=1,
        max_value=MAX_SESSION_PLACES,
        error_messages={
            **_same(MSG_MAX_ATTENDEES_MIN, "invalid", "min_value", "null", "max_string_length"),
            **({"required": MSG_MAX_ATTENDEES_MIN} if required else {}),
            "max_value": MSG_MAX_ATTENDEES_MAX.format(max=MAX_SESSION_PLACES),
        },
        **kwargs,
    )


class SeriesInput(serializers.Serializer):
    course_id = id_field(MSG_SESSION_FIELDS_REQUIRED)
    weekdays = serializers.ListField(
        child=serializers.IntegerField(
            min_value=0,
            max_value=6,
            error_messages=_same(
                MSG_WEEKDAYS_INVALID, "invalid", "min_value", "max_value", "null", "max_string_length"
            ),
        ),
        min_length=1,
        max_length=7,
        error_messages=_same(
            MSG_WEEKDAYS_INVALID, "required", "null", "not_a_list", "empty", "min_length", "max_length"
        ),
    )
    time = serializers.RegexField(
        TIME_PATTERN,
        error_messages=_same(MSG_TIME_INVALID, "required", "null", "blank", "invalid"),
        help_text="HH:MM, heure de Paris.",
    )
    duration = serializers.IntegerField(
        min_value=15,
        max_value=600,
        required=False,
        allow_null=True,
        error_messages=_same(MSG_DURATION_INVALID, "invalid", "min_value", "max_value", "max_string_length"),
    )
    instructor_id = id_field(MSG_SESSION_FIELDS_REQUIRED, help_text="Un professeur de la liste.")
    level = _level_field()
    max_attendees = _max_attendees_field(default=10)
    price_per_participant = _price_field()
    details = _details_field()
    starts_on = serializers.DateField(
        input_formats=["%Y-%m-%d"], error_messages=_same(MSG_DATE_INVALID, "required", "null", "invalid", "datetime")
    )
    ends_on = serializers.DateField(
        input_formats=["%Y-%m-%d"], error_messages=_same(MSG_DATE_INVALID, "required", "null", "invalid", "datetime")
    )
    preview = StrictBooleanField(default=False)


class SeriesDateOutput(serializers.Serializer):
    date = DateTimeOutputField()
    label = serializers.CharField(help_text="« lundi 12/01/2026 18:30 »")


class SeriesSkippedOutput(serializers.Serializer):
    date = serializers.DateField()
    label = serializers.CharField()
    reason = serializers.CharField(help_text="Jour férié, fermeture du studio, date passée.")


class SeriesOutput(serializers.Serializer):
    preview = serializers.BooleanField()
    series_id = serializers.IntegerField(allow_null=True)
    count = serializers.IntegerField()
    message = serializers.CharField()
    dates = SeriesDateOutput(many=True)
    skipped = SeriesSkippedOutput(many=True)


class SeriesFollowingInput(serializers.Serializer):
    """The fields "this and the following" sets on each session of the series from this one on."""

    time = serializers.RegexField(
        TIME_PATTERN,
        required=False,
        allow_null=True,
        error_messages=_same(MSG_TIME_INVALID, "null", "blank", "invalid"),
        help_text="HH:MM, heure de Paris ; absent : les heures ne changent pas.",
    )
    instructor_id = id_field(MSG_SESSION_FIELDS_REQUIRED, help_text="Un professeur de la liste.")
    level = _level_field()
    max_attendees = _max_attendees_field()
    price_per_participant = _price_field()
    details = _details_field()


class SeriesFollowingOutput(serializers.Serializer):
    count = serializers.IntegerField()
    message = serializers.CharField()
