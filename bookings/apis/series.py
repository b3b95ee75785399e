"""Weekly series (docs/decisions.md 35): `POST /api/course-sessions/series` (staff). With `"preview": true` it
only answers the dates it would create and the ones it skips (French public holidays, the studio's closures)."""

from datetime import time

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from courses.models import Level
from courses.serializers.fields import CentsField
from studio.fields import DateTimeOutputField, StrictBooleanField
from studio.parsers import MSG_TEXT_TOO_LONG
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ..services.common import (
    MAX_SESSION_PLACES,
    MSG_LEVEL_INVALID,
    MSG_MAX_ATTENDEES_MAX,
    MSG_MAX_ATTENDEES_MIN,
    MSG_PRICE_INVALID,
    MSG_SESSION_FIELDS_REQUIRED,
)
from ..services.series import (
    MSG_SERIES_CREATED,
    MSG_SERIES_FOLLOWING_UPDATED,
    MSG_SERIES_PREVIEW,
    course_session_series_create,
    course_session_series_update_following,
    day_label,
)
from .common import _iso, id_field, no_nul
from .sessions import SESSION_ID

MSG_WEEKDAYS_INVALID = "Choisissez au moins un jour de la semaine (0 = lundi … 6 = dimanche)."
MSG_TIME_INVALID = "L'heure doit être au format HH:MM."
MSG_DATE_INVALID = "La date doit être au format AAAA-MM-JJ."
MSG_DURATION_INVALID = "La durée doit être un nombre de minutes entre 15 et 600."


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
        validators=[no_nul()],
        error_messages={"max_length": MSG_TEXT_TOO_LONG},
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
        r"^([01][0-9]|2[0-3]):[0-5][0-9]$",
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
    level = serializers.ChoiceField(
        choices=[("", "—"), *Level.choices],
        required=False,
        default="",
        error_messages=_same(MSG_LEVEL_INVALID, "invalid_choice", "null"),
    )
    max_attendees = serializers.IntegerField(
        min_value=1,
        max_value=MAX_SESSION_PLACES,
        default=10,
        error_messages={
            **_same(MSG_MAX_ATTENDEES_MIN, "invalid", "min_value", "null", "max_string_length"),
            "max_value": MSG_MAX_ATTENDEES_MAX.format(max=MAX_SESSION_PLACES),
        },
    )
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


class CourseSessionSeriesApi(APIView):
    permission_classes = [IsStudioStaff]

    @extend_schema(
        operation_id="course_session_series",
        request=SeriesInput,
        responses={200: SeriesOutput, 201: SeriesOutput, 404: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request):
        serializer = SeriesInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        preview = data["preview"]
        series, plan = course_session_series_create(
            course_id=data["course_id"],
            weekdays=data["weekdays"],
            starts_on=data["starts_on"],
            ends_on=data["ends_on"],
            start_time=time.fromisoformat(data["time"]),
            duration=data.get("duration"),
            instructor_id=data["instructor_id"],
            level=data["level"],
            max_attendees=data["max_attendees"],
            details=data["details"],
            price_per_participant=data.get("price_per_participant"),
            preview=preview,
        )
        template = MSG_SERIES_PREVIEW if preview else MSG_SERIES_CREATED
        body = {
            "preview": preview,
            "series_id": series.pk if series else None,
            "count": len(plan.starts),
            "message": template.format(count=len(plan.starts), skipped=len(plan.skipped)),
            "dates": [{"date": _iso(s), "label": f"{day_label(s.date())} {s:%H:%M}"} for s in plan.starts],
            "skipped": [{"date": d, "label": day_label(d), "reason": r} for d, r in plan.skipped],
        }
        return Response(SeriesOutput(body).data, status=status.HTTP_200_OK if preview else status.HTTP_201_CREATED)


class SeriesFollowingInput(serializers.Serializer):
    """The fields "this and the following" sets on each session of the series from this one on."""

    time = serializers.RegexField(
        r"^([01][0-9]|2[0-3]):[0-5][0-9]$",
        required=False,
        allow_null=True,
        error_messages=_same(MSG_TIME_INVALID, "null", "blank", "invalid"),
        help_text="HH:MM, heure de Paris ; absent : les heures ne changent pas.",
    )
    instructor_id = id_field(MSG_SESSION_FIELDS_REQUIRED, help_text="Un professeur de la liste.")
    level = serializers.ChoiceField(
        choices=[("", "—"), *Level.choices],
        required=False,
        default="",
        error_messages=_same(MSG_LEVEL_INVALID, "invalid_choice", "null"),
    )
    max_attendees = serializers.IntegerField(
        min_value=1,
        max_value=MAX_SESSION_PLACES,
        error_messages={
            **_same(MSG_MAX_ATTENDEES_MIN, "required", "invalid", "min_value", "null", "max_string_length"),
            "max_value": MSG_MAX_ATTENDEES_MAX.format(max=MAX_SESSION_PLACES),
        },
    )
    price_per_participant = _price_field()
    details = _details_field()


class SeriesFollowingOutput(serializers.Serializer):
    count = serializers.IntegerField()
    message = serializers.CharField()


class CourseSessionFollowingApi(APIView):
    """PUT: change this session and the following ones of its series (staff)."""

    permission_classes = [IsStudioStaff]

    @extend_schema(
        operation_id="course_session_series_following",
        parameters=[SESSION_ID],
        request=SeriesFollowingInput,
        responses={200: SeriesFollowingOutput, 404: ErrorOutput, 409: ErrorOutput},
    )
    def put(self, request, session_id: int):
        serializer = SeriesFollowingInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        count = course_session_series_update_following(
            session_id=session_id,
            instructor_id=data["instructor_id"],
            max_attendees=data["max_attendees"],
            level=data["level"],
            details=data["details"],
            price_per_participant=data.get("price_per_participant"),
            start_time=time.fromisoformat(data["time"]) if data.get("time") else None,
        )
        return Response(
            SeriesFollowingOutput({"count": count, "message": MSG_SERIES_FOLLOWING_UPDATED.format(count=count)}).data
        )
