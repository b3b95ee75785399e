"""EVJF / EVG party requests."""

from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.api import error_response
from studio.pagination import StandardPagination
from studio.permissions import IsStudioStaff

from .. import selectors, services
from ..models import PartyEventType
from .common import ReservationPayloadSerializer, _iso


def party_data(party) -> dict:
    return {
        "id": party.pk,
        "user_id": party.user_id,
        "eventType": party.event_type,
        "event_type_label": party.get_event_type_display(),
        "date": party.date.isoformat(),
        "time": party.time.strftime("%H:%M"),
        "participants": party.participants,
        "email": party.email,
        "first_name": party.first_name,
        "last_name": party.last_name,
        "title": party.title,
        "message": party.message,
        "created_at": _iso(party.created_at),
    }


def _create_party_from_payload(request, data):
    try:
        party = services.party_reservation_create(
            user=request.user,
            event_type=data.get("eventType") or PartyEventType.EVJF,
            date=data.get("date"),
            time=data.get("time"),
            participants=data.get("participants"),
            email=data.get("email") or "",
            message=data.get("message") or "",
            first_name=data.get("first_name") or "",
            last_name=data.get("last_name") or "",
            title=data.get("title") or "",
        )
    except services.ReservationError as exc:
        return error_response(exc.message)
    return Response({**party_data(party), "message": services.MSG_PARTY_SUCCESS}, status=status.HTTP_201_CREATED)


class ReservationEvjCreateApi(APIView):
    """POST /api/reservations-evj: the reservation payload with type 'EVJ' → an EVJF/EVG request."""

    permission_classes = [AllowAny]
    serializer_class = ReservationPayloadSerializer

    def post(self, request):
        if not request.user.is_authenticated:
            return error_response(services.MSG_PARTY_LOGIN_REQUIRED, status.HTTP_401_UNAUTHORIZED)
        serializer = ReservationPayloadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return _create_party_from_payload(request, serializer.validated_data)


class PartyReservationApi(APIView):
    """POST /api/evf-reservations (member): {eventType, date, time, participants, message, email, user_id}.
    GET (staff): the paginated list of EVJF/EVG requests."""

    permission_classes = [AllowAny]
    serializer_class = ReservationPayloadSerializer

    def get_permissions(self):
        if self.request.method == "GET":
            return [IsStudioStaff()]
        return super().get_permissions()

    def get(self, request):
        paginator = StandardPagination()
        page = paginator.paginate_queryset(selectors.party_reservations_list(), request, view=self)
        return paginator.get_paginated_response([party_data(p) for p in page])

    def post(self, request):
        if not request.user.is_authenticated:
            return error_response(services.MSG_PARTY_LOGIN_REQUIRED, status.HTTP_401_UNAUTHORIZED)
        serializer = ReservationPayloadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return _create_party_from_payload(request, serializer.validated_data)
