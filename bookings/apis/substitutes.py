"""Substitutes (docs/decisions.md 52). An instructor asks on one of their coming classes,
`POST /api/course-sessions/{id}/substitute-requests`; `GET /api/substitute-requests` lists the open requests (and
the instructor's own); another active instructor accepts, `POST /api/substitute-requests/{id}/accept` (the first
wins, the others hear 409); the one who asked may withdraw, `POST /api/substitute-requests/{id}/withdraw`."""

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.errors import FORBIDDEN, ApplicationError
from studio.fields import DateTimeOutputField
from studio.parsers import JSON_ONLY
from studio.permissions import IsStudioStaffOrInstructor
from studio.schema import ErrorOutput

from ..models_team import SubstituteStatus
from ..selectors.instructor import MSG_NOT_AN_INSTRUCTOR, teaching_instructor
from ..selectors.substitutes import ListedRequest, substitute_requests_for
from ..services.substitutes import (
    MAX_MESSAGE_LENGTH,
    MSG_SUBSTITUTE_ACCEPTED,
    MSG_SUBSTITUTE_ASKED,
    MSG_SUBSTITUTE_WITHDRAWN,
    substitute_request_accept,
    substitute_request_create,
    substitute_request_withdraw,
)

MSG_SUBSTITUTE_MESSAGE = f"Le message tient en {MAX_MESSAGE_LENGTH} caractères au plus."


class SubstituteAskInput(serializers.Serializer):
    message = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=MAX_MESSAGE_LENGTH,
        error_messages=dict.fromkeys(["invalid", "null", "max_length"], MSG_SUBSTITUTE_MESSAGE),
    )


class SubstituteRequestOutput(serializers.Serializer):
    id = serializers.IntegerField(source="request.id")
    session_id = serializers.IntegerField(source="request.session_id")
    course_title = serializers.CharField(source="request.session.course.title")
    date = DateTimeOutputField(source="request.session.start")
    end_date = DateTimeOutputField(source="request.session.end")
    requested_by = serializers.CharField(source="request.requested_by.name")
    accepted_by = serializers.CharField(source="request.accepted_by.name", default=None, allow_null=True)
    message = serializers.CharField(source="request.message")
    status = serializers.ChoiceField(source="request.status", choices=SubstituteStatus.choices)
    status_label = serializers.CharField(source="request.get_status_display")
    can_accept = serializers.BooleanField()
    can_withdraw = serializers.BooleanField()


class SubstituteActionOutput(SubstituteRequestOutput):
    confirmation = serializers.CharField(help_text="Le message à montrer à la personne.")


def _instructor(user):
    instructor = teaching_instructor(user)
    if instructor is None:
        raise ApplicationError(MSG_NOT_AN_INSTRUCTOR, code="not_an_instructor", status=FORBIDDEN)
    return instructor


def _answer(request, *, instructor, confirmation: str, status_code=status.HTTP_200_OK) -> Response:
    listed = ListedRequest(request=request, can_accept=False, can_withdraw=False)
    if request.status == SubstituteStatus.OPEN:
        mine = request.requested_by_id == instructor.pk
        listed = ListedRequest(request=request, can_accept=not mine, can_withdraw=mine)
    return Response(SubstituteActionOutput({**listed.__dict__, "confirmation": confirmation}).data, status=status_code)


RESPONSES = {400: ErrorOutput, 403: ErrorOutput, 404: ErrorOutput, 409: ErrorOutput}


class SubstituteRequestListApi(APIView):
    permission_classes = [IsStudioStaffOrInstructor]

    @extend_schema(operation_id="substitute_requests", responses={200: SubstituteRequestOutput(many=True)})
    def get(self, request):
        listed = substitute_requests_for(instructor=teaching_instructor(request.user), now=timezone.now())
        return Response(SubstituteRequestOutput(listed, many=True).data)


class SessionSubstituteRequestApi(APIView):
    permission_classes = [IsStudioStaffOrInstructor]
    parser_classes = JSON_ONLY

    @extend_schema(
        operation_id="substitute_request_create",
        request=SubstituteAskInput,
        responses={201: SubstituteActionOutput, **RESPONSES},
    )
    def post(self, request, session_id: int):
        instructor = _instructor(request.user)
        data = SubstituteAskInput(data=request.data)
        data.is_valid(raise_exception=True)
        asked = substitute_request_create(
            instructor=instructor, session_id=session_id, message=data.validated_data["message"]
        )
        return _answer(asked, instructor=instructor, confirmation=MSG_SUBSTITUTE_ASKED, status_code=201)


class SubstituteAcceptApi(APIView):
    permission_classes = [IsStudioStaffOrInstructor]

    @extend_schema(
        operation_id="substitute_request_accept", request=None, responses={200: SubstituteActionOutput, **RESPONSES}
    )
    def post(self, request, request_id: int):
        instructor = _instructor(request.user)
        accepted = substitute_request_accept(instructor=instructor, request_id=request_id)
        return _answer(accepted, instructor=instructor, confirmation=MSG_SUBSTITUTE_ACCEPTED)


class SubstituteWithdrawApi(APIView):
    permission_classes = [IsStudioStaffOrInstructor]

    @extend_schema(
        operation_id="substitute_request_withdraw", request=None, responses={200: SubstituteActionOutput, **RESPONSES}
    )
    def post(self, request, request_id: int):
        instructor = _instructor(request.user)
        withdrawn = substitute_request_withdraw(instructor=instructor, request_id=request_id)
        return _answer(withdrawn, instructor=instructor, confirmation=MSG_SUBSTITUTE_WITHDRAWN)
