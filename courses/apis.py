"""Courses, tariffs, testimonials and instructors: public reads, staff writes (SPEC.md 7)."""

import logging

from django.db import DatabaseError, transaction
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from media_library.uploads import UploadRejected
from studio.api import error_response
from studio.permissions import IsStudioStaff

from . import selectors, services
from .models import Course, Instructor, Level, Tariff, TariffType, Testimonial
from .views import MSG_COURSE_NOT_FOUND

logger = logging.getLogger(__name__)

MSG_COURSE_FETCH_ERROR = "Erreur lors de la récupération du cours."
MSG_COURSES_FETCH_ERROR = "Erreur lors de la récupération des cours"
MSG_TARIFFS_FETCH_ERROR = "Erreur lors de la récupération des tarifs."
MSG_TARIFF_NOT_FOUND = "Tarif introuvable."
MSG_TESTIMONIAL_NOT_FOUND = "Témoignage introuvable."
MSG_INSTRUCTOR_NOT_FOUND = "Professeur introuvable."
MSG_USER_NOT_FOUND = "Utilisateur introuvable."


class PublicReadStaffWrite(APIView):
    """GET for everyone; any write for admins and supervisors only."""

    def get_permissions(self):
        if self.request.method in ("GET", "HEAD", "OPTIONS"):
            return [AllowAny()]
        return [IsStudioStaff()]


# --- Courses ---------------------------------------------------------------------------------------------------


class CourseOutputSerializer(serializers.ModelSerializer):
    videoUrl = serializers.CharField(source="video_url")  # noqa: N815 (SPEC.md's field name)
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
    title = serializers.CharField(max_length=150)
    description = serializers.CharField()
    level = serializers.ChoiceField(choices=Level.choices, default=Level.BEGINNER)
    duration = serializers.IntegerField(min_value=1, max_value=600, default=60)
    video_url = serializers.URLField(required=False, allow_blank=True, default="")
    position = serializers.IntegerField(min_value=0, default=0)
    image_alt = serializers.CharField(max_length=255, required=False, allow_blank=True)

    def to_internal_value(self, data):
        if hasattr(data, "copy") and "videoUrl" in data and "video_url" not in data:
            # A plain dict rather than QueryDict.copy(), which deep-copies uploaded files (a large upload's
            # temporary file cannot be copied).
            data = {key: data.get(key) for key in data.keys()}
            data["video_url"] = data["videoUrl"]
        return super().to_internal_value(data)


class CourseListApi(PublicReadStaffWrite):
    @extend_schema(responses=CourseOutputSerializer(many=True))
    def get(self, request):
        try:
            courses = list(selectors.course_list())
        except DatabaseError:
            logger.exception("course list failed")
            return error_response(MSG_COURSES_FETCH_ERROR, status.HTTP_503_SERVICE_UNAVAILABLE)
        return Response(CourseOutputSerializer(courses, many=True).data)

    @extend_schema(request=CourseInputSerializer, responses={201: CourseOutputSerializer})
    def post(self, request):
        data = CourseInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        image_alt = fields.pop("image_alt", "")
        try:
            with transaction.atomic():
                course = services.course_create(**fields)
                _set_picture(request, course, image_alt)
        except UploadRejected as error:
            return error_response(error.message)
        return Response(CourseOutputSerializer(course).data, status=status.HTTP_201_CREATED)


def _set_picture(request, course, image_alt):
    """An uploaded `image` (multipart) is checked by content and size and stored with its renditions; a refused
    one raises media_library.uploads.UploadRejected (its French message answers 400)."""
    upload = request.FILES.get("image")
    if upload:
        services.course_set_picture(course=course, image=upload, alt_text=image_alt)
    elif image_alt is not None and image_alt != course.image_alt:
        services.course_update(course=course, image_alt=image_alt.strip())


