"""Attendance at the studio door (docs/decisions.md 38), staff and supervisors, and the instructor of the class
(an instructor account reaches its own classes' sheets only; any other answers 404):

- `GET /api/course-sessions/{id}/attendance`: the booked members, participants, payment, mark and no-shows;
- `POST` on the same path `{reservation_id, present}`: mark one present or absent;
- `POST /api/course-sessions/{id}/walk-ins` `{email, participants, paid_with: "pass"|"desk", pass_id?}`: add someone
  at the door, marked present.
"""

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from courses.models import MAX_SESSION_PLACES, CourseSession
from studio.fields import DateTimeOutputField
from studio.permissions import IsStudioStaffOrInstructor
from studio.schema import ErrorOutput
from waivers.selectors import members_flagged, members_missing

from ..selectors.attendance import attendance_sheet
from ..selectors.instructor import user_reaches_session_sheet
from ..services.attendance import (
    MSG_ATTENDANCE_SAVED,
    MSG_WALK_IN_ADDED,
    AttendanceError,
    attendance_is_open,
    attendance_mark,
    attendance_opens_at,
    attendance_walk_in_add,
)
from .common import id_field
from .sessions import SESSION_ID

MSG_RESERVATION_ID_INVALID = "Indiquez la réservation à pointer."
MSG_PRESENT_INVALID = "Indiquez présent (true) ou absent (false)."
MSG_EMAIL_INVALID = "Indiquez l'e-mail du compte de la personne."
MSG_PAID_WITH_INVALID = "Le paiement doit être « pass » (carte ou abonnement) ou « desk » (payé à l'accueil)."
MSG_PARTICIPANTS_INVALID = f"Le nombre de participants doit être un nombre entier entre 1 et {MAX_SESSION_PLACES}."


def _same(message, *keys):
    return dict.fromkeys(keys, message)


class AttendanceMarkInput(serializers.Serializer):
    reservation_id = id_field(MSG_RESERVATION_ID_INVALID)
    present = serializers.BooleanField(error_messages=_same(MSG_PRESENT_INVALID, "required", "null", "invalid"))


class WalkInInput(serializers.Serializer):
    email = serializers.EmailField(
        max_length=254, error_messages=_same(MSG_EMAIL_INVALID, "required", "null", "blank", "invalid", "max_length")
    )
    participants = serializers.IntegerField(
        min_value=1,
        max_value=MAX_SESSION_PLACES,
        default=1,
        error_messages=_same(
            MSG_PARTICIPANTS_INVALID, "null", "invalid", "min_value", "max_value", "max_string_length"
        ),
    )
    paid_with = serializers.ChoiceField(
        choices=["pass", "desk"], error_messages=_same(MSG_PAID_WITH_INVALID, "required", "null", "invalid_choice")
    )
    pass_id = id_field(MSG_PAID_WITH_INVALID, required=False, allow_null=True)


class AttendanceLineOutput(serializers.Serializer):
    reservation_id = serializers.IntegerField()
    user_id = serializers.IntegerField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    email = serializers.CharField()
    participants = serializers.IntegerField()
    payment = serializers.CharField(help_text="Carte de cours, abonnement, carte bancaire, payé à l'accueil…")
    desk_payment = serializers.CharField(
        help_text="Réservée par l'accueil : « due » à régler (une vente la règle), « paid » réglée, vide sinon."
    )
    status = serializers.CharField()
    status_label = serializers.CharField()
    attendance = serializers.ChoiceField(choices=["present", "absent"], allow_null=True)
    walk_in = serializers.BooleanField()
    no_shows = serializers.IntegerField(help_text="Absences du membre, tous cours confondus.")
    health_flag_since = DateTimeOutputField(
        allow_null=True,
        help_text="« À signaler » : le membre a répondu oui au questionnaire de santé, à cette date (rien d'autre).",
    )
    health_missing = serializers.BooleanField(help_text="Questionnaire ou documents à compléter à l'accueil.")


class AttendanceSessionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    course_title = serializers.CharField()
    date = DateTimeOutputField()
    instructor = serializers.CharField()
    max_attendees = serializers.IntegerField()
    price_per_participant = serializers.DecimalField(
        max_digits=8, decimal_places=2, help_text="Le prix d'une séance, que la vente à l'accueil doit atteindre."
    )
    status = serializers.CharField()
    attendance_opens_at = DateTimeOutputField(help_text="Quand la feuille ouvre : pointages et ajouts acceptés.")
    attendance_open = serializers.BooleanField(help_text="Pointages et ajouts acceptés maintenant.")


