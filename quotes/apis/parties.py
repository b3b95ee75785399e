"""EVJF / EVG party requests: the member's request (typed input) and what a request answers. A refused
request propagates as a PartyError (its code and status) to studio.api's exception handler."""

from datetime import time

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.company import COMPANY_MAX_LENGTHS
from bookings.apis.common import FILLED, OptionalText, ReservationPayloadSerializer
from bookings.apis.reservations import ReservationCourseCreateApi, ReservationOutput
from bookings.services.common import MSG_PARTICIPANTS_MIN
from studio.fields import rfc3339
from studio.parsers import MSG_TEXT_TOO_LONG
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ..models import PartyEventType
from ..services.parties import (
    MAX_PARTY_PARTICIPANTS,
    MAX_PARTY_SPECTATORS,
    MSG_PARTY_DATE_INVALID,
    MSG_PARTY_EVENT_TYPE_INVALID,
    MSG_PARTY_PARTICIPANTS_MAX,
    MSG_PARTY_REQUIRED,
    MSG_PARTY_SPECTATORS_INVALID,
    MSG_PARTY_SUCCESS,
    MSG_PARTY_TIME_INVALID,
    PartyError,
    party_estimate,
    party_reservation_create,
)

MSG_PARTY_GUEST_OF_HONOUR_INVALID = "Indiquez si la future mariée ou le futur marié prend le cours (oui ou non)."

# HH:MM (a time input's value), seconds allowed: the schema states it as this pattern.
TIME_PATTERN = r"^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$"


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
        "created_at": rfc3339(party.created_at),
        "spectators": party.spectators,
        "guest_of_honour": party.guest_of_honour,
        "estimate": party_estimate(party),
    }


class PartyOutput(serializers.Serializer):
    id = serializers.IntegerField()
    user_id = serializers.IntegerField(allow_null=True)
    eventType = serializers.CharField(help_text="EVJF | EVG")  # noqa: N815 (the party form's field name)
    event_type_label = serializers.CharField()
    date = serializers.DateField()
    time = serializers.CharField(help_text="HH:MM")
    participants = serializers.IntegerField()
    email = serializers.CharField()
    first_name = serializers.CharField(allow_blank=True)
    last_name = serializers.CharField(allow_blank=True)
    title = serializers.CharField(allow_blank=True)
    message = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField(allow_null=True)
    spectators = serializers.IntegerField()
    guest_of_honour = serializers.BooleanField(help_text="la future mariée ou le futur marié prend le cours (gratuit)")
    estimate = serializers.DecimalField(max_digits=8, decimal_places=2, help_text="le prix de la demande, en euros")


class PartyCreatedOutput(PartyOutput):
    message = serializers.CharField(help_text="la confirmation affichée au membre")


def _text(max_length: int):
    return OptionalText(
        allow_null=True,
        max_length=max_length,
        trim_whitespace=False,
        error_messages={"max_length": MSG_TEXT_TOO_LONG},
    )


