"""Staff booking and cancelling on a member's behalf from the front desk (docs/decisions.md 50), staff only:

- `POST /api/course-sessions/{id}/bookings` `{user_id, participants, paid_with: "pass"|"desk"|"due", pass_id?,
  payments?: [{means, amount}], idempotency_key?}`: book the member, paid with their pass, at the desk now (the
  means adding up to the session's price), or "à régler";
- `POST /api/course-sessions/{id}/bookings/{reservation_id}/cancel`: cancel under the member's own rules.

In payments since a desk booking moves money (a sale recorded with the booking); the rules are bookings' services.
"""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from bookings.models import Reservation
from bookings.services.common import ReservationError
from bookings.services.staff_bookings import (
    MSG_CANCELLED_ON_BEHALF,
    PAID_AT_DESK,
    PAID_WITH_CHOICES,
    booked_on_behalf_message,
    reservation_cancel_for_member,
)
from courses.models import MAX_SESSION_PLACES
from studio.parsers import BoundedJSONParser
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ..services.desk import DeskError, desk_booking_record
from .desk_fields import desk_lines, desk_lines_field, idempotency_key_field
from .fields import MAX_ID

MSG_USER_ID_INVALID = "Choisissez le client à inscrire."
MSG_PASS_ID_INVALID = "Carte ou abonnement invalide."
MSG_PARTICIPANTS_INVALID = f"Le nombre de participants doit être un nombre entier entre 1 et {MAX_SESSION_PLACES}."
MSG_PAID_WITH_INVALID = (
    "Le paiement doit être « pass » (carte ou abonnement), « desk » (payé à l'accueil) ou « due » (à régler)."
)
MSG_DESK_PAYMENTS_REQUIRED = "Payé à l'accueil : indiquez les moyens de paiement et leurs montants."

SESSION_ID = OpenApiParameter("session_id", int, OpenApiParameter.PATH)
RESERVATION_ID = OpenApiParameter("reservation_id", int, OpenApiParameter.PATH)


def _same(message, *keys):
    return dict.fromkeys(keys, message)


def _id(message: str, **kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        error_messages=_same(message, "required", "null", "invalid", "min_value", "max_value", "max_string_length"),
        **kwargs,
    )


class DeskBookingInput(serializers.Serializer):
    user_id = _id(MSG_USER_ID_INVALID)
    participants = serializers.IntegerField(
        min_value=1,
        max_value=MAX_SESSION_PLACES,
        default=1,
        error_messages=_same(
            MSG_PARTICIPANTS_INVALID, "null", "invalid", "min_value", "max_value", "max_string_length"
        ),
    )
    paid_with = serializers.ChoiceField(
        choices=PAID_WITH_CHOICES, error_messages=_same(MSG_PAID_WITH_INVALID, "required", "null", "invalid_choice")
    )
    pass_id = _id(MSG_PASS_ID_INVALID, required=False, allow_null=True)
    payments = desk_lines_field(required=False)
    idempotency_key = idempotency_key_field(required=False)

    def validate(self, attrs):
        if attrs["paid_with"] == PAID_AT_DESK and not attrs.get("payments"):
            raise serializers.ValidationError({"payments": [MSG_DESK_PAYMENTS_REQUIRED]})
        return attrs


class DeskBookingOutput(serializers.Serializer):
    reservation_id = serializers.IntegerField()
    user_id = serializers.IntegerField()
    session_id = serializers.IntegerField()
    participants = serializers.IntegerField()
    status = serializers.CharField()
    paid_with = serializers.ChoiceField(choices=PAID_WITH_CHOICES)
    pass_id = serializers.IntegerField(allow_null=True)
    desk_payment = serializers.CharField(help_text="« due » à régler, « paid » payé à l'accueil, vide sinon.")
    message = serializers.CharField()


class DeskCancelOutput(serializers.Serializer):
    reservation_id = serializers.IntegerField()
    late = serializers.BooleanField(help_text="Annulation tardive (docs/decisions.md 44).")
    message = serializers.CharField()


class CourseSessionBookingsApi(APIView):
    permission_classes = [IsStudioStaff]
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        operation_id="course_session_book_for_member",
        parameters=[SESSION_ID],
        request=DeskBookingInput,
        responses={201: DeskBookingOutput, 400: ErrorOutput, 403: ErrorOutput, 404: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request, session_id: int):
        serializer = DeskBookingInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        reservation = desk_booking_record(
            staff=request.user,
            member_id=data["user_id"],
            session_id=session_id,
            participants=data["participants"],
            paid_with=data["paid_with"],
            pass_id=data.get("pass_id"),
            lines=desk_lines(data.get("payments")),
            idempotency_key=data.get("idempotency_key"),
        )
        if reservation.session_id != session_id:  # a key reused for another class
            raise DeskError.of("key_reused")
        output = {
            "reservation_id": reservation.pk,
            "user_id": reservation.user_id,
            "session_id": reservation.session_id,
            "participants": reservation.participants,
            "status": reservation.status,
            "paid_with": data["paid_with"],
            "pass_id": reservation.paid_with_pass_id,
            "desk_payment": reservation.desk_payment,
            "message": booked_on_behalf_message(reservation, data["paid_with"]),
        }
        return Response(DeskBookingOutput(output).data, status=status.HTTP_201_CREATED)


class CourseSessionBookingCancelApi(APIView):
    permission_classes = [IsStudioStaff]

    @extend_schema(
        operation_id="course_session_cancel_for_member",
        parameters=[SESSION_ID, RESERVATION_ID],
        request=None,
        responses={200: DeskCancelOutput, 403: ErrorOutput, 404: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request, session_id: int, reservation_id: int):
        if not 0 < reservation_id < 2**31 or not _of_session(reservation_id, session_id):
            raise ReservationError.of("reservation_not_found")
        outcome = reservation_cancel_for_member(staff=request.user, reservation_id=reservation_id)
        reservation = outcome.reservation
        name = f"{reservation.first_name} {reservation.last_name}".strip()
        return Response(
            DeskCancelOutput(
                {
                    "reservation_id": reservation.pk,
                    "late": outcome.late,
                    "message": MSG_CANCELLED_ON_BEHALF.format(name=name, outcome=outcome.message),
                }
            ).data
        )


def _of_session(reservation_id: int, session_id: int) -> bool:
    return Reservation.objects.filter(pk=reservation_id, session_id=session_id).exists()
