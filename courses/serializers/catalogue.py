"""The catalogue API's input and output shapes: courses, tariffs and testimonials; instructors have theirs in
instructors.py.

Input serializers state every constraint the services and the database enforce (lengths, ranges, choices, non-blank
text), so the OpenAPI schema promises exactly what the server accepts. Updates (PUT) are partial: every field is
optional there.
"""

from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers

from media_library.fields import WebUrlField, blank_is_text, form_schema
from studio.fields import StrictBooleanField

from ..models import (
    MAX_BOOKING_OPENS_DAYS,
    MAX_COMMITMENT_PERIODS,
    MAX_FREE_CANCELLATION_HOURS,
    MAX_WEEKLY_CAP,
    Course,
    Level,
    Tariff,
    TariffType,
    Testimonial,
)
from ..services.catalogue import (
    MSG_COURSE_CANCELLATION_HOURS_INVALID,
    MSG_COURSE_OPENS_DAYS_INVALID,
    MSG_COURSE_OPENS_TIME_INVALID,
    MSG_TARIFF_COMMITMENT_INVALID,
    MSG_TARIFF_COVERED_COURSE_NOT_FOUND,
    MSG_TARIFF_FUTURE_CAP_INVALID,
    MSG_TARIFF_WEEKLY_CAP_INVALID,
)
from .fields import (
    SMALL_INT_MAX,
    CentsField,
    ClockTimeField,
    PercentField,
    TextField,
    UploadField,
    text,
)


class CourseOutputSerializer(serializers.ModelSerializer):
    # The address as stored: what WebUrlField took (its path may hold any character but spaces), not a strict URI.
    video_url = serializers.CharField(allow_blank=True)
    videoUrl = serializers.CharField(source="video_url", allow_blank=True)  # noqa: N815 (the field name the islands read)
    image_url = serializers.SerializerMethodField()
    booking_opens_time = ClockTimeField(allow_null=True, help_text="HH:MM, heure de Paris.")

    class Meta:
        model = Course
        fields = [
            "id",
            "title",
            "description",
            "duration",
            "level",
            "video_url",
            "videoUrl",
            "position",
            "image_url",
            "image_alt",
            "free_cancellation_hours",
            "booking_opens_days_before",
            "booking_opens_time",
        ]

    def get_image_url(self, course) -> str:
        picture = course.picture
        return picture["src"] if picture else ""


# docs/decisions.md 60: the dashboard marks a tariff as the "offre découverte", sold once per person.
MSG_DISCOVERY_OFFER_INVALID = "Indiquez si le tarif est une offre découverte : vrai ou faux."


def _all_errors(message: str) -> dict:
    keys = ("invalid", "null", "min_value", "max_value", "max_string_length", "required")
    return {key: message for key in keys}


class CourseInputSerializer(serializers.Serializer):
    title = text(max_length=150)
    description = text()
    level = serializers.ChoiceField(choices=Level.choices, default=Level.BEGINNER)
    duration = serializers.IntegerField(min_value=1, max_value=600, default=60)
    video_url = WebUrlField(max_length=200, required=False, allow_blank=True, default="")
    videoUrl = WebUrlField(  # noqa: N815 (the field name the dashboard sends)
        max_length=200, required=False, allow_blank=True, write_only=True, help_text="Synonyme de video_url."
    )
    position = serializers.IntegerField(min_value=0, max_value=SMALL_INT_MAX, default=0)
    image_alt = TextField(max_length=255, required=False, allow_blank=True)
    image = UploadField(required=False, help_text="Photo du cours (multipart) : JPEG, PNG, GIF ou WebP.")
    # docs/decisions.md 44-45: the course's free-cancellation window and booking opening (blank: the studio's).
    free_cancellation_hours = serializers.IntegerField(
        min_value=0,
        max_value=MAX_FREE_CANCELLATION_HOURS,
        required=False,
        error_messages=_all_errors(MSG_COURSE_CANCELLATION_HOURS_INVALID),
    )
    booking_opens_days_before = serializers.IntegerField(
        min_value=0,
        max_value=MAX_BOOKING_OPENS_DAYS,
        required=False,
        allow_null=True,
        error_messages=_all_errors(MSG_COURSE_OPENS_DAYS_INVALID),
    )
    booking_opens_time = serializers.TimeField(
        required=False, allow_null=True, format="%H:%M", error_messages=_all_errors(MSG_COURSE_OPENS_TIME_INVALID)
    )

    def validate(self, attrs):
        video_url = attrs.pop("videoUrl", None)
        if video_url is not None and "video_url" not in self.initial_data:
            attrs["video_url"] = video_url
        attrs.pop("image", None)  # the view hands the upload to the service, which checks its content and size
        return attrs


