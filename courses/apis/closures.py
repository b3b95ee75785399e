"""The studio's closures (docs/decisions.md 51): staff keep them (`/api/closures`), the public calendar reads those
of its range (`/api/closures/calendar`). Cancelling the classes inside one is payments' (it sees the refunds)."""

from datetime import date, timedelta

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.parsers import JSON_ONLY
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from .. import selectors
from ..serializers.closures import (
    ClosureInputSerializer,
    ClosureOutputSerializer,
    ClosureRangeInputSerializer,
    ClosureSavedOutputSerializer,
    ClosureStaffOutputSerializer,
    ClosureUpdateInputSerializer,
)
from ..services import closures
from ..services.closures import ClosureError

MAX_CALENDAR_DAYS = 400

REFUSED = {
    400: OpenApiResponse(ErrorOutput, description="Intitulé manquant, date invalide ou dernier jour avant le premier."),
    404: OpenApiResponse(ErrorOutput, description="Fermeture introuvable."),
}


def _payload(serializer_class, request) -> dict:
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


def _saved(closure, template: str, code: int = status.HTTP_200_OK) -> Response:
    closure.sessions_planned = next(c.sessions_planned for c in selectors.closure_list() if c.pk == closure.pk)
    body = {**ClosureStaffOutputSerializer(closure).data, "message": closures.closure_message(template, closure)}
    return Response(ClosureSavedOutputSerializer(body).data, status=code)


class ClosureListApi(APIView):
    permission_classes = [IsStudioStaff]
    parser_classes = JSON_ONLY

    @extend_schema(responses=ClosureStaffOutputSerializer(many=True))
    def get(self, request):
        return Response(ClosureStaffOutputSerializer(selectors.closure_list(), many=True).data)

    @extend_schema(request=ClosureInputSerializer, responses={201: ClosureSavedOutputSerializer, **REFUSED})
    def post(self, request):
        closure = closures.closure_create(**_payload(ClosureInputSerializer, request))
        return _saved(closure, closures.MSG_CLOSURE_CREATED, status.HTTP_201_CREATED)


class ClosureDetailApi(APIView):
    permission_classes = [IsStudioStaff]
    parser_classes = JSON_ONLY

    @extend_schema(request=ClosureUpdateInputSerializer, responses={200: ClosureSavedOutputSerializer, **REFUSED})
    def put(self, request, closure_id: int):
        closure = closures.closure_get_or_404(closure_id=closure_id)
        closure = closures.closure_update(closure=closure, **_payload(ClosureUpdateInputSerializer, request))
        return _saved(closure, closures.MSG_CLOSURE_UPDATED)

    @extend_schema(request=None, responses={204: None, **REFUSED})
    def delete(self, request, closure_id: int):
        closures.closure_delete(closure=closures.closure_get_or_404(closure_id=closure_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


# A date or a date-time, as FullCalendar sends its range (the day is read).
RANGE_SCHEMA = {"anyOf": [{"type": "string", "format": "date"}, {"type": "string", "format": "date-time"}]}


class ClosureCalendarApi(APIView):
    """Public: the closures with a day in the calendar's range (labels and dates only)."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("start", RANGE_SCHEMA, required=True, description="Premier jour (date ou date-heure)."),
            OpenApiParameter("end", RANGE_SCHEMA, required=True, description="Fin de la période (exclue)."),
        ],
        responses={200: ClosureOutputSerializer(many=True), 400: OpenApiResponse(ErrorOutput)},
    )
    def get(self, request):
        data = ClosureRangeInputSerializer(data=request.query_params)
        data.is_valid(raise_exception=True)
        try:
            first = date.fromisoformat(data.validated_data["start"][:10])
            end = date.fromisoformat(data.validated_data["end"][:10])
        except ValueError:
            raise ClosureError.of("closure_range_invalid", field="start") from None
        if end <= first or (end - first).days > MAX_CALENDAR_DAYS:
            raise ClosureError.of("closure_range_invalid", field="end")
        found = selectors.closures_between(first_day=first, last_day=end - timedelta(days=1))
        return Response(ClosureOutputSerializer(found, many=True).data)
