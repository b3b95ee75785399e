"""Staff cancel a class (docs/decisions.md 27, 35): `POST /api/course-sessions/{id}/cancel` with `{reason}`."""

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.parsers import MSG_TEXT_TOO_LONG
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ..selectors.sessions import sessions_staff_list
from ..services.class_cancellation import MAX_REASON_LENGTH, MSG_CANCEL_REASON_REQUIRED, course_session_cancel
from .common import filled
from .feed import staff_session_data
from .sessions import SESSION_ID, StaffSessionOutput


class SessionCancelInput(serializers.Serializer):
    # Something other than spaces, no NUL (the schema's pattern says so too): the reason is e-mailed to the members.
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
    )


class SessionCancelledOutput(StaffSessionOutput):
    status = serializers.CharField(help_text="cancelled")
    status_label = serializers.CharField(help_text="Annulé")
    cancellation_reason = serializers.CharField()
    message = serializers.CharField()
    cancelled_reservations = serializers.IntegerField()


class CourseSessionCancelApi(APIView):
    """Staff: cancel a class. Every booking is cancelled, card payments refunded in full (in tasks), class-card
    credits returned, the members e-mailed the reason with a calendar cancellation; the class stays "Annulé"."""

    permission_classes = [IsStudioStaff]

    @extend_schema(
        operation_id="course_session_cancel",
        parameters=[SESSION_ID],
        request=SessionCancelInput,
        responses={200: SessionCancelledOutput, 404: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request, session_id: int):
        serializer = SessionCancelInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        outcome = course_session_cancel(session_id=session_id, reason=serializer.validated_data["reason"])
        now = timezone.now()
        session = sessions_staff_list(now=now).get(pk=session_id)
        data = staff_session_data(session, now=now)
        data["status"] = session.status
        data["status_label"] = session.get_status_display()
        data["cancellation_reason"] = session.cancellation_reason
        data["message"] = outcome.message
        data["cancelled_reservations"] = len(outcome.cancelled_reservation_ids)
        return Response(SessionCancelledOutput(data).data)
