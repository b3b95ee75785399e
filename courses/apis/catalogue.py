"""Courses, tariffs and testimonials: public reads, staff writes; instructors in instructors.py.

Thin views: an input serializer (courses/serializers/catalogue.py) parses the payload, a service writes, an output
serializer shapes the answer. Refusals are `CatalogueError`s (404 for an unknown id, 409 for a delete that records
depend on) or a refused upload, answered by the shared exception handler: no view catches them.
"""

import logging

from django.db import DatabaseError, transaction
from drf_spectacular.utils import OpenApiRequest, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from studio.api import error_response
from studio.parsers import JSON_OR_MULTIPART
from studio.schema import ErrorOutput

from .. import selectors
from ..serializers.catalogue import (
    CourseForm,
    CourseInputSerializer,
    CourseOutputSerializer,
    CourseUpdateForm,
    CourseUpdateInputSerializer,
    TariffInputSerializer,
    TariffOutputSerializer,
    TariffUpdateInputSerializer,
    TestimonialInputSerializer,
    TestimonialOutputSerializer,
    TestimonialUpdateInputSerializer,
)
from ..services import catalogue
from .common import PublicReadStaffWrite, valid_payload

logger = logging.getLogger(__name__)

MSG_COURSE_FETCH_ERROR = "Erreur lors de la récupération du cours."
MSG_COURSES_FETCH_ERROR = "Erreur lors de la récupération des cours"
MSG_TARIFFS_FETCH_ERROR = "Erreur lors de la récupération des tarifs."

UNAVAILABLE = {503: OpenApiResponse(ErrorOutput, description="La base de données ne répond pas.")}
UNKNOWN_REFERENCE = {404: OpenApiResponse(ErrorOutput, description="Le cours ou l'utilisateur désigné n'existe pas.")}
# The picture's accepted types: the service checks the content itself (media_library.uploads).
PICTURE_ENCODING = {"image": {"contentType": "image/jpeg, image/png, image/gif, image/webp"}}


def _course_payloads(serializer_class, form_class) -> dict:
    """JSON; multipart with the picture (its parts are text: `form_class`'s schema says so)."""
    return {
        "application/json": serializer_class,
        "multipart/form-data": OpenApiRequest(form_class, encoding=PICTURE_ENCODING),
    }


# --- Courses ---------------------------------------------------------------------------------------------------


def _course(course_id: int):
    course = selectors.course_get(course_id=course_id)
    if course is None:
        raise catalogue.CatalogueError.of("course_not_found")
    return course


class CourseListApi(PublicReadStaffWrite):
    parser_classes = JSON_OR_MULTIPART  # multipart when a picture is sent

    @extend_schema(responses={200: CourseOutputSerializer(many=True), **UNAVAILABLE})
    def get(self, request):
        try:
            courses = list(selectors.course_list())
        except DatabaseError:
            logger.exception("course list failed")
            return error_response(MSG_COURSES_FETCH_ERROR, status.HTTP_503_SERVICE_UNAVAILABLE)
        return Response(CourseOutputSerializer(courses, many=True).data)

    @extend_schema(request=_course_payloads(CourseInputSerializer, CourseForm), responses={201: CourseOutputSerializer})
    def post(self, request):
        fields = valid_payload(CourseInputSerializer, request)
        image_alt = fields.pop("image_alt", "")
        with transaction.atomic():
            course = catalogue.course_create(**fields)
            _set_picture(request, course, image_alt)
        return Response(CourseOutputSerializer(course).data, status=status.HTTP_201_CREATED)


def _set_picture(request, course, image_alt):
    """An uploaded `image` (multipart) is checked by content and size and stored with its renditions; a refused
    one raises media_library.uploads.UploadRejected (its French message answers 400, the transaction rolls back)."""
    upload = request.FILES.get("image")
    if upload:
        catalogue.course_set_picture(course=course, image=upload, alt_text=image_alt)
    elif image_alt is not None and image_alt != course.image_alt:
        catalogue.course_update(course=course, image_alt=image_alt.strip())


