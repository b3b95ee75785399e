"""Member reservations: reserve a session (held for payment, or confirmed with a pass), cancel one.

Refusals are the services' `ReservationError`s, answered by studio.api's handler with their own status (404 for an
unknown session or reservation, 409 for seats, a duplicate or a payment in progress): no view catches them.
"""

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.api import error_response
from studio.fields import DateTimeOutputField
from studio.schema import ErrorOutput

from ..selectors.reservations import member_reservations, reservation_payment_data
from ..services.cancellation import reservation_cancel
from ..services.common import MSG_RESERVATION_SENT
from ..services.passes import MSG_BOOKED_WITH_PASS, reservation_book_with_pass
from ..services.reservations import reservation_hold
from .common import MAX_ID, MSG_LOGIN_TO_RESERVE, ReservationPayloadSerializer, _iso
from .passes import PassOutput, pass_data


def reservation_data(reservation) -> dict:
    session = reservation.session
    return {
        "id": reservation.pk,
        "session_id": session.pk,
        "title": session.course.title,
        "date": _iso(session.start),
        "end_date": _iso(session.end),
        "participants": reservation.participants,
        "unit_price": f"{reservation.unit_price:.2f}",
        "total_amount": f"{reservation.total_amount:.2f}",
        "status": reservation.status,
        "hold_expires_at": _iso(reservation.hold_expires_at),
        "first_name": reservation.first_name,
        "last_name": reservation.last_name,
        "email": reservation.email,
        "message": MSG_RESERVATION_SENT,
        **reservation_payment_data(reservation, now=timezone.now()),
    }


class PaidWithPassOutput(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    kind = serializers.CharField()


class ReservationOutput(serializers.Serializer):
    id = serializers.IntegerField()
    session_id = serializers.IntegerField()
    title = serializers.CharField()
    date = DateTimeOutputField()
    end_date = DateTimeOutputField()
    participants = serializers.IntegerField()
    unit_price = serializers.DecimalField(max_digits=8, decimal_places=2)
    total_amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    status = serializers.CharField(help_text="held | confirmed | expired | cancelled")
    hold_expires_at = DateTimeOutputField(allow_null=True)
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    email = serializers.CharField()
    message = serializers.CharField()
    paid_with_pass = PaidWithPassOutput(allow_null=True)
    credits_spent = serializers.IntegerField()
    desk_payment = serializers.CharField(
        help_text="Réservée par l'accueil : « due » à régler à l'accueil, « paid » payée à l'accueil, vide sinon."
    )
    cancel_deadline = DateTimeOutputField(help_text="Fin de l'annulation gratuite.")
    free_cancellation_until = DateTimeOutputField(help_text="Fin de l'annulation gratuite (même valeur).")
    free_cancellation_text = serializers.CharField(help_text="« Annulation gratuite jusqu'au … » (heure de Paris).")
    can_cancel = serializers.BooleanField()
    cancel_is_late = serializers.BooleanField(help_text="Une annulation maintenant serait tardive.")
    pass_ = PassOutput(required=False, help_text="Avec pass_id : la carte ou l'abonnement après l'achat.")

    def get_fields(self):
        fields = super().get_fields()
        fields["pass"] = fields.pop("pass_")
        return fields


class CancellationOutput(serializers.Serializer):
    message = serializers.CharField()
    reservation_id = serializers.IntegerField()
    status = serializers.CharField()
    credit_pass = PassOutput(allow_null=True, help_text="L'avoir créé (carte de crédits), ou null.")
    late = serializers.BooleanField(
        help_text="Annulation tardive : le crédit est conservé sauf si la place est reprise."
    )


class ReservationCourseCreateApi(APIView):
    """POST /api/reservations-courses: hold seats on a session for the logged-in member (15 minutes).

    201 → reservation (id, total_amount, hold_expires_at, status, message '✅ Réservation envoyée avec succès !').
    The payment widget then pays `{kind: "reservation", reservationId: id}`; the capture confirms the reservation.
    """

    permission_classes = [AllowAny]
    serializer_class = ReservationPayloadSerializer

    @extend_schema(
        request=ReservationPayloadSerializer,
        responses={201: ReservationOutput, 404: ErrorOutput},
    )
    def post(self, request):
        if not request.user.is_authenticated:
            return error_response(MSG_LOGIN_TO_RESERVE, status.HTTP_401_UNAUTHORIZED)
        serializer = ReservationPayloadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        names = {
            "first_name": data["first_name"],
            "last_name": data["last_name"],
            "email": data["email"],
            "message": data["message"],
        }
        if data.get("pass_id") is not None:
            reservation = reservation_book_with_pass(
                user=request.user,
                session_id=data["session_id"],
                pass_id=data["pass_id"],
                participants=data["participants"],
                **names,
            )
            return self._booked_with_pass(request, reservation)
        reservation = reservation_hold(
            user=request.user,
            session_id=data["session_id"],
            participants=data["participants"],
            expected_total=serializer.expected_total(),
            **names,
        )
        # The hold as saved, with its locked session and course: no second read of what was just written.
        return Response(ReservationOutput(reservation_data(reservation)).data, status=status.HTTP_201_CREATED)

    def _booked_with_pass(self, request, reservation):
        """The popup's 'pay with my card/subscription': confirmed at once, the credits taken under row locks."""
        reservation = member_reservations(user=request.user).get(pk=reservation.pk)
        data = reservation_data(reservation)
        data["message"] = MSG_BOOKED_WITH_PASS.format(title=reservation.paid_with_pass.title)
        reservation.paid_with_pass.member = request.user
        data["pass"] = pass_data(reservation.paid_with_pass)
        return Response(ReservationOutput(data).data, status=status.HTTP_201_CREATED)


class ReservationCancelApi(APIView):
    """POST /api/reservations-courses/<id>/cancel: the member cancels their own confirmed reservation, or
    releases their own unpaid hold (its seats freed, nothing charged; 409 while an approved payment may be captured)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses=CancellationOutput,
        parameters=[
            OpenApiParameter(
                "reservation_id", {"type": "integer", "minimum": 1, "maximum": MAX_ID}, OpenApiParameter.PATH
            )
        ],
    )
    def post(self, request, reservation_id: int):
        outcome = reservation_cancel(user=request.user, reservation_id=reservation_id)
        credit_pass = outcome.credit_pass
        if credit_pass is not None:
            credit_pass.member = request.user
        return Response(
            CancellationOutput(
                {
                    "message": outcome.message,
                    "reservation_id": outcome.reservation.pk,
                    "status": outcome.reservation.status,
                    "credit_pass": pass_data(credit_pass) if credit_pass else None,
                    "late": outcome.late,
                }
            ).data
        )