class PartyRequestInput(serializers.Serializer):
    """The party form's payload: {eventType, date, time, participants, message, email}. user_id, type, title and
    the names are accepted (the server books for the logged-in member); the names and title are kept."""

    eventType = serializers.ChoiceField(  # noqa: N815 (the party form's field name)
        choices=PartyEventType.choices,
        default=PartyEventType.EVJF,
        error_messages={"invalid_choice": MSG_PARTY_EVENT_TYPE_INVALID, "null": MSG_PARTY_EVENT_TYPE_INVALID},
    )
    date = serializers.DateField(
        input_formats=["iso-8601"],
        error_messages={
            "required": MSG_PARTY_REQUIRED,
            "null": MSG_PARTY_REQUIRED,
            "invalid": MSG_PARTY_DATE_INVALID,
            "datetime": MSG_PARTY_DATE_INVALID,
        },
    )
    time = serializers.RegexField(
        TIME_PATTERN,
        error_messages={
            "required": MSG_PARTY_REQUIRED,
            "null": MSG_PARTY_REQUIRED,
            "blank": MSG_PARTY_REQUIRED,
            "invalid": MSG_PARTY_TIME_INVALID,
        },
    )
    participants = serializers.IntegerField(
        min_value=1,
        max_value=MAX_PARTY_PARTICIPANTS,
        error_messages={
            "required": MSG_PARTY_REQUIRED,
            "null": MSG_PARTY_REQUIRED,
            "invalid": MSG_PARTICIPANTS_MIN,
            "min_value": MSG_PARTICIPANTS_MIN,
            "max_value": MSG_PARTY_PARTICIPANTS_MAX,
            "max_string_length": MSG_PARTY_PARTICIPANTS_MAX,
        },
    )
    email = serializers.RegexField(
        FILLED,
        max_length=254,
        error_messages={
            "required": MSG_PARTY_REQUIRED,
            "null": MSG_PARTY_REQUIRED,
            "blank": MSG_PARTY_REQUIRED,
            "invalid": MSG_PARTY_REQUIRED,
            "max_length": MSG_TEXT_TOO_LONG,
        },
    )
    # A TextField has no column bound; 5,000 characters, as a contact message.
    message = _text(5000)
    first_name = _text(150)
    last_name = _text(150)
    title = _text(200)
    type = _text(20)
    user_id = serializers.IntegerField(required=False, allow_null=True, help_text="ignoré : le membre connecté")
    spectators = serializers.IntegerField(
        min_value=0,
        max_value=MAX_PARTY_SPECTATORS,
        default=0,
        help_text="spectateurs (5 € chacun)",
        error_messages=dict.fromkeys(
            ("null", "invalid", "min_value", "max_value", "max_string_length"), MSG_PARTY_SPECTATORS_INVALID
        ),
    )
    guest_of_honour = serializers.BooleanField(
        default=True,
        help_text="la future mariée ou le futur marié prend le cours (gratuit)",
        error_messages=dict.fromkeys(("null", "invalid"), MSG_PARTY_GUEST_OF_HONOUR_INVALID),
    )

    # A company to invoice (docs/decisions.md 54); the service checks the SIREN's key and the VAT number's shape.
    company_name = _text(200)
    company_siren = _text(20)
    company_vat_number = _text(30)
    company_address = _text(300)

    def validate_time(self, value: str) -> time:
        return time.fromisoformat(value)


def _create_party(request, data) -> Response:
    if not request.user.is_authenticated:
        raise PartyError.of("party_login_required")
    party = party_reservation_create(
        user=request.user,
        event_type=data["eventType"],
        date=data["date"],
        time=data["time"],
        participants=data["participants"],
        email=data["email"],
        message=data.get("message") or "",
        first_name=data.get("first_name") or "",
        last_name=data.get("last_name") or "",
        title=data.get("title") or "",
        spectators=data["spectators"],
        guest_of_honour=data["guest_of_honour"],
        company={field: data[field] for field in COMPANY_MAX_LENGTHS if data.get(field)},
    )
    return Response(PartyCreatedOutput({**party_data(party), "message": MSG_PARTY_SUCCESS}).data, status=201)


class _PartyCreate(APIView):
    permission_classes = [AllowAny]
    serializer_class = PartyRequestInput

    def _post(self, request):
        if not request.user.is_authenticated:
            raise PartyError.of("party_login_required")
        serializer = PartyRequestInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        return _create_party(request, serializer.validated_data)


class ReservationEvjCreateApi(_PartyCreate):
    """POST /api/reservations-evj: the reservation payload with type 'EVJ' → an EVJF/EVG request."""

    @extend_schema(request=PartyRequestInput, responses={201: PartyCreatedOutput})
    def post(self, request):
        return self._post(request)


class ReservationOrPartyCreateApi(ReservationCourseCreateApi):
    """POST /api/reservations-courses: the booking popup's payload holds seats (bookings); with `type` "evj" it is an
    EVJF/EVG request. The route is quotes' so that bookings, below, never hears of parties."""

    @extend_schema(request=ReservationPayloadSerializer, responses={201: ReservationOutput, 404: ErrorOutput})
    def post(self, request):
        kind = request.data.get("type") if hasattr(request.data, "get") else None
        if request.user.is_authenticated and isinstance(kind, str) and kind.strip().lower() == "evj":
            party = PartyRequestInput(data=request.data)
            party.is_valid(raise_exception=True)
            return _create_party(request, party.validated_data)
        return super().post(request)


class PartyReservationApi(_PartyCreate):
    """POST /api/evf-reservations (member): {eventType, date, time, participants, message, email, user_id}; GET is
    staff's (party_requests.PartyRequestsApi answers it)."""

    def get_permissions(self):
        if self.request.method == "GET":
            return [IsStudioStaff()]
        return super().get_permissions()

    @extend_schema(request=PartyRequestInput, responses={201: PartyCreatedOutput})
    def post(self, request):
        return self._post(request)
