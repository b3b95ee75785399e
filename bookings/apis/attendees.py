"""Staff: who is coming to a session, how many, paid (confirmed) or held."""

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.permissions import IsStudioStaff

from ..models import ReservationStatus
from ..selectors.sessions import session_attendees, sessions_staff_list
from ..services.common import SessionError
from .common import _iso
from .feed import staff_session_data
from .sessions import SESSION_ID, StaffSessionOutput


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


class AttendeeOutput(serializers.Serializer):
    id = serializers.IntegerField()
    user_id = serializers.IntegerField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    email = serializers.CharField()
    participants = serializers.IntegerField()
    status = serializers.CharField(help_text="held | confirmed")
    status_label = serializers.CharField()
    paid = serializers.BooleanField()
    total_amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    hold_expires_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    confirmed_at = serializers.DateTimeField(allow_null=True)
    message = serializers.CharField()


class AttendeesOutput(serializers.Serializer):
    session = StaffSessionOutput()
    seats_taken = serializers.IntegerField()
    seats_left = serializers.IntegerField()
    results = AttendeeOutput(many=True)


class CourseSessionAttendeesApi(APIView):
    """Staff: who is coming to a session, how many, paid (confirmed) or held."""

    permission_classes = [IsStudioStaff]

    @extend_schema(parameters=[SESSION_ID], responses=AttendeesOutput)
    def get(self, request, session_id: int):
        now = timezone.now()
        session = sessions_staff_list(now=now).filter(pk=session_id).first()
        if session is None:
            raise SessionError.of("session_not_found")
        attendees = [
            attendee_data(r)
            for r in session_attendees(session_id=session_id)
            if r.status == ReservationStatus.CONFIRMED or (r.hold_expires_at and r.hold_expires_at > now)
        ]
        data = staff_session_data(session, now=now)
        return Response(
            AttendeesOutput(
                {
                    "session": data,
                    "seats_taken": data["seats_taken"],
                    "seats_left": data["seats_left"],
                    "results": attendees,
                }
            ).data
        )
