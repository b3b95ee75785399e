"""A room-rental request's life (docs/decisions.md 17): the member reads their own requests and cancels one while it is
not confirmed; staff quote (amount and deposit), confirm or refuse. Another member's request is a 404. Refusals are
QuoteErrors (quotes.workflow) answered by the shared exception handler."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from messaging.apis.serializers import StaffListQuery
from studio.permissions import IsStudioStaff, is_studio_staff

from .. import selectors
from ..services import rentals as services
from ..workflow import QuoteError
from .fields import (
    INVALID,
    NOT_FOUND,
    REFUSED,
    QuotedRequestOutput,
    RefuseInput,
    amount_field,
    deposit_field,
    note_field,
    quoted_request_data,
)
from .rentals import (
    PAGE_NOT_FOUND,
    RentalRequestListCreateApi,
    RentalRequestOutput,
    checked_query,
    paginated,
    rental_data,
)


class RentalRequestLifeOutput(RentalRequestOutput, QuotedRequestOutput):
    pass


class RentalRequestLifePageOutput(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = RentalRequestLifeOutput(many=True)


def rental_request_data(rental, *, viewer) -> dict:
    return {
        **rental_data(rental),
        **quoted_request_data(rental, rental.events.all(), viewer=viewer, sent_by=rental.user_id),
    }


class RentalQuoteInput(serializers.Serializer):
    amount = amount_field()
    deposit = deposit_field()
    note = note_field()


def _answer(request, rental_id: int) -> Response:
    rental = selectors.rental_request_get(rental_id=rental_id)
    return Response(RentalRequestLifeOutput(rental_request_data(rental, viewer=request.user)).data)


class RentalRequestsApi(RentalRequestListCreateApi):
    """POST: anyone asks for the room. GET (staff): the requests with their status and history."""

    @extend_schema(
        operation_id="rental_requests_list",
        parameters=[StaffListQuery],
        responses={200: RentalRequestLifePageOutput, **PAGE_NOT_FOUND},
    )
    def get(self, request):
        query = checked_query(StaffListQuery, request)
        queryset = selectors.rental_requests_for_staff(ordering=query.get("ordering"), history=True)
        page = paginated(request, self, queryset, lambda r: rental_request_data(r, viewer=request.user))
        return Response(RentalRequestLifePageOutput(page).data)


class MyRentalRequestsApi(APIView):
    """GET /api/rental-requests/mine: the member's room-rental requests with their status and history."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="rental_requests_mine", responses={200: RentalRequestLifeOutput(many=True)})
    def get(self, request):
        rentals = selectors.rental_requests_of_member(user=request.user)
        rows = [rental_request_data(r, viewer=request.user) for r in rentals]
        return Response(RentalRequestLifeOutput(rows, many=True).data)


class RentalRequestDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="rental_request_retrieve", responses={200: RentalRequestLifeOutput, **NOT_FOUND})
    def get(self, request, rental_id: int):
        rental = selectors.rental_request_get(rental_id=rental_id)
        if rental is None or (rental.user_id != request.user.pk and not is_studio_staff(request.user)):
            raise QuoteError.of("request_not_found")
        return Response(RentalRequestLifeOutput(rental_request_data(rental, viewer=request.user)).data)


class RentalQuoteApi(APIView):
    """POST /api/rental-requests/{id}/quote (staff): {amount, deposit, note} (no price rule exists for the room)."""

    permission_classes = [IsStudioStaff]

    @extend_schema(
        request=RentalQuoteInput, responses={200: RentalRequestLifeOutput, **INVALID, **NOT_FOUND, **REFUSED}
    )
    def post(self, request, rental_id: int):
        data = RentalQuoteInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.rental_quote(
            rental_id=rental_id,
            staff=request.user,
            amount=data.validated_data["amount"],
            deposit=data.validated_data["deposit"],
            note=data.validated_data.get("note", ""),
        )
        return _answer(request, rental_id)


class RentalConfirmApi(APIView):
    permission_classes = [IsStudioStaff]

    @extend_schema(request=None, responses={200: RentalRequestLifeOutput, **NOT_FOUND, **REFUSED})
    def post(self, request, rental_id: int):
        services.rental_confirm(rental_id=rental_id, staff=request.user)
        return _answer(request, rental_id)


class RentalRefuseApi(APIView):
    permission_classes = [IsStudioStaff]

    @extend_schema(request=RefuseInput, responses={200: RentalRequestLifeOutput, **INVALID, **NOT_FOUND, **REFUSED})
    def post(self, request, rental_id: int):
        data = RefuseInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.rental_refuse(rental_id=rental_id, staff=request.user, reason=data.validated_data["reason"])
        return _answer(request, rental_id)


class RentalCancelApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: RentalRequestLifeOutput, **NOT_FOUND, **REFUSED})
    def post(self, request, rental_id: int):
        services.rental_cancel(rental_id=rental_id, member=request.user)
        return _answer(request, rental_id)
