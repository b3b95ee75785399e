"""An EVJF/EVG request's life (docs/decisions.md 17): the member reads their requests and cancels one while it is not
confirmed; staff quote (the server prices it), confirm or refuse. Another member's request is a 404, as one that does
not exist. Refusals are QuoteErrors (quotes.workflow) answered by the shared exception handler."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from bookings.apis.pages import MAX_ID, CheckedPagination
from bookings.services.common import MSG_PARTICIPANTS_MIN
from studio.pagination import page_output
from studio.permissions import IsStudioStaff, is_studio_staff
from studio.schema import ErrorOutput

from ..models import RequestStatus
from ..selectors import party_request_get, party_requests_of_member, party_reservations_list
from ..services import parties as services
from ..services.parties import MAX_PARTY_PARTICIPANTS, MSG_PARTY_PARTICIPANTS_MAX
from ..workflow import QuoteError
from .fields import (
    INVALID,
    NOT_FOUND,
    REFUSED,
    QuotedRequestOutput,
    RefuseInput,
    deposit_field,
    note_field,
    quoted_request_data,
)
from .parties import MSG_PARTY_GUEST_OF_HONOUR_INVALID, PartyOutput, PartyReservationApi, party_data

MSG_SPECTATORS_INVALID = services.MSG_PARTY_SPECTATORS_INVALID


class PartyRequestOutput(PartyOutput, QuotedRequestOutput):
    quote_participants = serializers.IntegerField(allow_null=True)
    quote_spectators = serializers.IntegerField(allow_null=True)


def party_request_data(party, *, viewer) -> dict:
    return {
        **party_data(party),
        **quoted_request_data(party, party.events.all(), viewer=viewer, sent_by=party.user_id),
        "quote_participants": party.quote_participants,
        "quote_spectators": party.quote_spectators,
    }


class PartyPeopleFields(serializers.Serializer):
    """Who comes to a party, as the staff's quote and the request form's estimate both read it."""

    participants = serializers.IntegerField(
        min_value=1,
        max_value=MAX_PARTY_PARTICIPANTS,
        help_text="Participants, la future mariée ou le futur marié compris (facturés au moins 6).",
        error_messages={
            **dict.fromkeys(("required", "null", "invalid", "min_value", "max_string_length"), MSG_PARTICIPANTS_MIN),
            "max_value": MSG_PARTY_PARTICIPANTS_MAX,
        },
    )
    spectators = serializers.IntegerField(
        min_value=0,
        max_value=services.MAX_PARTY_SPECTATORS,
        default=0,
        error_messages=dict.fromkeys(
            ("null", "invalid", "min_value", "max_value", "max_string_length"), MSG_SPECTATORS_INVALID
        ),
    )


class PartyQuoteInput(PartyPeopleFields):
    deposit = deposit_field()
    note = note_field()


def _party_for(request, party_id: int):
    """The request for its member or staff; anyone else's is a 404."""
    party = party_request_get(party_id=party_id)
    if party is None or (party.user_id != request.user.pk and not is_studio_staff(request.user)):
        raise QuoteError.of("request_not_found")
    return party


def _answer(request, party_id: int) -> Response:
    party = party_request_get(party_id=party_id)
    return Response(PartyRequestOutput(party_request_data(party, viewer=request.user)).data)


class MyPartyRequestsApi(APIView):
    """GET /api/evf-reservations/mine: the member's EVJF/EVG requests with their status and history."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="evf_reservations_mine", responses={200: PartyRequestOutput(many=True)})
    def get(self, request):
        parties = party_requests_of_member(user=request.user)
        return Response(
            PartyRequestOutput([party_request_data(p, viewer=request.user) for p in parties], many=True).data
        )


class PartyRequestDetailApi(APIView):
    """GET /api/evf-reservations/{id}: the request, for its member or staff."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="evf_reservation_retrieve", responses={200: PartyRequestOutput, **NOT_FOUND})
    def get(self, request, party_id: int):
        party = _party_for(request, party_id)
        return Response(PartyRequestOutput(party_request_data(party, viewer=request.user)).data)


class PartyQuoteApi(APIView):
    """POST /api/evf-reservations/{id}/quote (staff): {participants, spectators, deposit, note}; the server prices
    it (25 € per participant, the bride or groom free, 5 € per spectator, at least 6 people)."""

    permission_classes = [IsStudioStaff]

    @extend_schema(request=PartyQuoteInput, responses={200: PartyRequestOutput, **INVALID, **NOT_FOUND, **REFUSED})
    def post(self, request, party_id: int):
        data = PartyQuoteInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.party_quote(
            party_id=party_id,
            staff=request.user,
            participants=data.validated_data["participants"],
            spectators=data.validated_data["spectators"],
            deposit=data.validated_data["deposit"],
            note=data.validated_data.get("note", ""),
        )
        return _answer(request, party_id)


