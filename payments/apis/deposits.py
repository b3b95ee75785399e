"""POST /api/paypal/deposit-order: the member opens the order of their request's deposit; the widget then
approves, captures or cancels it through the usual endpoints. Refusals (another member's request: 404; no deposit
due, amount changed: 409) are domain errors answered by the shared exception handler."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from quotes.apis.fields import MSG_AMOUNT_FORMAT
from quotes.workflow import MSG_REQUEST_NOT_FOUND
from studio.schema import ErrorOutput

from ..services import deposits
from .checkout import OpenedOrderOutput, PaymentApi, _valid, opened_order_body
from .fields import Amount, choice, identifier
from .purchase_fields import provider_field, terms_accepted_field

MSG_DEPOSIT_KIND = "Type de demande inconnu : « party » (EVJF/EVG) ou « rental » (location de salle)."


class DepositOrderInput(serializers.Serializer):
    kind = choice(deposits.DEPOSIT_KINDS, message=MSG_DEPOSIT_KIND, help_text="party (EVJF/EVG) ou rental (location)")
    request_id = identifier(MSG_REQUEST_NOT_FOUND)
    amount = Amount(message=MSG_AMOUNT_FORMAT, help_text="L'acompte affiché, comparé au devis.")
    provider = provider_field()
    accept_terms = terms_accepted_field()


class DepositOrderApi(PaymentApi):
    @extend_schema(
        request=DepositOrderInput,
        responses={
            201: OpenedOrderOutput,
            400: ErrorOutput,
            404: OpenApiResponse(ErrorOutput, description="Demande introuvable (ou d'un autre membre)."),
            409: ErrorOutput,
            502: ErrorOutput,
        },
    )
    def post(self, request):
        values = _valid(DepositOrderInput, request)
        order = deposits.deposit_order_create(
            user=request.user,
            kind=values["kind"],
            request_id=values["request_id"],
            amount=values["amount"],
            provider=values.get("provider", ""),
            accept_terms=values["accept_terms"],
        )
        return Response(OpenedOrderOutput(opened_order_body(order)).data, status=status.HTTP_201_CREATED)
