"""Staff: per class the studio cancelled (docs/decisions.md 27), who was refunded or credited and which refunds are
still pending."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.errors import NOT_FOUND
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ..selectors import class_cancellation_report
from ..services.common import PaymentError
from .fields import MAX_ID

MSG_SESSION_NOT_FOUND = "Cette session n'existe pas."

OUTCOMES = ["refunded", "refund_pending", "credits_returned", "subscription", "unpaid", "desk"]


class CancellationLineOutput(serializers.Serializer):
    reservation_id = serializers.IntegerField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    email = serializers.CharField()
    participants = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=OUTCOMES)
    outcome_label = serializers.CharField()
    amount = serializers.DecimalField(max_digits=10, decimal_places=2, allow_null=True)
    credits = serializers.IntegerField()
    pass_title = serializers.CharField(allow_blank=True)
    order_id = serializers.CharField(allow_blank=True)
    refunded_at = serializers.DateTimeField(allow_null=True)


class CancellationReportOutput(serializers.Serializer):
    refunds_pending = serializers.IntegerField()
    results = CancellationLineOutput(many=True)


class CourseSessionCancellationReportApi(APIView):
    """GET: the bookings a class cancellation cancelled, each with what the member got back (empty when the class
    is not cancelled)."""

    permission_classes = [IsStudioStaff]

    @extend_schema(
        operation_id="course_session_cancellation_report",
        parameters=[
            OpenApiParameter("session_id", {"type": "integer", "minimum": 1, "maximum": MAX_ID}, OpenApiParameter.PATH)
        ],
        responses={200: CancellationReportOutput, 404: ErrorOutput},
    )
    def get(self, request, session_id: int):
        rows = class_cancellation_report(session_id=session_id)
        if rows is None:
            raise PaymentError(MSG_SESSION_NOT_FOUND, code="session_not_found", status=NOT_FOUND)
        data = {"refunds_pending": sum(1 for r in rows if r["outcome"] == "refund_pending"), "results": rows}
        return Response(CancellationReportOutput(data).data)