class CourseDetailApi(PublicReadStaffWrite):
    def _course(self, course_id):
        return selectors.course_get(course_id=course_id)

    @extend_schema(responses=CourseOutputSerializer)
    def get(self, request, course_id):
        try:
            course = self._course(course_id)
        except DatabaseError:
            logger.exception("course detail failed")
            return error_response(MSG_COURSE_FETCH_ERROR, status.HTTP_503_SERVICE_UNAVAILABLE)
        if course is None:
            return error_response(MSG_COURSE_NOT_FOUND, status.HTTP_404_NOT_FOUND)
        return Response(CourseOutputSerializer(course).data)

    @extend_schema(request=CourseInputSerializer, responses=CourseOutputSerializer)
    def put(self, request, course_id):
        course = self._course(course_id)
        if course is None:
            return error_response(MSG_COURSE_NOT_FOUND, status.HTTP_404_NOT_FOUND)
        data = CourseInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        image_alt = fields.pop("image_alt", None)
        try:
            with transaction.atomic():
                course = services.course_update(course=course, **fields)
                _set_picture(request, course, image_alt)
        except UploadRejected as error:
            return error_response(error.message)
        return Response(CourseOutputSerializer(course).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, course_id):
        course = self._course(course_id)
        if course is None:
            return error_response(MSG_COURSE_NOT_FOUND, status.HTTP_404_NOT_FOUND)
        try:
            services.course_delete(course=course)
        except services.CatalogueError as exc:
            return error_response(exc.message, status.HTTP_409_CONFLICT)
        return Response(status=status.HTTP_204_NO_CONTENT)


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
        ]


class TariffInputSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=150)
    price = serializers.DecimalField(max_digits=8, decimal_places=2, min_value=0, coerce_to_string=False)
    type = serializers.ChoiceField(choices=TariffType.choices)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    frequency = serializers.CharField(required=False, allow_blank=True, max_length=60, default="")
    validity = serializers.CharField(required=False, allow_blank=True, max_length=120, default="")
    reduction_percentage = serializers.DecimalField(
        max_digits=5, decimal_places=2, min_value=0, max_value=100, required=False, allow_null=True, default=None
    )
    conditions = serializers.CharField(required=False, allow_blank=True, default="")
    details = serializers.CharField(required=False, allow_blank=True, default="")
    course_id = serializers.PrimaryKeyRelatedField(
        source="course", queryset=Course.objects.all(), required=False, allow_null=True, default=None
    )
    position = serializers.IntegerField(min_value=0, required=False, default=0)
    # What buying it grants (issue 10): a card of N credits or an unlimited subscription, valid M months.
    pass_credits = serializers.IntegerField(min_value=0, max_value=500, required=False, default=0)
    pass_validity_months = serializers.IntegerField(min_value=0, max_value=60, required=False, default=0)
    pass_unlimited = serializers.BooleanField(required=False, default=False)


class TariffListApi(PublicReadStaffWrite):
    @extend_schema(responses=TariffOutputSerializer(many=True))
    def get(self, request):
        try:
            tariffs = list(selectors.tariff_list())
        except DatabaseError:
            logger.exception("tariff list failed")
            return error_response(MSG_TARIFFS_FETCH_ERROR, status.HTTP_503_SERVICE_UNAVAILABLE)
        return Response(TariffOutputSerializer(tariffs, many=True).data)

    @extend_schema(request=TariffInputSerializer, responses={201: TariffOutputSerializer})
    def post(self, request):
        data = TariffInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tariff = services.tariff_create(**data.validated_data)
        return Response(TariffOutputSerializer(tariff).data, status=status.HTTP_201_CREATED)


class TariffDetailApi(PublicReadStaffWrite):
    @extend_schema(request=TariffInputSerializer, responses=TariffOutputSerializer)
    def put(self, request, tariff_id):
        tariff = Tariff.objects.filter(pk=tariff_id).first()
        if tariff is None:
            return error_response(MSG_TARIFF_NOT_FOUND, status.HTTP_404_NOT_FOUND)
        data = TariffInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        tariff = services.tariff_update(tariff=tariff, **data.validated_data)
        return Response(TariffOutputSerializer(tariff).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, tariff_id):
        tariff = Tariff.objects.filter(pk=tariff_id).first()
        if tariff is None:
            return error_response(MSG_TARIFF_NOT_FOUND, status.HTTP_404_NOT_FOUND)
        try:
            services.tariff_delete(tariff=tariff)
        except services.CatalogueError as exc:
            return error_response(exc.message, status.HTTP_409_CONFLICT)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- Testimonials ----------------------------------------------------------------------------------------------


