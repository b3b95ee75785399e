"""An instructor's own classes: `GET /api/instructor/sessions` answers the classes of the instructor
record linked to the account (from a week ago on), with the seats taken; each one's attendance sheet is at
`/api/course-sessions/{id}/attendance`, which an instructor reaches for their own classes only."""

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.errors import FORBIDDEN, ApplicationError
from studio.fields import DateTimeOutputField
from studio.permissions import IsStudioStaffOrInstructor
from studio.schema import ErrorOutput

from ..selectors.instructor import MSG_NOT_AN_INSTRUCTOR, instructor_sessions, teaching_instructor


class TeachingInstructorOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class TaughtSessionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    course_title = serializers.CharField()
    date = DateTimeOutputField()
    end_date = DateTimeOutputField()
    status = serializers.CharField(help_text="scheduled | cancelled")
    status_label = serializers.CharField()
    seats_taken = serializers.IntegerField()
    max_attendees = serializers.IntegerField()
    attendance_url = serializers.CharField(help_text="La feuille de présence de ce cours (API).")


class TaughtSessionsOutput(serializers.Serializer):
    instructor = TeachingInstructorOutput()
    results = TaughtSessionOutput(many=True)


def taught_session_data(session) -> dict:
    return {
        "id": session.pk,
        "course_title": session.course.title,
        "date": session.start,
        "end_date": session.end,
        "status": session.status,
        "status_label": session.get_status_display(),
        "seats_taken": session.seats_taken,
        "max_attendees": session.max_attendees,
        "attendance_url": f"/api/course-sessions/{session.pk}/attendance",
    }


class InstructorSessionsApi(APIView):
    permission_classes = [IsStudioStaffOrInstructor]

    @extend_schema(operation_id="instructor_sessions", responses={200: TaughtSessionsOutput, 403: ErrorOutput})
    def get(self, request):
        instructor = teaching_instructor(request.user)
        if instructor is None:
            raise ApplicationError(MSG_NOT_AN_INSTRUCTOR, code="not_an_instructor", status=FORBIDDEN)
        sessions = instructor_sessions(instructor=instructor, now=timezone.now())
        body = {
            "instructor": {"id": instructor.pk, "name": instructor.name},
            "results": [taught_session_data(s) for s in sessions],
        }
        return Response(TaughtSessionsOutput(body).data)