class CourseUpdateInputSerializer(CourseInputSerializer):
    """PUT: every field optional; what is sent changes, the rest stays."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, partial=True, **kwargs)
        for field in self.fields.values():
            field.required = False


class CourseForm(CourseInputSerializer):
    """The multipart body of a new course (schema only; the view reads it with CourseInputSerializer)."""


class CourseUpdateForm(CourseUpdateInputSerializer):
    """The multipart body of a course edit (schema only; the view reads it with CourseUpdateInputSerializer)."""


class BlankIsTextSchema(OpenApiSerializerExtension):
    """A text that may be blank is the empty text or one matching its pattern (`blank_is_text`)."""

    target_class = CourseInputSerializer

    def map_serializer(self, auto_schema, direction):
        return blank_is_text(super().map_serializer(auto_schema, direction))


class CourseUpdateSchema(BlankIsTextSchema):
    target_class = CourseUpdateInputSerializer


class CourseFormSchema(OpenApiSerializerExtension):
    """A form's parts are text: `form_schema` says what they can be (and that a form carries at least one)."""

    target_class = CourseForm

    def map_serializer(self, auto_schema, direction):
        return form_schema(super().map_serializer(auto_schema, direction))


class CourseUpdateFormSchema(CourseFormSchema):
    target_class = CourseUpdateForm


# --- Tariffs ---------------------------------------------------------------------------------------------------


class TariffOutputSerializer(serializers.ModelSerializer):
    course_id = serializers.IntegerField(allow_null=True)
    is_party = serializers.BooleanField()
    covered_course_ids = serializers.PrimaryKeyRelatedField(
        source="covered_courses", many=True, read_only=True, help_text="Vide : tous les cours."
    )

    class Meta:
        model = Tariff
        fields = [
            "id",
            "type",
            "title",
            "description",
            "price",
            "frequency",
            "validity",
            "reduction_percentage",
            "conditions",
            "details",
            "course_id",
            "position",
            "is_party",
            "pass_credits",
            "pass_validity_months",
            "pass_unlimited",
            "pass_weekly_cap",
            "max_future_bookings",
            "commitment_periods",
            "covered_course_ids",
            "discovery_offer",
        ]


