"""The member's payment: create an order priced by the server, approve it in the simulator, capture or cancel it
(docs/decisions.md 12–15). Thin: a typed input, one service call, a typed answer; refusals are PaymentErrors
that the shared exception handler answers (never caught here)."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.parsers import BoundedJSONParser
from studio.ratelimit import public_form_limited
from studio.schema import ErrorOutput, StudioAutoSchema

from ..models import PaymentStatus
from ..services.capture import (
    NOT_PAID,
    payment_order_cancel,
    payment_order_capture,
)
from ..services.common import (
    MSG_EMAIL_INVALID,
    MSG_INCOMPLETE,
    MSG_NOT_APPROVED,
    MSG_ORDER_NOT_FOUND,
    MSG_QUANTITY,
    MSG_RESERVATION_NOT_FOUND,
    MSG_TARIFF_NOT_FOUND,
)
from ..services.orders import MAX_QUANTITY, payment_order_create
from ..subscriptions.apis.purchase import ReducedClaimInput, reduced_claim_from
from .fields import Amount, Email, Text, choice, identifier, messages, optional_text
from .purchase_fields import MSG_TERMS_REQUIRED, accept_terms_field, immediate_start_field, provider_field

ORDER_ID_MAX = 64  # PaymentOrder.order_id
NAME_MAX = 1000  # a longer name is cut to the column's 150 characters by the service
TEXT_MAX = 200
MESSAGE_MAX = 2000
REFUSED = NOT_PAID
NOT_FOUND_ANSWER = OpenApiResponse(ErrorOutput, description="Commande, réservation ou tarif introuvable.")
REFUNDED = "refunded"


class CreateOrderInput(ReducedClaimInput):
    """What the payment widget sends (frontend/src/components/payment/messages.js, createOrderPayload): the payer,
    the labels it shows, the amount it shows (compared with the server's price, never trusted) and what the order
    pays for, exactly one of `reservation_id` (a held reservation) and `tariff_id` (with `quantity`)."""

    amount = Amount(message=MSG_INCOMPLETE)
    email = Email(missing=MSG_INCOMPLETE, invalid=MSG_EMAIL_INVALID)
    first_name = Text(missing=MSG_INCOMPLETE, max_length=NAME_MAX)
    last_name = Text(missing=MSG_INCOMPLETE, max_length=NAME_MAX)
    title = Text(missing=MSG_INCOMPLETE, max_length=TEXT_MAX)
    type = Text(missing=MSG_INCOMPLETE, max_length=TEXT_MAX)
    date = optional_text(40)
    time = optional_text(40)
    message = optional_text(MESSAGE_MAX)
    reservation_id = identifier(MSG_RESERVATION_NOT_FOUND, required=False)
    tariff_id = identifier(MSG_TARIFF_NOT_FOUND, required=False)
    quantity = serializers.IntegerField(
        min_value=1,
        max_value=MAX_QUANTITY,
        required=False,
        error_messages=messages(
            MSG_QUANTITY.format(max=MAX_QUANTITY),
            "invalid",
            "min_value",
            "max_value",
            "max_string_length",
            "null",
        ),
    )

    # A promo code and a gift card's code (docs/decisions.md 60): blank for none; the server prices both.
    promo_code = optional_text(40)
    gift_card_code = optional_text(32)

    provider = provider_field()
    accept_terms = accept_terms_field()
    immediate_start = immediate_start_field()

    def validate(self, attrs):
        if ("reservation_id" in attrs) == ("tariff_id" in attrs):
            raise serializers.ValidationError(MSG_INCOMPLETE)
        if "tariff_id" in attrs and not attrs["accept_terms"]:
            raise serializers.ValidationError({"accept_terms": MSG_TERMS_REQUIRED})
        return attrs


class ExactlyOnePurchaseSchema(StudioAutoSchema):
    """The create-order body pays for one reservation or one tariff: `oneOf` says so in the schema."""

    def _map_serializer(self, serializer, direction, bypass_extensions=False):
        schema = super()._map_serializer(serializer, direction, bypass_extensions)
        if isinstance(serializer, CreateOrderInput) and direction == "request":
            # A tariff is bought with the terms of sale accepted; a held class has no withdrawal right to accept.
            schema["oneOf"] = [
                {"required": ["reservation_id"], "not": {"required": ["tariff_id"]}},
                {
                    "required": ["tariff_id", "accept_terms"],
                    "not": {"required": ["reservation_id"]},
                    "properties": {"accept_terms": {"enum": [True]}},
                },
            ]
            # A reduced rate is claimed with its status and the confirmation box ticked, or not at all.
            claim = ["reduced_status", "reduced_confirmed", "reduced_proof_id"]
            schema["anyOf"] = [
                {"not": {"anyOf": [{"required": [key]} for key in claim]}},
                {
                    "required": ["reduced_status", "reduced_confirmed"],
                    "properties": {"reduced_confirmed": {"enum": [True]}},
                },
            ]
        return schema


class OrderRefOutput(serializers.Serializer):
    id = serializers.CharField(help_text="L'identifiant de la commande chez le prestataire.")
    status = choice(PaymentStatus.choices, message=MSG_NOT_APPROVED)
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    currency = serializers.CharField()


class OpenedOrderOutput(OrderRefOutput):
    provider = serializers.CharField(help_text="stripe, paypal ou simulator.")
    clientSecret = serializers.CharField(  # noqa: N815 (Stripe.js's name)
        required=False, help_text="Stripe seulement : le client secret du PaymentIntent, pour le Payment Element."
    )


class CaptureOutput(OrderRefOutput):
    title = serializers.CharField()


class CaptureRefusedOutput(ErrorOutput):
    """Not paid (402: declined, pending or not approved yet), or paid for nothing and refunded (409)."""

    refunded = serializers.BooleanField(required=False, help_text="Le paiement capturé est remboursé.")
    # The order, when the refusal is the capture's outcome (absent when the order is closed or unknown).
    id = serializers.CharField(required=False)
    status = choice(PaymentStatus.choices, message=MSG_NOT_APPROVED, required=False)
    amount = serializers.DecimalField(max_digits=10, decimal_places=2, required=False)
    currency = serializers.CharField(required=False)
    title = serializers.CharField(required=False)


class OrderIdInput(serializers.Serializer):
    orderId = Text(  # noqa: N815 (the widget's name)
        missing=MSG_ORDER_NOT_FOUND,
        max_length=ORDER_ID_MAX,
        error_messages={"max_length": MSG_ORDER_NOT_FOUND},
    )


class OrderStatusOutput(serializers.Serializer):
    id = serializers.CharField()
    status = choice(PaymentStatus.choices, message=MSG_NOT_APPROVED)


def _valid(serializer_class, request):
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


def opened_order_body(order) -> dict:
    """What OpenedOrderOutput shows of an order just opened (or being paid): Stripe's client secret when it has one."""
    body = {**_order_body(order), "provider": order.provider}
    if getattr(order, "client_secret", ""):
        body["clientSecret"] = order.client_secret
    return body


def _order_body(order) -> dict:
    """What OrderRefOutput and CaptureOutput (and a refused capture's CaptureRefusedOutput) show of an order."""
    return {
        "id": order.order_id,
        "status": order.status,
        "amount": order.amount,
        "currency": order.currency,
        "title": order.title,
    }


class PaymentApi(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [BoundedJSONParser]  # the widget sends JSON


class CreateOrderApi(PaymentApi):
    """POST /api/paypal/create-order → {id}: the provider's order, priced by the server."""

    schema = ExactlyOnePurchaseSchema()

    @extend_schema(
        request=CreateOrderInput,
        responses={201: OpenedOrderOutput, 404: NOT_FOUND_ANSWER, 429: ErrorOutput, 502: ErrorOutput},
    )
    def post(self, request):
        values = _valid(CreateOrderInput, request)
        # An order naming a gift card spends it at once: its codes are guessed no faster here than on the balance
        # check, nor promo codes faster than in the preview (docs/decisions.md 61).
        for field, form in (("gift_card_code", "gift_card_check"), ("promo_code", "promo_check")):
            if values.get(field, "").strip():
                refused, wait = public_form_limited(request._request, form)
                if refused:
                    self.throttled(request, wait)
        order = payment_order_create(
            user=request.user,
            amount=values["amount"],
            email=values["email"],
            first_name=values["first_name"],
            last_name=values["last_name"],
            title=values["title"],
            type=values["type"],
            date=values.get("date", ""),
            time=values.get("time", ""),
            message=values.get("message", ""),
            reservation_id=values.get("reservation_id"),
            tariff_id=values.get("tariff_id"),
            quantity=values.get("quantity"),
            reduced=reduced_claim_from(values),
            provider=values.get("provider", ""),
            accept_terms=values["accept_terms"],
            immediate_start=values["immediate_start"],
            promo_code=values.get("promo_code", ""),
            gift_card_code=values.get("gift_card_code", ""),
        )
        return Response(OpenedOrderOutput(opened_order_body(order)).data, status=status.HTTP_201_CREATED)


class CapturePaymentApi(PaymentApi):
    """POST /api/paypal/capture-payment {orderId} → the order, COMPLETED once however often it is called.

    402: not paid (declined, pending at PayPal, not approved yet); 409 with `refunded`: captured but it bought nothing
    (seats lost, reservation changed or paid already), so refunded, and said."""

    @extend_schema(
        request=OrderIdInput,
        responses={
            200: CaptureOutput,
            402: CaptureRefusedOutput,
            404: NOT_FOUND_ANSWER,
            409: CaptureRefusedOutput,
            502: ErrorOutput,
        },
    )
    def post(self, request):
        values = _valid(OrderIdInput, request)
        return capture_answer(payment_order_capture(order_id=values["orderId"], user=request.user))


def capture_answer(outcome) -> Response:
    """A capture's outcome as the widget reads it: 200 paid, 409 `refunded` when it bought nothing, 402 otherwise."""
    body = _order_body(outcome.order)
    if outcome.completed:
        return Response(CaptureOutput(body).data)
    if outcome.refunded:
        code, http_status, extra = REFUNDED, status.HTTP_409_CONFLICT, {"refunded": True}
    else:
        code, http_status, extra = REFUSED, status.HTTP_402_PAYMENT_REQUIRED, {}
    message = outcome.message or MSG_NOT_APPROVED
    refused = {"error": message, "message": message, "code": code, **extra, **body}
    return Response(CaptureRefusedOutput(refused).data, status=http_status)


class CancelOrderApi(PaymentApi):
    """POST /api/paypal/cancel-order {orderId}: the buyer gave up; the reservation keeps its hold."""

    @extend_schema(request=OrderIdInput, responses={200: OrderStatusOutput, 404: NOT_FOUND_ANSWER})
    def post(self, request):
        values = _valid(OrderIdInput, request)
        order = payment_order_cancel(order_id=values["orderId"], user=request.user)
        return Response(OrderStatusOutput({"id": order.order_id, "status": order.status}).data)


__all__ = [
    "CancelOrderApi",
    "CapturePaymentApi",
    "CreateOrderApi",
]