class PartyConfirmApi(APIView):
    """POST /api/evf-reservations/{id}/confirm (staff): once the deposit is paid."""

    permission_classes = [IsStudioStaff]

    @extend_schema(request=None, responses={200: PartyRequestOutput, **NOT_FOUND, **REFUSED})
    def post(self, request, party_id: int):
        services.party_confirm(party_id=party_id, staff=request.user)
        return _answer(request, party_id)


class PartyRefuseApi(APIView):
    """POST /api/evf-reservations/{id}/refuse (staff): {reason}; a paid deposit is refunded."""

    permission_classes = [IsStudioStaff]

    @extend_schema(request=RefuseInput, responses={200: PartyRequestOutput, **INVALID, **NOT_FOUND, **REFUSED})
    def post(self, request, party_id: int):
        data = RefuseInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.party_refuse(party_id=party_id, staff=request.user, reason=data.validated_data["reason"])
        return _answer(request, party_id)


class PartyCancelApi(APIView):
    """POST /api/evf-reservations/{id}/cancel (its member): while not confirmed; a paid deposit is refunded."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: PartyRequestOutput, **NOT_FOUND, **REFUSED})
    def post(self, request, party_id: int):
        services.party_cancel(party_id=party_id, member=request.user)
        return _answer(request, party_id)


class PartyEstimateQuery(PartyPeopleFields):
    guest_of_honour = serializers.BooleanField(
        default=True,
        help_text="la future mariée ou le futur marié prend le cours (gratuit)",
        error_messages=dict.fromkeys(("null", "invalid"), MSG_PARTY_GUEST_OF_HONOUR_INVALID),
    )


class PartyEstimateOutput(serializers.Serializer):
    participants = serializers.IntegerField()
    spectators = serializers.IntegerField()
    guest_of_honour = serializers.BooleanField()
    amount = serializers.DecimalField(max_digits=8, decimal_places=2, help_text="le prix, en euros")


class PartyEstimateApi(APIView):
    """GET /api/evf-reservations/estimate?participants=&spectators=&guest_of_honour=: what a party costs, by the
    rule staff quote with (services.party_quote_amount), for the request form's live estimate. Public, as the
    offer's prices are."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="evf_reservation_estimate",
        parameters=[PartyEstimateQuery],
        responses={200: PartyEstimateOutput, **INVALID},
    )
    def get(self, request):
        query = PartyEstimateQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        values = query.validated_data
        amount = services.party_quote_amount(
            participants=values["participants"],
            spectators=values["spectators"],
            guest_of_honour=values["guest_of_honour"],
        )
        return Response(PartyEstimateOutput({**values, "amount": amount}).data)


PartyRequestPageOutput = page_output("PartyRequestPageOutput", PartyRequestOutput)
MSG_STATUS_FILTER = "Statut inconnu : sent, quoted, confirmed, refused ou cancelled."


class LastValueMixin:
    """A query parameter given empty (`?page=`) is a value to check, not an absent one; given twice, it is refused."""

    def get_value(self, dictionary):
        values = dictionary.getlist(self.field_name) if hasattr(dictionary, "getlist") else []
        if len(values) > 1:
            return [serializers.empty]  # not a single value: refused as invalid
        return dictionary.get(self.field_name, serializers.empty)


class QueryInteger(LastValueMixin, serializers.IntegerField):
    pass


class QueryChoice(LastValueMixin, serializers.ChoiceField):
    pass


class PartyListQuery(serializers.Serializer):
    page = QueryInteger(min_value=1, max_value=MAX_ID, required=False, help_text="numéro de page (à partir de 1)")
    page_size = QueryInteger(min_value=1, max_value=CheckedPagination.max_page_size, required=False)
    status = QueryChoice(
        choices=RequestStatus.choices,
        required=False,
        error_messages={"invalid_choice": MSG_STATUS_FILTER},
        help_text="ne garder que ce statut",
    )


class PartyRequestsApi(PartyReservationApi):
    """POST /api/evf-reservations (member): a new request. GET (staff): the requests, newest first, with their
    status and history, `?status=` to keep one status."""

    @extend_schema(
        parameters=[PartyListQuery],
        responses={200: PartyRequestPageOutput, 400: ErrorOutput, 404: ErrorOutput},
    )
    def get(self, request):
        query = PartyListQuery(data=request.query_params)
        if not query.is_valid():
            field, messages = next(iter(query.errors.items()))
            message = MSG_STATUS_FILTER if field == "status" else str(messages[0])
            raise QuoteError(message, code=f"{field}_invalid", field=field)
        status = query.validated_data.get("status") or None
        paginator = CheckedPagination()
        page = paginator.paginate_queryset(party_reservations_list(status=status), request, view=self)
        rows = [party_request_data(p, viewer=request.user) for p in page]
        return Response(PartyRequestPageOutput(paginator.page_body(rows)).data)
