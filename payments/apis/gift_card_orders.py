"""`/api/gift-cards`: GET lists the member's cards (offers' view), POST opens the order of a gift card
(docs/decisions.md 55 and 56); the widget then approves, captures or cancels it through the usual endpoints."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from offers.apis.gift_cards import MyGiftCardsApi
from offers.services.gift_cards import (
    MSG_AMOUNT_RANGE,
    MSG_SEND_DATE_MISSING,
    SEND_CHOICES,
    SEND_ON_DATE,
    GiftCardRequest,
    gift_card_send_on,
)
from studio.parsers import BoundedJSONParser
from studio.schema import ErrorOutput

from ..services.common import MSG_TARIFF_NOT_FOUND
from ..services.gift_card_orders import gift_card_order_create
from .checkout import OpenedOrderOutput, _valid, opened_order_body
from .fields import Amount, Email, Text, choice, identifier, messages
from .purchase_fields import provider_field, terms_accepted_field

MSG_AMOUNT_OR_TARIFF = "Choisissez un montant ou un tarif à offrir."
MSG_SEND_CHOICE = "Choisissez quand envoyer la carte : « aujourd'hui », « dans 3 jours » ou une date."
MSG_RECIPIENT_EMAIL = "L'adresse e-mail du bénéficiaire n'est pas valide."


class GiftCardOrderInput(serializers.Serializer):
    amount = Amount(message=MSG_AMOUNT_RANGE, required=False, help_text="Le montant offert (20 à 500 €).")
    tariff_id = identifier(MSG_TARIFF_NOT_FOUND, required=False)
    recipient_name = Text(max_length=150)
    recipient_email = Email(missing=MSG_RECIPIENT_EMAIL, invalid=MSG_RECIPIENT_EMAIL, required=False)
    message = Text(max_length=500)
    send = choice(SEND_CHOICES, message=MSG_SEND_CHOICE, help_text="today, in_3_days ou date (avec send_on).")
    send_on = serializers.DateField(
        required=False, error_messages=messages(MSG_SEND_DATE_MISSING, "invalid", "null", "datetime")
    )
    provider = provider_field()
    accept_terms = terms_accepted_field()

    def validate(self, attrs):
        if "amount" not in attrs and "tariff_id" not in attrs:
            raise serializers.ValidationError({"amount": [MSG_AMOUNT_OR_TARIFF]})
        if attrs["send"] == SEND_ON_DATE and "send_on" not in attrs:
            raise serializers.ValidationError({"send_on": [MSG_SEND_DATE_MISSING]})
        return attrs


class GiftCardsApi(MyGiftCardsApi):
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        operation_id="gift_card_order_create",
        request=GiftCardOrderInput,
        responses={201: OpenedOrderOutput, 400: ErrorOutput, 403: ErrorOutput, 404: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request):
        values = _valid(GiftCardOrderInput, request)
        send_on = gift_card_send_on(choice=values["send"], on=values.get("send_on"))
        order = gift_card_order_create(
            user=request.user,
            amount=values.get("amount"),
            tariff_id=values.get("tariff_id"),
            request=GiftCardRequest(
                amount=values.get("amount"),
                tariff=None,
                recipient_name=values.get("recipient_name", ""),
                recipient_email=values.get("recipient_email", ""),
                message=values.get("message", ""),
                send_on=send_on,
            ),
            provider=values.get("provider", ""),
            accept_terms=values["accept_terms"],
        )
        return Response(OpenedOrderOutput(opened_order_body(order)).data, status=status.HTTP_201_CREATED)