class AttendanceCountsOutput(serializers.Serializer):
    booked = serializers.IntegerField(help_text="Participants des réservations confirmées.")
    present = serializers.IntegerField()
    absent = serializers.IntegerField()
    unmarked = serializers.IntegerField()


class AttendanceSheetOutput(serializers.Serializer):
    session = AttendanceSessionOutput()
    counts = AttendanceCountsOutput()
    results = AttendanceLineOutput(many=True)
    message = serializers.CharField(required=False)


def _health_marks(rows: list[dict]) -> None:
    """Of a member's health, the sheet shows only "À signaler" with the date they said so, and whether they still
    have to complete it at the door (docs/decisions.md 48): never the answers. Three queries for the whole sheet."""
    member_ids = {row["user_id"] for row in rows if row.get("user_id")}
    flagged = members_flagged(member_ids=member_ids)
    missing = members_missing(member_ids=member_ids)
    for row in rows:
        since = flagged.get(row.get("user_id"))
        row["health_flag_since"] = timezone.localtime(since) if since else None
        row["health_missing"] = row.get("user_id") in missing


def _sheet(session_id: int, message: str = "") -> dict:
    session = CourseSession.objects.select_related("course", "instructor").filter(pk=session_id).first()
    if session is None:
        raise AttendanceError.of("session_not_found")
    rows = attendance_sheet(session=session)
    _health_marks(rows)
    data = {
        "session": {
            "id": session.pk,
            "course_title": session.course.title,
            "date": timezone.localtime(session.start),
            "instructor": session.instructor_name,
            "max_attendees": session.max_attendees,
            "price_per_participant": session.price_per_participant,
            "status": session.status,
            "attendance_opens_at": timezone.localtime(attendance_opens_at(session)),
            "attendance_open": attendance_is_open(session, timezone.now()),
        },
        "counts": {
            "booked": sum(r["participants"] for r in rows),
            "present": sum(1 for r in rows if r["attendance"] == "present"),
            "absent": sum(1 for r in rows if r["attendance"] == "absent"),
            "unmarked": sum(1 for r in rows if r["attendance"] is None),
        },
        "results": rows,
    }
    if message:
        data["message"] = message
    return AttendanceSheetOutput(data).data


def _check_reach(request, session_id: int) -> None:
    """Staff reach every sheet; an instructor account only its own classes': any other is "not found"."""
    if not user_reaches_session_sheet(user=request.user, session_id=session_id):
        raise AttendanceError.of("session_not_found")


class CourseSessionAttendanceApi(APIView):
    permission_classes = [IsStudioStaffOrInstructor]

    @extend_schema(
        operation_id="course_session_attendance",
        parameters=[SESSION_ID],
        responses={200: AttendanceSheetOutput, 403: ErrorOutput, 404: ErrorOutput},
    )
    def get(self, request, session_id: int):
        _check_reach(request, session_id)
        return Response(AttendanceSheetOutput(_sheet(session_id)).data)

    @extend_schema(
        operation_id="course_session_attendance_mark",
        parameters=[SESSION_ID],
        request=AttendanceMarkInput,
        responses={200: AttendanceSheetOutput, 404: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request, session_id: int):
        _check_reach(request, session_id)
        serializer = AttendanceMarkInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        attendance_mark(session_id=session_id, by=request.user, **serializer.validated_data)
        return Response(AttendanceSheetOutput(_sheet(session_id, MSG_ATTENDANCE_SAVED)).data)


class CourseSessionWalkInApi(APIView):
    permission_classes = [IsStudioStaffOrInstructor]

    @extend_schema(
        operation_id="course_session_walk_in",
        parameters=[SESSION_ID],
        request=WalkInInput,
        responses={201: AttendanceSheetOutput, 404: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request, session_id: int):
        _check_reach(request, session_id)
        serializer = WalkInInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        reservation = attendance_walk_in_add(session_id=session_id, by=request.user, **serializer.validated_data)
        name = f"{reservation.first_name} {reservation.last_name}".strip() or reservation.email
        return Response(
            AttendanceSheetOutput(_sheet(session_id, MSG_WALK_IN_ADDED.format(name=name))).data,
            status=status.HTTP_201_CREATED,
        )
