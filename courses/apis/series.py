"""Weekly series (docs/decisions.md 35): `POST /api/course-sessions/series` (staff). With `"preview": true` it
only answers the dates it would create and the ones it skips (French public holidays, the studio's closures).

Creating a series touches no seat, so it is courses' alone; "this and the following" changes places, which may not
drop below the seats taken, and is served where seats are counted (bookings/apis/series_following.py)."""

from datetime import time

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.fields import rfc3339
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ..serializers.series import SeriesInput, SeriesOutput
from ..services.series import MSG_SERIES_CREATED, MSG_SERIES_PREVIEW, course_session_series_create, day_label


class CourseSessionSeriesApi(APIView):
    permission_classes = [IsStudioStaff]

    @extend_schema(
        operation_id="course_session_series",
        request=SeriesInput,
        responses={200: SeriesOutput, 201: SeriesOutput, 404: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request):
        serializer = SeriesInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        preview = data["preview"]
        series, plan = course_session_series_create(
            course_id=data["course_id"],
            weekdays=data["weekdays"],
            starts_on=data["starts_on"],
            ends_on=data["ends_on"],
            start_time=time.fromisoformat(data["time"]),
            duration=data.get("duration"),
            instructor_id=data["instructor_id"],
            level=data["level"],
            max_attendees=data["max_attendees"],
            details=data["details"],
            price_per_participant=data.get("price_per_participant"),
            preview=preview,
        )
        template = MSG_SERIES_PREVIEW if preview else MSG_SERIES_CREATED
        body = {
            "preview": preview,
            "series_id": series.pk if series else None,
            "count": len(plan.starts),
            "message": template.format(count=len(plan.starts), skipped=len(plan.skipped)),
            "dates": [{"date": rfc3339(s), "label": f"{day_label(s.date())} {s:%H:%M}"} for s in plan.starts],
            "skipped": [{"date": d, "label": day_label(d), "reason": r} for d, r in plan.skipped],
        }
        return Response(SeriesOutput(body).data, status=status.HTTP_200_OK if preview else status.HTTP_201_CREATED)
