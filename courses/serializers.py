"""The catalogue API's input and output shapes: courses, tariffs and testimonials;
instructors have theirs in serializers_instructors.py.

Input serializers state every constraint the services and the database enforce (lengths, ranges, choices, non-blank
text), so the OpenAPI schema promises exactly what the server accepts. Updates (PUT) are partial: every field is
optional there.
"""

import re
from decimal import ROUND_HALF_UP, Decimal

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from media_library.fields import NO_NUL, WebUrlField, blank_is_text, form_schema, not_blank
from studio.fields import StrictBooleanField

from .models import MAX_WEEKLY_CAP, Course, Level, Tariff, TariffType, Testimonial
from .services import MSG_TARIFF_WEEKLY_CAP_INVALID

# PositiveSmallIntegerField's upper bound (positions, credits, months).
SMALL_INT_MAX = 32_767
MAX_PRICE = Decimal("999999.99")

# Text fields say what the server enforces: no NUL character (DRF refuses it) and, unless blank is allowed,
# something other than spaces (they are trimmed). A number or a boolean in a JSON body is not text.
NOT_BLANK = not_blank("Ce champ ne peut être vide.")


class TextField(serializers.CharField):
    def get_value(self, dictionary):
        # A multipart field sent empty is the empty text (refused unless blank is allowed), not an absent field.
        return dictionary.get(self.field_name, serializers.empty)

    def __init__(self, **kwargs):
        kwargs.setdefault("validators", [])
        kwargs["validators"] = [*kwargs["validators"], NO_NUL if kwargs.get("allow_blank") else NOT_BLANK]
        super().__init__(**kwargs)

    def run_validation(self, data=serializers.empty):
        # The length the schema states is the length sent, before the spaces around are trimmed.
        if isinstance(data, str) and self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length, length=len(data))
        return super().run_validation(data)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


def text(**kwargs) -> serializers.CharField:
    return TextField(**kwargs)


AMOUNT_TEXT = r"^[0-9]{1,6}(\.[0-9]{1,2})?$"
PERCENT_TEXT = r"^(100(\.0{1,2})?|[0-9]{1,2}(\.[0-9]{1,2})?)$"


@extend_schema_field(
    {
        "anyOf": [
            {"type": "number", "minimum": 0, "maximum": float(MAX_PRICE)},
            {"type": "string", "pattern": AMOUNT_TEXT},
        ]
    }
)
class CentsField(serializers.DecimalField):
    """A non-negative amount in euros: a JSON number, rounded to the cent (a form's 19.999999 means 20.00), or the
    text of one with at most two decimals (what the dashboard sends)."""

    text_pattern = re.compile(AMOUNT_TEXT)

    def __init__(self, *, max_value=MAX_PRICE, **kwargs):
        super().__init__(max_digits=8, decimal_places=2, min_value=0, max_value=max_value, **kwargs)
        self.coerce_to_string = False

    def validate_empty_values(self, data):
        if data == "":  # no amount is not an amount: null says so where the field allows it
            self.fail("invalid")
        return super().validate_empty_values(data)

    def to_internal_value(self, data):
        if isinstance(data, str):
            if not self.text_pattern.fullmatch(data.strip()):
                self.fail("invalid")
            return super().to_internal_value(data.strip())
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        value = Decimal(str(data))
        if value < 0:  # before rounding: -1e-9 is below the schema's minimum 0, not the amount 0.00
            self.fail("min_value", min_value=self.min_value)
        if value.is_finite() and abs(value) < Decimal("1e7"):
            data = str(value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
        return super().to_internal_value(data)


@extend_schema_field(
    {"anyOf": [{"type": "number", "minimum": 0, "maximum": 100}, {"type": "string", "pattern": PERCENT_TEXT}]}
)
class PercentField(CentsField):
    text_pattern = re.compile(PERCENT_TEXT)

    def __init__(self, **kwargs):
        super().__init__(max_value=Decimal("100"), **kwargs)


@extend_schema_field(OpenApiTypes.BINARY)
class UploadField(serializers.FileField):
    """An uploaded file, checked afterwards by its content and size (media_library.uploads, with its French
    messages). A text value in its place (a form sending back the stored URL) is no new file."""

    def __init__(self, **kwargs):
        kwargs.setdefault("allow_empty_file", True)
        kwargs.setdefault("write_only", True)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, str):
            return None
        return super().to_internal_value(data)


# --- Courses ---------------------------------------------------------------------------------------------------


class CourseOutputSerializer(serializers.ModelSerializer):
    # The address as stored: what WebUrlField took (its path may hold any character but spaces), not a strict URI.
    video_url = serializers.CharField(allow_blank=True)
    videoUrl = serializers.CharField(source="video_url", allow_blank=True)  # noqa: N815 (the field name the islands read)
    image_url = serializers.SerializerMethodField()

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
        ]

    def get_image_url(self, course) -> str:
        picture = course.picture
        return picture["src"] if picture else ""


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
