"""Staff: "Annuler les cours de la fermeture" (docs/decisions.md 27, 51): every class still planned inside a closure
cancelled as one class cancellation does, with how many classes and bookings that was and how many card refunds it
queued. Idempotent: run again, it finds nothing left."""

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from bookings.apis.common import filled
from bookings.services.class_cancellation import MAX_REASON_LENGTH, MSG_CANCEL_REASON_REQUIRED
from studio.parsers import JSON_ONLY, MSG_TEXT_TOO_LONG
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ..services.closure_cancellation import closure_sessions_cancel
from .fields import MAX_ID


class ClosureCancelInput(serializers.Serializer):
    reason = serializers.CharField(
        max_length=MAX_REASON_LENGTH,
        validators=[filled(MSG_CANCEL_REASON_REQUIRED)],
        error_messages={
            "required": MSG_CANCEL_REASON_REQUIRED,
            "blank": MSG_CANCEL_REASON_REQUIRED,
            "null": MSG_CANCEL_REASON_REQUIRED,
            "invalid": MSG_CANCEL_REASON_REQUIRED,
            "max_length": MSG_TEXT_TOO_LONG,
        },
        help_text="Envoyé à chaque inscrit avec l'annulation.",
    )


class ClosureCancelledOutput(serializers.Serializer):
    sessions_cancelled = serializers.IntegerField(min_value=0)
    bookings_cancelled = serializers.IntegerField(min_value=0)
    refunds_queued = serializers.IntegerField(min_value=0, help_text="Paiements par carte remboursés en tâche.")
    message = serializers.CharField()


class ClosureCancelSessionsApi(APIView):
    permission_classes = [IsStudioStaff]
    parser_classes = JSON_ONLY

    @extend_schema(
        operation_id="closure_cancel_sessions",
        parameters=[
            OpenApiParameter("closure_id", {"type": "integer", "minimum": 1, "maximum": MAX_ID}, OpenApiParameter.PATH)
        ],
        request=ClosureCancelInput,
        responses={
            200: ClosureCancelledOutput,
            400: OpenApiResponse(ErrorOutput, description="Motif manquant."),
            404: OpenApiResponse(ErrorOutput, description="Fermeture introuvable."),
        },
    )
    def post(self, request, closure_id: int):
        data = ClosureCancelInput(data=request.data)
        data.is_valid(raise_exception=True)
        done = closure_sessions_cancel(closure_id=closure_id, reason=data.validated_data["reason"])
        return Response(
            ClosureCancelledOutput(
                {
                    "sessions_cancelled": done.sessions_cancelled,
                    "bookings_cancelled": done.bookings_cancelled,
                    "refunds_queued": done.refunds_queued,
                    "message": done.message,
                }
            ).data
        )
