"""Course sessions: the public feed and staff list, one session (staff CRUD); its attendees are in attendees.py.

Every answer here shows seats (taken, left, the member's own reservation), which bookings counts, so these endpoints
are composed in bookings over courses' session writes: a creation or a deletion is courses' alone
(courses/services/sessions.py; a reserved session is protected by its reservations), a change goes through
bookings/services/session_places.py, which keeps the places above the seats taken. Refusals propagate to the handler.
"""

from django.db.models import Count, OuterRef, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from courses.models import MAX_SESSION_PLACES, Level
from courses.serializers.fields import CentsField
from courses.services.sessions import (
    MSG_LEVEL_INVALID,
    MSG_MAX_ATTENDEES_MAX,
    MSG_MAX_ATTENDEES_MIN,
    MSG_PRICE_INVALID,
    MSG_SESSION_ADDED,
    MSG_SESSION_DATE_INVALID,
    MSG_SESSION_DELETED,
    MSG_SESSION_FIELDS_REQUIRED,
    MSG_SESSION_UPDATED,
    course_session_create,
    course_session_delete,
)
from studio.fields import DateTimeOutputField
from studio.pagination import page_output
from studio.parsers import MSG_TEXT_TOO_LONG
from studio.permissions import IsStudioStaff, is_studio_staff
from studio.schema import ErrorOutput

from ..cache import feed_versions
from ..models import Reservation
from ..models_operations import WAITLIST_LIVE_STATUSES, WaitlistEntry
from ..selectors.sessions import sessions_staff_list, sessions_staff_page_list
from ..services.availability import active_reservations_q
from ..services.common import SessionError
from ..services.session_places import course_session_update
from .common import MAX_ID, MessageOutput, OptionalText, id_field
from .feed import (
    FEED_CACHE_SECONDS,
    mark_feed_answer,
    member_feed_encoded,
    parse_feed_range,
    public_feed_encoded,
    session_data,
    staff_session_data,
)
from .pages import CheckedPagination
from .session_filters import FILTER_PARAMETERS, check_filter_parameters, staff_sessions_filtered
from .session_list_extras import (
    FOCUS_PARAMETER,
    ListExtrasOutput,
    StaffListPagination,
    check_focus_parameter,
    focus_page,
)
from .session_query import (
    LIST_PARAMETERS,
    check_list_parameters,
)


def _session_messages(message: str, *keys: str) -> dict:
    return dict.fromkeys(keys, message)


