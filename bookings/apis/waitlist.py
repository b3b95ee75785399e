"""Waiting lists (docs/decisions.md 28, 35).

`GET /api/course-sessions/<id>/waitlist` (staff): the session's line. `POST` (member, `{auto_book, pass_id}`): join,
answers `{position}`. `DELETE` (member): leave. `GET /api/waitlist/mine` (member): their live entries and positions,
for the calendar popup and /my-courses. Refusals are the service's `WaitlistError`s (studio.api's handler).
"""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from courses.models import MAX_SESSION_PLACES, CourseSession
from studio.fields import DateTimeOutputField, StrictBooleanField
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ..models_operations import WAITLIST_LIVE_STATUSES, WaitlistEntry
from ..selectors.waitlist import session_waitlist, waiting_positions
from ..services.passes import MSG_PASS_NOT_FOUND
from ..services.waitlist import (
    MSG_WAITLIST_JOINED,
    MSG_WAITLIST_LEFT,
    WaitlistError,
    waitlist_join,
    waitlist_leave,
    waitlist_position,
)
from .common import MessageOutput, _iso, _messages, id_field
from .sessions import SESSION_ID

MSG_AUTO_BOOK_INVALID = "Le choix de réservation automatique doit être vrai ou faux."
MSG_WAITLIST_PARTICIPANTS_INVALID = (
    f"Le nombre de participants doit être un nombre entier entre 1 et {MAX_SESSION_PLACES}."
)


class WaitlistJoinInput(serializers.Serializer):
    auto_book = StrictBooleanField(
        required=False,
        default=False,
        help_text="Réserver automatiquement avec ma carte/mon abonnement quand une place se libère.",
        error_messages=_messages(MSG_AUTO_BOOK_INVALID, "invalid", "null"),
    )
    pass_id = id_field(MSG_PASS_NOT_FOUND, required=False, allow_null=True, help_text="Obligatoire avec auto_book.")
    participants = serializers.IntegerField(
        min_value=1,
        max_value=MAX_SESSION_PLACES,
        default=1,
        help_text="Places demandées (1 par défaut), au plus celles du cours (sinon 409).",
        error_messages=_messages(
            MSG_WAITLIST_PARTICIPANTS_INVALID, "null", "invalid", "min_value", "max_value", "max_string_length"
        ),
    )


class WaitlistJoinOutput(serializers.Serializer):
    position = serializers.IntegerField(min_value=1)
    message = serializers.CharField()


class WaitlistEntryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    session_id = serializers.IntegerField()
    title = serializers.CharField()
    date = DateTimeOutputField()
    status = serializers.CharField(help_text="waiting | offered")
    position = serializers.IntegerField(allow_null=True, help_text="Rang dans la file (null : place proposée).")
    auto_book = serializers.BooleanField()
    pass_id = serializers.IntegerField(allow_null=True)
    offer_expires_at = DateTimeOutputField(allow_null=True)
    reservation_id = serializers.IntegerField(allow_null=True)
    joined_at = DateTimeOutputField()


class StaffWaitlistEntryOutput(WaitlistEntryOutput):
    user_id = serializers.IntegerField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    email = serializers.CharField()
    participants = serializers.IntegerField(min_value=1)
    status_label = serializers.CharField(help_text="« En liste d'attente » ou « Place proposée ».")


class StaffWaitlistOutput(serializers.Serializer):
    session_id = serializers.IntegerField()
    results = StaffWaitlistEntryOutput(many=True)


def entry_data(entry: WaitlistEntry, position: int | None) -> dict:
    return {
        "id": entry.pk,
        "session_id": entry.session_id,
        "title": entry.session.course.title,
        "date": _iso(entry.session.start),
        "status": entry.status,
        "position": position,
        "auto_book": entry.auto_book,
        "pass_id": entry.pass_ref_id,
        "offer_expires_at": _iso(entry.offer_expires_at),
        "reservation_id": entry.reservation_id,
        "joined_at": _iso(entry.created_at),
    }


def _live(qs):
    return qs.filter(status__in=WAITLIST_LIVE_STATUSES).select_related("session__course", "user")


class CourseSessionWaitlistApi(APIView):
    """GET (staff): the line of a session. POST (member): join it. DELETE (member): leave it."""

    permission_classes = [IsAuthenticated]
    serializer_class = WaitlistJoinInput

    def get_permissions(self):
        if self.request.method == "GET":
            return [IsStudioStaff()]
        return super().get_permissions()

    @extend_schema(
        operation_id="course_session_waitlist_list",
        parameters=[SESSION_ID],
        responses={200: StaffWaitlistOutput, 404: ErrorOutput},
    )
    def get(self, request, session_id: int):
        if not CourseSession.objects.filter(pk=session_id).exists():
            raise WaitlistError.of("session_not_found")
        entries = session_waitlist(session_id=session_id)
        ranks = waiting_positions(entries)
        results = [
            {
                **entry_data(e, ranks.get(e.pk)),
                "user_id": e.user_id,
                "first_name": e.user.first_name,
                "last_name": e.user.last_name,
                "email": e.user.email,
                "participants": e.participants,
                "status_label": e.get_status_display(),
            }
            for e in entries
        ]
        return Response(StaffWaitlistOutput({"session_id": session_id, "results": results}).data)

    @extend_schema(
        operation_id="course_session_waitlist_join",
        parameters=[SESSION_ID],
        request=WaitlistJoinInput,
        responses={201: WaitlistJoinOutput, 404: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request, session_id: int):
        serializer = WaitlistJoinInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = waitlist_join(
            user=request.user,
            session_id=session_id,
            auto_book=serializer.validated_data["auto_book"],
            pass_id=serializer.validated_data.get("pass_id"),
            participants=serializer.validated_data["participants"],
        )
        position = waitlist_position(entry) or 1
        return Response(
            WaitlistJoinOutput({"position": position, "message": MSG_WAITLIST_JOINED.format(position=position)}).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        operation_id="course_session_waitlist_leave",
        parameters=[SESSION_ID],
        request=None,
        responses={200: MessageOutput, 404: ErrorOutput},
    )
    def delete(self, request, session_id: int):
        waitlist_leave(user=request.user, session_id=session_id)
        return Response(MessageOutput({"message": MSG_WAITLIST_LEFT}).data)


class MyWaitlistApi(APIView):
    """GET /api/waitlist/mine: the member's live waiting-list entries with their true positions."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="waitlist_mine", responses=WaitlistEntryOutput(many=True))
    def get(self, request):
        mine = list(_live(WaitlistEntry.objects.filter(user=request.user)))
        session_ids = {e.session_id for e in mine}
        line = WaitlistEntry.objects.filter(session_id__in=session_ids, status="waiting").order_by(
            "session_id", "created_at", "id"
        )
        ranks, counters = {}, {}
        for pk, sid in line.values_list("pk", "session_id"):
            counters[sid] = counters.get(sid, 0) + 1
            ranks[pk] = counters[sid]
        mine.sort(key=lambda e: e.session.start)
        return Response(WaitlistEntryOutput([entry_data(e, ranks.get(e.pk)) for e in mine], many=True).data)
