"""Member reservations: reserve a session (held for payment, or confirmed with a pass), cancel one."""

from decimal import Decimal, InvalidOperation

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.api import amount_is_sane, error_response

from .. import selectors, services
from .common import MSG_AMOUNT_INVALID, MSG_LOGIN_TO_RESERVE, ReservationPayloadSerializer, _iso
from .parties import _create_party_from_payload
from .passes import pass_data


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
        "message": services.MSG_RESERVATION_SENT,
        **selectors.reservation_payment_data(reservation, now=timezone.now()),
    }


class ReservationCourseCreateApi(APIView):
    """POST /api/reservations-courses: hold seats on a session for the logged-in member (15 minutes).

    201 → reservation (id, total_amount, hold_expires_at, status, message '✅ Réservation envoyée avec succès !').
    The payment widget then pays `{kind: "reservation", reservationId: id}`; the capture confirms the reservation.
    """

    permission_classes = [AllowAny]
    serializer_class = ReservationPayloadSerializer

    def post(self, request):
        if not request.user.is_authenticated:
            return error_response(MSG_LOGIN_TO_RESERVE, status.HTTP_401_UNAUTHORIZED)
        serializer = ReservationPayloadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if (data.get("type") or "cours").strip().lower() == "evj":
            return _create_party_from_payload(request, data)
        if data.get("pass_id") not in (None, ""):
            return self._book_with_pass(request, data)
        raw_total = data.get("total_amount") or data.get("totalAmount")
        try:
            expected_total = Decimal(str(raw_total)) if raw_total not in (None, "") else None
        except InvalidOperation:
            return error_response(MSG_AMOUNT_INVALID)
        if expected_total is not None and not amount_is_sane(expected_total):
            return error_response(MSG_AMOUNT_INVALID)  # Infinity, NaN, sNaN, 1e400, negative or zero (issue 16)
        try:
            reservation = services.reservation_hold(
                user=request.user,
                session_id=data.get("session_id"),
                participants=data.get("participants"),
                first_name=data.get("first_name") or "",
                last_name=data.get("last_name") or "",
                email=data.get("email") or "",
                message=data.get("message") or "",
                expected_total=expected_total,
            )
        except services.ReservationError as exc:
            code = status.HTTP_404_NOT_FOUND if exc.message == services.MSG_SESSION_NOT_FOUND else 400
            if exc.message in (services.MSG_SESSION_FULL, services.MSG_ALREADY_RESERVED) or exc.message.startswith(
                (services.MSG_NOT_ENOUGH_SEATS.split("{")[0], services.MSG_PARTICIPANTS_LOCKED_BY_PAYMENT.split("{")[0])
            ):
                code = status.HTTP_409_CONFLICT
            return error_response(exc.message, code)
        reservation = selectors.member_reservations(user=request.user).get(pk=reservation.pk)
        return Response(reservation_data(reservation), status=status.HTTP_201_CREATED)

    def _book_with_pass(self, request, data):
        """The popup's 'pay with my card/subscription': confirmed at once, the credits taken under row locks."""
        try:
            reservation = services.reservation_book_with_pass(
                user=request.user,
                session_id=data.get("session_id"),
                pass_id=data.get("pass_id"),
                participants=data.get("participants"),
                first_name=data.get("first_name") or "",
                last_name=data.get("last_name") or "",
                email=data.get("email") or "",
                message=data.get("message") or "",
            )
        except services.ReservationError as exc:
            code = 400
            if exc.message in (services.MSG_SESSION_NOT_FOUND, services.MSG_PASS_NOT_FOUND):
                code = status.HTTP_404_NOT_FOUND
            elif exc.message in (
                services.MSG_SESSION_FULL,
                services.MSG_ALREADY_RESERVED,
                services.MSG_CARD_PAYMENT_IN_PROGRESS,
            ) or exc.message.startswith(services.MSG_NOT_ENOUGH_SEATS.split("{")[0]):
                code = status.HTTP_409_CONFLICT
            return error_response(exc.message, code)
        reservation = selectors.member_reservations(user=request.user).get(pk=reservation.pk)
        data = reservation_data(reservation)
        data["message"] = services.MSG_BOOKED_WITH_PASS.format(title=reservation.paid_with_pass.title)
        reservation.paid_with_pass.member = request.user
        data["pass"] = pass_data(reservation.paid_with_pass)
        return Response(data, status=status.HTTP_201_CREATED)


class ReservationCancelApi(APIView):
    """POST /api/reservations-courses/<id>/cancel: the member cancels their own confirmed reservation (issue 10)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request, reservation_id: int):
        try:
            outcome = services.reservation_cancel(user=request.user, reservation_id=reservation_id)
        except services.ReservationError as exc:
            code = status.HTTP_404_NOT_FOUND if exc.message == services.MSG_RESERVATION_NOT_FOUND else 400
            return error_response(exc.message, code)
        credit_pass = outcome.credit_pass
        if credit_pass is not None:
            credit_pass.member = request.user
        return Response(
            {
                "message": outcome.message,
                "reservation_id": outcome.reservation.pk,
                "status": outcome.reservation.status,
                "credit_pass": pass_data(credit_pass) if credit_pass else None,
            }
        )