DATE_FORMATS = ["iso-8601", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M"]
DATE_ERRORS = {
    **_session_messages(MSG_SESSION_FIELDS_REQUIRED, "required", "null"),
    **_session_messages(MSG_SESSION_DATE_INVALID, "invalid", "date", "make_aware", "overflow"),
}


class SessionWriteSerializer(serializers.Serializer):
    """The staff's session payload (the dashboard's Sessions.jsx): dates 'YYYY-MM-DD HH:MM:SS' (or ISO 8601) read in
    Paris time when they carry no offset; `end_date` defaults to the start plus the course's duration."""

    course_id = id_field(MSG_SESSION_FIELDS_REQUIRED)
    date = serializers.DateTimeField(input_formats=DATE_FORMATS, error_messages=DATE_ERRORS)
    # One of the instructors list (GET /api/instructors); an unknown id is a 400 in French.
    instructor_id = id_field(MSG_SESSION_FIELDS_REQUIRED, help_text="Un professeur de la liste.")
    end_date = serializers.DateTimeField(
        input_formats=DATE_FORMATS, required=False, allow_null=True, error_messages=DATE_ERRORS
    )
    level = serializers.ChoiceField(
        choices=[("", "—"), *Level.choices],
        required=False,
        allow_blank=True,
        default="",
        error_messages=_session_messages(MSG_LEVEL_INVALID, "invalid_choice", "null"),
    )
    max_attendees = serializers.IntegerField(
        min_value=1,
        max_value=MAX_SESSION_PLACES,
        required=False,
        allow_null=True,
        error_messages={
            **_session_messages(MSG_MAX_ATTENDEES_MIN, "invalid", "min_value", "max_string_length"),
            "max_value": MSG_MAX_ATTENDEES_MAX.format(max=MAX_SESSION_PLACES),
        },
    )
    details = OptionalText(
        max_length=5000,
        allow_null=True,
        error_messages={"max_length": MSG_TEXT_TOO_LONG},
    )
    # A JSON number (rounded to the cent) or a text of digits with two decimals at most; never negative.
    price_per_participant = CentsField(
        required=False,
        allow_null=True,
        error_messages=_session_messages(
            MSG_PRICE_INVALID,
            "invalid",
            "null",
            "min_value",
            "max_value",
            "max_digits",
            "max_decimal_places",
            "max_whole_digits",
            "max_string_length",
        ),
    )

    def service_kwargs(self) -> dict:
        data = self.validated_data
        max_attendees = data.get("max_attendees")
        return {
            "course_id": data["course_id"],
            "start": data["date"],
            "end": data.get("end_date"),
            "instructor_id": data["instructor_id"],
            "level": data.get("level") or "",
            "max_attendees": 10 if max_attendees is None else max_attendees,
            "details": data.get("details"),
            "price_per_participant": data.get("price_per_participant"),
        }


class WholeBodyOnPatch:
    """A PATCH that takes the whole body, as its PUT does: the schema states the same required fields (drf-spectacular
    would otherwise document every field of a PATCH as optional)."""

    @property
    def partial(self):
        return False

    @partial.setter
    def partial(self, value):
        pass


class SessionPatchInput(WholeBodyOnPatch, SessionWriteSerializer):
    """PATCH /api/course-sessions/<id>: the same whole payload as PUT (course, date and instructor_id required)."""


class MyReservationOutput(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField(help_text="held | confirmed")
    participants = serializers.IntegerField()


class SessionOutput(serializers.Serializer):
    """A session of the public feed (feed.session_data)."""

    id = serializers.IntegerField()
    course_id = serializers.IntegerField()
    course_title = serializers.CharField()
    title = serializers.CharField()
    date = DateTimeOutputField()
    end_date = DateTimeOutputField()
    instructor = serializers.CharField(allow_blank=True, help_text="Le nom du professeur.")
    instructor_id = serializers.IntegerField(allow_null=True)
    level = serializers.CharField()
    details = serializers.CharField()
    seats_left = serializers.IntegerField()
    max_attendees = serializers.IntegerField()
    price_per_participant = serializers.DecimalField(max_digits=8, decimal_places=2)
    is_full = serializers.BooleanField()
    is_past = serializers.BooleanField()
    status = serializers.CharField(help_text="scheduled | cancelled (annulé par le studio).")
    status_label = serializers.CharField(help_text="« Programmé » ou « Annulé ».")
    cancellation_reason = serializers.CharField(allow_blank=True)
    booking_opens_at = DateTimeOutputField(help_text="Ouverture des réservations de la session.")
    free_cancellation_until = DateTimeOutputField(help_text="Fin de l'annulation gratuite ; ensuite tardive.")
    my_reservation = MyReservationOutput(allow_null=True)


class StaffSessionOutput(SessionOutput):
    """A session as staff see it (feed.staff_session_data): no `my_reservation`, the seats taken, Paris times."""

    my_reservation = None
    seats_taken = serializers.IntegerField()
    reservations_count = serializers.IntegerField(allow_null=True)
    start_paris = serializers.CharField(help_text="AAAA-MM-JJ HH:MM:SS, heure de Paris.")
    end_paris = serializers.CharField(help_text="AAAA-MM-JJ HH:MM:SS, heure de Paris.")


class StaffSessionWrittenOutput(StaffSessionOutput):
    message = serializers.CharField()


class StaffSessionListItemOutput(StaffSessionOutput, ListExtrasOutput):
    """A row of the staff list: the staff session, then its waiting list's length and its series."""


StaffSessionPageOutput = page_output(
    "StaffSessionPageOutput",
    StaffSessionListItemOutput,
    page=serializers.IntegerField(min_value=1, help_text="La page répondue (celle de `focus` s'il y a lieu)."),
)


FEED_OR_STAFF_PAGE = PolymorphicProxySerializer(
    component_name="CourseSessionFeedOrStaffPage",
    serializers=[SessionOutput(many=True), StaffSessionPageOutput],
    resource_type_field_name=None,
    many=False,
)
SESSION_OR_STAFF_SESSION = PolymorphicProxySerializer(
    component_name="CourseSessionOrStaffSession",
    serializers=[StaffSessionOutput, SessionOutput],
    resource_type_field_name=None,
)
SESSION_ID = OpenApiParameter("session_id", {"type": "integer", "minimum": 1, "maximum": MAX_ID}, OpenApiParameter.PATH)
FEED_PARAMETERS = [*LIST_PARAMETERS, *FILTER_PARAMETERS, FOCUS_PARAMETER]


def _with_seats_and_waitlist(sessions: QuerySet, *, now) -> QuerySet:
    """Each session with its seats taken and live reservations (confirmed, or held and not expired: as
    sessions_with_seats counts them) and its live waiting list (as selectors.waitlist.waitlist_counts):
    subqueries of the page's own query, so that a page is one query whatever its size. The count leaves them out."""
    live = Reservation.objects.filter(active_reservations_q(now), session=OuterRef("pk")).order_by()
    waiting = WaitlistEntry.objects.filter(session=OuterRef("pk"), status__in=WAITLIST_LIVE_STATUSES).order_by()

    def per_session(rows, aggregate):
        return Coalesce(Subquery(rows.values("session").annotate(total=aggregate).values("total")), 0)

    return sessions.annotate(
        seats_taken=per_session(live, Sum("participants")),
        reservations_count=per_session(live, Count("pk")),
        waitlist_count=per_session(waiting, Count("pk")),
    )


class CourseSessionListApi(APIView):
    """GET: the public feed (or, with ?view=staff, the staff list). POST: staff create a session."""

    permission_classes = [AllowAny]
    serializer_class = SessionWriteSerializer

    def get_permissions(self):
        if self.request.method == "POST" or self.request.query_params.get("view") == "staff":
            return [IsStudioStaff()]
        return super().get_permissions()

    @extend_schema(
        operation_id="course_sessions_list",
        parameters=FEED_PARAMETERS,
        responses={200: FEED_OR_STAFF_PAGE, 404: ErrorOutput},
    )
    def get(self, request):
        now = timezone.now()
        check_list_parameters(request.query_params)
        check_filter_parameters(request.query_params)
        check_focus_parameter(request.query_params)
        if request.query_params.get("view") == "staff":
            return self._staff_list(request, now)
        start, end = parse_feed_range(request.query_params)
        # Everyone shares one encoded copy of the range; a member's own reservations are spliced into it.
        if request.user.is_authenticated:
            body = member_feed_encoded(user=request.user, start=start, end=end, now=now)
            return HttpResponse(body, content_type="application/json")
        # Visitors: the whole answer is kept for the middleware, which serves the next ones before DRF and sessions.
        version = feed_versions(start, end)  # read before the data (bookings/cache.py)
        body, _offsets = public_feed_encoded(start=start, end=end, now=now)
        response = HttpResponse(body, content_type="application/json")
        return mark_feed_answer(request, response, version=version, timeout=FEED_CACHE_SECONDS)

    def _staff_list(self, request, now):
        params = request.query_params
        ordering = "-start" if params.get("ordering", "date").startswith("-") else "start"
        sessions = sessions_staff_page_list(ordering=ordering)
        if "start" in params or "end" in params:
            start, end = parse_feed_range(params)
            sessions = sessions.filter(start__lt=end, end__gt=start)
        sessions = staff_sessions_filtered(sessions, params, now=now)
        # ?focus= answers the page holding a session just saved.
        focused = None
        if params.get("focus"):
            size = CheckedPagination().get_page_size(request)
            focused = focus_page(sessions, params, page_size=size, descending=ordering[0] == "-")
        paginator = StaffListPagination(focused)
        page = paginator.paginate_queryset(_with_seats_and_waitlist(sessions, now=now), request, view=self)
        rows = [
            {
                **staff_session_data(session, now=now),
                "waitlist_count": session.waitlist_count,
                "series_id": session.series_id,
            }
            for session in page
        ]
        return Response(StaffSessionPageOutput(paginator.page_body(rows)).data)

    @extend_schema(request=SessionWriteSerializer, responses={201: StaffSessionWrittenOutput, 404: ErrorOutput})
    def post(self, request):
        serializer = SessionWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = course_session_create(**serializer.service_kwargs())
        data = staff_session_data(session)
        data["message"] = MSG_SESSION_ADDED
        return Response(StaffSessionWrittenOutput(data).data, status=status.HTTP_201_CREATED)


class CourseSessionDetailApi(APIView):
    """GET one session (public; staff see the staff shape). PUT and DELETE: staff."""

    permission_classes = [AllowAny]
    serializer_class = SessionWriteSerializer

    def get_permissions(self):
        if self.request.method in ("PUT", "PATCH", "DELETE"):
            return [IsStudioStaff()]
        return super().get_permissions()

    def _get(self, session_id):
        session = sessions_staff_list().filter(pk=session_id).first()
        if session is None:
            raise SessionError.of("session_not_found")
        return session

    @extend_schema(parameters=[SESSION_ID], responses=SESSION_OR_STAFF_SESSION)
    def get(self, request, session_id: int):
        session = self._get(session_id)
        if is_studio_staff(request.user):
            return Response(StaffSessionOutput(staff_session_data(session)).data)
        return Response(SessionOutput(session_data(session)).data)

    @extend_schema(parameters=[SESSION_ID], request=SessionWriteSerializer, responses=StaffSessionWrittenOutput)
    def put(self, request, session_id: int):
        self._get(session_id)  # an unknown session answers 404 whatever the payload
        serializer = SessionWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        course_session_update(session_id=session_id, **serializer.service_kwargs())
        data = staff_session_data(self._get(session_id))
        data["message"] = MSG_SESSION_UPDATED
        return Response(StaffSessionWrittenOutput(data).data)

    @extend_schema(parameters=[SESSION_ID], request=SessionPatchInput, responses=StaffSessionWrittenOutput)
    def patch(self, request, session_id: int):
        return self.put(request, session_id)

    @extend_schema(parameters=[SESSION_ID], responses={200: MessageOutput})
    def delete(self, request, session_id: int):
        course_session_delete(session_id=session_id)
        return Response(MessageOutput({"message": MSG_SESSION_DELETED}).data)
