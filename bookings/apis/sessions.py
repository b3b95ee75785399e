"""Course sessions: the public feed and staff list, one session (staff CRUD), its attendees."""

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.api import error_response
from studio.pagination import StandardPagination
from studio.permissions import IsStudioStaff, is_studio_staff

from .. import selectors, services
from ..cache import feed_versions, mark_feed_answer
from ..models import ReservationStatus
from .common import _iso, _text
from .feed import (
    FEED_CACHE_SECONDS,
    member_feed_json,
    parse_feed_range,
    public_feed_encoded,
    session_data,
    staff_session_data,
)


def attendee_data(reservation) -> dict:
    return {
        "id": reservation.pk,
        "user_id": reservation.user_id,
        "first_name": reservation.first_name,
        "last_name": reservation.last_name,
        "email": reservation.email,
        "participants": reservation.participants,
        "status": reservation.status,
        "status_label": reservation.get_status_display(),
        "paid": reservation.status == ReservationStatus.CONFIRMED,
        "total_amount": f"{reservation.total_amount:.2f}",
        "hold_expires_at": _iso(reservation.hold_expires_at),
        "created_at": _iso(reservation.created_at),
        "confirmed_at": _iso(reservation.confirmed_at),
        "message": reservation.message,
    }


class SessionWriteSerializer(serializers.Serializer):
    """SPEC.md 7's staff payload. Values are checked by the services, which hold the French messages."""

    course_id = _text()
    date = _text()
    end_date = _text()
    instructor = _text()
    level = _text()
    max_attendees = _text()
    details = _text()
    price_per_participant = _text()

    def service_kwargs(self) -> dict:
        data = self.validated_data
        return {
            "course_id": data.get("course_id"),
            "start": data.get("date"),
            "end": data.get("end_date") or None,
            "instructor": data.get("instructor") or "",
            "level": data.get("level") or "",
            "max_attendees": data.get("max_attendees"),
            "details": data.get("details"),
            "price_per_participant": data.get("price_per_participant"),
        }


class CourseSessionListApi(APIView):
    """GET: the public feed (or, with ?view=staff, the staff list). POST: staff create a session."""

    permission_classes = [AllowAny]
    serializer_class = SessionWriteSerializer

    def get_permissions(self):
        if self.request.method == "POST" or self.request.query_params.get("view") == "staff":
            return [IsStudioStaff()]
        return super().get_permissions()

    @extend_schema(operation_id="course_sessions_list", responses=OpenApiTypes.OBJECT)
    def get(self, request):
        now = timezone.now()
        if request.query_params.get("view") == "staff":
            return self._staff_list(request, now)
        try:
            start, end = parse_feed_range(request.query_params)
        except ValueError as exc:
            return error_response(str(exc))
        # Everyone shares one encoded copy of the range; a member's own reservations are spliced into it.
        if request.user.is_authenticated:
            body, offsets = public_feed_encoded(start=start, end=end, now=now)
            mine = selectors.member_reservations_in_range(user=request.user, start=start, end=end, now=now)
            body = member_feed_json(body=body, offsets=offsets, mine=mine)
            return HttpResponse(body, content_type="application/json")
        # Visitors: the whole answer is kept for the middleware, which serves the next ones before DRF and sessions.
        version = feed_versions(start, end)  # read before the data (bookings/cache.py)
        body, _offsets = public_feed_encoded(start=start, end=end, now=now)
        response = HttpResponse(body, content_type="application/json")
        return mark_feed_answer(request, response, version=version, timeout=FEED_CACHE_SECONDS)

    def _staff_list(self, request, now):
        ordering = "-start" if request.query_params.get("ordering", "date").startswith("-") else "start"
        qs = selectors.sessions_staff_page_list(ordering=ordering)
        if request.query_params.get("start") or request.query_params.get("end"):
            try:
                start, end = parse_feed_range(request.query_params)
            except ValueError as exc:
                return error_response(str(exc))
            qs = qs.filter(start__lt=end, end__gt=start)
        paginator = StandardPagination()
        page = selectors.sessions_with_seats(paginator.paginate_queryset(qs, request, view=self), now=now)
        return paginator.get_paginated_response([staff_session_data(s, now=now) for s in page])

    def post(self, request):
        serializer = SessionWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            session = services.course_session_create(**serializer.service_kwargs())
        except services.ReservationError as exc:
            return error_response(exc.message)
        data = staff_session_data(session)
        data["message"] = services.MSG_SESSION_ADDED
        return Response(data, status=status.HTTP_201_CREATED)


class CourseSessionDetailApi(APIView):
    """GET one session (public). PUT and DELETE: staff."""

    permission_classes = [AllowAny]
    serializer_class = SessionWriteSerializer

    def get_permissions(self):
        if self.request.method in ("PUT", "PATCH", "DELETE"):
            return [IsStudioStaff()]
        return super().get_permissions()

    def _get(self, session_id):
        session = selectors.sessions_staff_list().filter(pk=session_id).first()
        return session

    def get(self, request, session_id: int):
        session = self._get(session_id)
        if session is None:
            return error_response(services.MSG_SESSION_NOT_FOUND, status.HTTP_404_NOT_FOUND)
        if is_studio_staff(request.user):
            return Response(staff_session_data(session))
        return Response(session_data(session))

    def put(self, request, session_id: int):
        serializer = SessionWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            services.course_session_update(session_id=session_id, **serializer.service_kwargs())
        except services.ReservationError as exc:
            code = status.HTTP_404_NOT_FOUND if exc.message == services.MSG_SESSION_NOT_FOUND else 400
            return error_response(exc.message, code)
        data = staff_session_data(self._get(session_id))
        data["message"] = services.MSG_SESSION_UPDATED
        return Response(data)

    patch = put

    def delete(self, request, session_id: int):
        try:
            services.course_session_delete(session_id=session_id)
        except services.ReservationError as exc:
            code = (
                status.HTTP_404_NOT_FOUND if exc.message == services.MSG_SESSION_NOT_FOUND else status.HTTP_409_CONFLICT
            )
            return error_response(exc.message, code)
        return Response({"message": services.MSG_SESSION_DELETED})


class CourseSessionAttendeesApi(APIView):
    """Staff: who is coming to a session, how many, paid (confirmed) or held."""

    permission_classes = [IsStudioStaff]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, session_id: int):
        now = timezone.now()
        session = selectors.sessions_staff_list(now=now).filter(pk=session_id).first()
        if session is None:
            return error_response(services.MSG_SESSION_NOT_FOUND, status.HTTP_404_NOT_FOUND)
        attendees = [
            attendee_data(r)
            for r in selectors.session_attendees(session_id=session_id)
            if r.status == ReservationStatus.CONFIRMED or (r.hold_expires_at and r.hold_expires_at > now)
        ]
        data = staff_session_data(session, now=now)
        return Response(
            {
                "session": data,
                "seats_taken": data["seats_taken"],
                "seats_left": data["seats_left"],
                "results": attendees,
            }
        )
