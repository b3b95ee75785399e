"""Instructors: `GET /api/instructors` (visitors: the active ones' public shape; staff: every record),
`POST` (staff), `PUT`/`DELETE /api/instructors/{id}` (staff). An instructor who has classes cannot be deleted (409):
staff deactivate them, and the session forms stop offering them."""

from drf_spectacular.utils import OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import status
from rest_framework.response import Response

from studio.permissions import is_studio_staff
from studio.schema import ErrorOutput

from .. import selectors
from ..serializers.instructors import (
    InstructorInputSerializer,
    InstructorOutput,
    InstructorPublicOutput,
    InstructorUpdateInputSerializer,
)
from ..services import catalogue
from .common import PublicReadStaffWrite, valid_payload

UNKNOWN_USER = {404: OpenApiResponse(ErrorOutput, description="Le compte désigné n'existe pas.")}
CONFLICT = {409: OpenApiResponse(ErrorOutput, description="Nom ou compte déjà pris par un autre professeur.")}
PUBLIC_OR_STAFF_LIST = PolymorphicProxySerializer(
    component_name="InstructorPublicOrStaffList",
    serializers=[InstructorOutput(many=True), InstructorPublicOutput(many=True)],
    resource_type_field_name=None,
    many=False,
)


def _instructor_fields(fields: dict) -> dict:
    if "user_id" in fields:
        user_id = fields.pop("user_id")
        fields["user"] = None if user_id is None else catalogue.user_get_or_404(user_id=user_id)
    return fields


class InstructorListApi(PublicReadStaffWrite):
    @extend_schema(operation_id="instructors_list", responses=PUBLIC_OR_STAFF_LIST)
    def get(self, request):
        if is_studio_staff(request.user):
            return Response(InstructorOutput(selectors.instructor_list(), many=True).data)
        return Response(InstructorPublicOutput(selectors.instructor_list().filter(active=True), many=True).data)

    @extend_schema(request=InstructorInputSerializer, responses={201: InstructorOutput, **UNKNOWN_USER, **CONFLICT})
    def post(self, request):
        instructor = catalogue.instructor_create(
            **_instructor_fields(valid_payload(InstructorInputSerializer, request))
        )
        return Response(InstructorOutput(instructor).data, status=status.HTTP_201_CREATED)


class InstructorDetailApi(PublicReadStaffWrite):
    @extend_schema(
        request=InstructorUpdateInputSerializer,
        responses={200: InstructorOutput, 404: ErrorOutput, **CONFLICT},
    )
    def put(self, request, instructor_id: int):
        instructor = catalogue.instructor_get_or_404(instructor_id=instructor_id)
        fields = _instructor_fields(valid_payload(InstructorUpdateInputSerializer, request))
        instructor = catalogue.instructor_update(instructor=instructor, **fields)
        return Response(InstructorOutput(instructor).data)

    @extend_schema(request=None, responses={204: None, 404: ErrorOutput, 409: ErrorOutput})
    def delete(self, request, instructor_id: int):
        catalogue.instructor_delete(instructor=catalogue.instructor_get_or_404(instructor_id=instructor_id))
        return Response(status=status.HTTP_204_NO_CONTENT)