class TariffInputSerializer(serializers.Serializer):
    title = text(max_length=150)
    price = CentsField()
    type = serializers.ChoiceField(choices=TariffType.choices)
    description = TextField(required=False, allow_blank=True, default="")
    frequency = TextField(required=False, allow_blank=True, max_length=60, default="")
    validity = TextField(required=False, allow_blank=True, max_length=120, default="")
    reduction_percentage = PercentField(required=False, allow_null=True, default=None)
    conditions = TextField(required=False, allow_blank=True, default="")
    details = TextField(required=False, allow_blank=True, default="")
    course_id = serializers.IntegerField(
        min_value=1, required=False, allow_null=True, default=None, help_text="Un cours existant (404 sinon)."
    )
    position = serializers.IntegerField(min_value=0, max_value=SMALL_INT_MAX, required=False, default=0)
    # What buying it grants: a card of N credits or an unlimited subscription, valid M months.
    pass_credits = serializers.IntegerField(min_value=0, max_value=500, required=False, default=0)
    pass_validity_months = serializers.IntegerField(min_value=0, max_value=60, required=False, default=0)
    pass_unlimited = StrictBooleanField(required=False, default=False)
    # The pass's weekly cap (docs/decisions.md 26): 0 = unlimited.
    pass_weekly_cap = serializers.IntegerField(
        min_value=0,
        max_value=MAX_WEEKLY_CAP,
        required=False,
        default=0,
        error_messages={
            key: MSG_TARIFF_WEEKLY_CAP_INVALID
            for key in ("invalid", "null", "min_value", "max_value", "max_string_length", "required")
        },
    )
    # docs/decisions.md 45: the future bookings a member holds at once with this tariff's passes, 0 = no cap.
    max_future_bookings = serializers.IntegerField(
        min_value=0, max_value=100, required=False, default=0, error_messages=_all_errors(MSG_TARIFF_FUTURE_CAP_INVALID)
    )
    # docs/decisions.md 51: the periods a subscription binds (0 = its validity's) and the courses its passes book.
    commitment_periods = serializers.IntegerField(
        min_value=0,
        max_value=MAX_COMMITMENT_PERIODS,
        required=False,
        default=0,
        error_messages=_all_errors(MSG_TARIFF_COMMITMENT_INVALID),
    )
    covered_course_ids = serializers.ListField(
        child=serializers.IntegerField(
            min_value=1, max_value=2**31 - 1, error_messages=_all_errors(MSG_TARIFF_COVERED_COURSE_NOT_FOUND)
        ),
        required=False,
        max_length=200,
        help_text="Les cours que ses cartes et abonnements réservent ; vide : tous.",
    )
    discovery_offer = StrictBooleanField(
        required=False,
        default=False,
        error_messages={key: MSG_DISCOVERY_OFFER_INVALID for key in ("invalid", "null", "required")},
        help_text="Offre découverte : vendue une seule fois par personne (compte, e-mail et téléphone vérifiés).",
    )


# Typed: client generators build an enum's model from its type (openapi-python-client refuses a bare [false]).
NOT_UNLIMITED = {"type": "boolean", "enum": [False]}


class TariffInputSchema(OpenApiSerializerExtension):
    """The schema states the pass rules of a new tariff: credits or an unlimited pass need a validity of a month
    or more, and an unlimited pass counts no credits. An update is checked against the stored values, which a
    schema cannot name: breaking a rule there is a conflict with the tariff's state (409)."""

    target_class = TariffInputSerializer

    def map_serializer(self, auto_schema, direction):
        schema = blank_is_text(super().map_serializer(auto_schema, direction))
        schema["allOf"] = [
            {
                "anyOf": [
                    {"required": ["pass_validity_months"], "properties": {"pass_validity_months": {"minimum": 1}}},
                    {"properties": {"pass_credits": {"maximum": 0}, "pass_unlimited": NOT_UNLIMITED}},
                ]
            },
            {
                "anyOf": [
                    {"properties": {"pass_unlimited": NOT_UNLIMITED}},
                    {"properties": {"pass_credits": {"maximum": 0}}},
                ]
            },
        ]
        return schema


class TariffUpdateInputSerializer(TariffInputSerializer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, partial=True, **kwargs)
        for field in self.fields.values():
            field.required = False


class TariffUpdateSchema(BlankIsTextSchema):
    target_class = TariffUpdateInputSerializer


# --- Testimonials ----------------------------------------------------------------------------------------------


class TestimonialOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = Testimonial
        fields = ["id", "name", "message", "created_at"]


class TestimonialInputSerializer(serializers.Serializer):
    name = text(max_length=120)
    message = text()


class TestimonialUpdateInputSerializer(TestimonialInputSerializer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, partial=True, **kwargs)
        for field in self.fields.values():
            field.required = False


__all__ = [
    "CourseInputSerializer",
    "CourseOutputSerializer",
    "CourseUpdateInputSerializer",
    "TariffInputSerializer",
    "TariffOutputSerializer",
    "TariffUpdateInputSerializer",
    "TestimonialInputSerializer",
    "TestimonialOutputSerializer",
    "TestimonialUpdateInputSerializer",
]
