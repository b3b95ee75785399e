"""'This and the following' sessions of a weekly series: `PUT /api/course-sessions/{id}/following` (staff).

The series is courses' (courses/apis/series.py creates it), but this change sets places, which never drop below the
seats taken: it is served here, where the seats are counted (bookings/services/session_places.py)."""

from datetime import time

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from courses.serializers.series import SeriesFollowingInput, SeriesFollowingOutput
from courses.services.series import MSG_SERIES_FOLLOWING_UPDATED
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ..services.session_places import course_session_series_update_following
from .sessions import SESSION_ID


class CourseSessionFollowingApi(APIView):
    """PUT: change this session and the following ones of its series (staff)."""

    permission_classes = [IsStudioStaff]

    @extend_schema(
        operation_id="course_session_series_following",
        parameters=[SESSION_ID],
        request=SeriesFollowingInput,
        responses={200: SeriesFollowingOutput, 404: ErrorOutput, 409: ErrorOutput},
    )
    def put(self, request, session_id: int):
        serializer = SeriesFollowingInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        count = course_session_series_update_following(
            session_id=session_id,
            instructor_id=data["instructor_id"],
            max_attendees=data["max_attendees"],
            level=data["level"],
            details=data["details"],
            price_per_participant=data.get("price_per_participant"),
            start_time=time.fromisoformat(data["time"]) if data.get("time") else None,
        )
        return Response(
            SeriesFollowingOutput({"count": count, "message": MSG_SERIES_FOLLOWING_UPDATED.format(count=count)}).data
        )