class CourseDetailApi(PublicReadStaffWrite):
    parser_classes = JSON_OR_MULTIPART

    @extend_schema(responses={200: CourseOutputSerializer, **UNAVAILABLE})
    def get(self, request, course_id: int):
        try:
            course = _course(course_id)
        except DatabaseError:
            logger.exception("course detail failed")
            return error_response(MSG_COURSE_FETCH_ERROR, status.HTTP_503_SERVICE_UNAVAILABLE)
        return Response(CourseOutputSerializer(course).data)

    @extend_schema(
        request=_course_payloads(CourseUpdateInputSerializer, CourseUpdateForm), responses=CourseOutputSerializer
    )
    def put(self, request, course_id: int):
        course = _course(course_id)
        fields = valid_payload(CourseUpdateInputSerializer, request)
        image_alt = fields.pop("image_alt", None)
        with transaction.atomic():
            course = catalogue.course_update(course=course, **fields)
            _set_picture(request, course, image_alt)
        return Response(CourseOutputSerializer(course).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, course_id: int):
        catalogue.course_delete(course=_course(course_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- Tariffs ---------------------------------------------------------------------------------------------------


class TariffListApi(PublicReadStaffWrite):
    @extend_schema(responses={200: TariffOutputSerializer(many=True), **UNAVAILABLE})
    def get(self, request):
        try:
            tariffs = list(selectors.tariff_list())
        except DatabaseError:
            logger.exception("tariff list failed")
            return error_response(MSG_TARIFFS_FETCH_ERROR, status.HTTP_503_SERVICE_UNAVAILABLE)
        return Response(TariffOutputSerializer(tariffs, many=True).data)

    @extend_schema(request=TariffInputSerializer, responses={201: TariffOutputSerializer, **UNKNOWN_REFERENCE})
    def post(self, request):
        tariff = catalogue.tariff_create(
            **catalogue.tariff_fields_resolved(valid_payload(TariffInputSerializer, request))
        )
        return Response(TariffOutputSerializer(tariff).data, status=status.HTTP_201_CREATED)


class TariffDetailApi(PublicReadStaffWrite):
    @extend_schema(request=TariffUpdateInputSerializer, responses=TariffOutputSerializer)
    def put(self, request, tariff_id: int):
        tariff = catalogue.tariff_get_or_404(tariff_id=tariff_id)
        fields = catalogue.tariff_fields_resolved(valid_payload(TariffUpdateInputSerializer, request))
        tariff = catalogue.tariff_update(tariff=tariff, **fields)
        return Response(TariffOutputSerializer(tariff).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, tariff_id: int):
        catalogue.tariff_delete(tariff=catalogue.tariff_get_or_404(tariff_id=tariff_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- Testimonials ----------------------------------------------------------------------------------------------


class TestimonialListApi(PublicReadStaffWrite):
    @extend_schema(responses=TestimonialOutputSerializer(many=True))
    def get(self, request):
        return Response(TestimonialOutputSerializer(selectors.testimonial_list(), many=True).data)

    @extend_schema(request=TestimonialInputSerializer, responses={201: TestimonialOutputSerializer})
    def post(self, request):
        testimonial = catalogue.testimonial_create(**valid_payload(TestimonialInputSerializer, request))
        return Response(TestimonialOutputSerializer(testimonial).data, status=status.HTTP_201_CREATED)


class TestimonialDetailApi(PublicReadStaffWrite):
    @extend_schema(request=TestimonialUpdateInputSerializer, responses=TestimonialOutputSerializer)
    def put(self, request, testimonial_id: int):
        testimonial = catalogue.testimonial_get_or_404(testimonial_id=testimonial_id)
        fields = valid_payload(TestimonialUpdateInputSerializer, request)
        testimonial = catalogue.testimonial_update(testimonial=testimonial, **fields)
        return Response(TestimonialOutputSerializer(testimonial).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, testimonial_id: int):
        catalogue.testimonial_delete(testimonial=catalogue.testimonial_get_or_404(testimonial_id=testimonial_id))
        return Response(status=status.HTTP_204_NO_CONTENT)
