"""QR check-in (docs/decisions.md 58):

- `POST /api/course-sessions/{id}/check-in` `{code}` (staff, or the class's instructor; any other instructor's class
  answers 404 as the sheet does): the booking the scanned code names is marked present; the sheet comes back with
  "… est pointé(e) présent(e)." A forged code, another class's, a code once the class is over or of a booking no
  longer confirmed is refused in French and changes nothing.
- `GET /my-courses/qr/<code>.png` (anyone holding the code): the QR as a PNG, for the confirmation e-mail (mail
  clients show a remote PNG, not an SVG nor a data URI). It shows only what its address already holds.
"""

from django.http import Http404, HttpResponse
from django.views.decorators.http import require_safe
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.permissions import IsStudioStaffOrInstructor
from studio.schema import ErrorOutput

from ..checkin_codes import (
    MAX_CODE_LENGTH,
    MSG_CHECKIN_ALREADY_PRESENT,
    MSG_CHECKIN_FORGED,
    MSG_CHECKIN_PRESENT,
    CheckinError,
    checkin_code_read,
    checkin_png,
)
from ..services.checkin import checkin_scan
from .attendance import AttendanceSheetOutput, _check_reach, _sheet
from .common import _messages
from .sessions import SESSION_ID

# What the studio's codes look like (the schema says it; only the signature tells a real one).
CODE_PATTERN = r"^[0-9]{1,10}\.[0-9]{1,10}\.[A-Za-z0-9_-]{20,80}$"


class CheckinInput(serializers.Serializer):
    code = serializers.RegexField(
        CODE_PATTERN,
        max_length=MAX_CODE_LENGTH,
        help_text="Le texte du code QR de la réservation, tel que la caméra le lit.",
        error_messages=_messages(MSG_CHECKIN_FORGED, "required", "null", "blank", "invalid", "max_length"),
    )


class CourseSessionCheckinApi(APIView):
    permission_classes = [IsStudioStaffOrInstructor]

    @extend_schema(
        operation_id="course_session_check_in",
        parameters=[SESSION_ID],
        request=CheckinInput,
        responses={200: AttendanceSheetOutput, 400: ErrorOutput, 403: ErrorOutput, 404: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request, session_id: int):
        _check_reach(request, session_id)
        serializer = CheckinInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        code = serializer.validated_data["code"]
        reservation, already = checkin_scan(session_id=session_id, code=code, by=request.user)
        name = f"{reservation.first_name} {reservation.last_name}".strip() or reservation.email
        message = (MSG_CHECKIN_ALREADY_PRESENT if already else MSG_CHECKIN_PRESENT).format(name=name)
        return Response(AttendanceSheetOutput(_sheet(session_id, message)).data)


@require_safe
def checkin_qr_png(request, code: str):
    try:
        checkin_code_read(code)
    except CheckinError:
        raise Http404 from None
    response = HttpResponse(checkin_png(code), content_type="image/png")
    response["Cache-Control"] = "private, max-age=86400"
    return response