class TestimonialSerializer(serializers.ModelSerializer):
    class Meta:
        model = Testimonial
        fields = ["id", "name", "message", "created_at"]
        read_only_fields = ["id", "created_at"]


class TestimonialListApi(PublicReadStaffWrite):
    @extend_schema(responses=TestimonialSerializer(many=True))
    def get(self, request):
        return Response(TestimonialSerializer(selectors.testimonial_list(), many=True).data)

    @extend_schema(request=TestimonialSerializer, responses={201: TestimonialSerializer})
    def post(self, request):
        data = TestimonialSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        testimonial = services.testimonial_create(**data.validated_data)
        return Response(TestimonialSerializer(testimonial).data, status=status.HTTP_201_CREATED)


class TestimonialDetailApi(PublicReadStaffWrite):
    @extend_schema(request=TestimonialSerializer, responses=TestimonialSerializer)
    def put(self, request, testimonial_id):
        testimonial = Testimonial.objects.filter(pk=testimonial_id).first()
        if testimonial is None:
            return error_response(MSG_TESTIMONIAL_NOT_FOUND, status.HTTP_404_NOT_FOUND)
        data = TestimonialSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        testimonial = services.testimonial_update(testimonial=testimonial, **data.validated_data)
        return Response(TestimonialSerializer(testimonial).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, testimonial_id):
        testimonial = Testimonial.objects.filter(pk=testimonial_id).first()
        if testimonial is None:
            return error_response(MSG_TESTIMONIAL_NOT_FOUND, status.HTTP_404_NOT_FOUND)
        services.testimonial_delete(testimonial=testimonial)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- Instructors -----------------------------------------------------------------------------------------------


class InstructorOutputSerializer(serializers.ModelSerializer):
    user_id = serializers.IntegerField()
    first_name = serializers.CharField(source="user.first_name")
    last_name = serializers.CharField(source="user.last_name")
    email = serializers.EmailField(source="user.email")

    class Meta:
        model = Instructor
        fields = ["id", "user_id", "first_name", "last_name", "email", "bio", "specialties"]


class InstructorInputSerializer(serializers.Serializer):
    user_id = serializers.IntegerField()
    bio = serializers.CharField(required=False, allow_blank=True, default="")
    specialties = serializers.CharField(required=False, allow_blank=True, max_length=255, default="")

    def validate_user_id(self, value):
        if not User.objects.filter(pk=value).exists():
            raise serializers.ValidationError(MSG_USER_NOT_FOUND)
        return value


class InstructorListApi(PublicReadStaffWrite):
    @extend_schema(responses=InstructorOutputSerializer(many=True))
    def get(self, request):
        return Response(InstructorOutputSerializer(selectors.instructor_list(), many=True).data)

    @extend_schema(request=InstructorInputSerializer, responses={201: InstructorOutputSerializer})
    def post(self, request):
        data = InstructorInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        user = User.objects.get(pk=fields.pop("user_id"))
        instructor = services.instructor_create(user=user, **fields)
        return Response(InstructorOutputSerializer(instructor).data, status=status.HTTP_201_CREATED)


class InstructorDetailApi(PublicReadStaffWrite):
    @extend_schema(request=InstructorInputSerializer, responses=InstructorOutputSerializer)
    def put(self, request, instructor_id):
        instructor = selectors.instructor_list().filter(pk=instructor_id).first()
        if instructor is None:
            return error_response(MSG_INSTRUCTOR_NOT_FOUND, status.HTTP_404_NOT_FOUND)
        data = InstructorInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        if "user_id" in fields:
            fields["user"] = User.objects.get(pk=fields.pop("user_id"))
        instructor = services.instructor_update(instructor=instructor, **fields)
        return Response(InstructorOutputSerializer(instructor).data)
