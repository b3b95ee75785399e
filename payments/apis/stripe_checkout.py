"""Stripe's one-off payments (docs/decisions.md 42): the member's page finishing a payment, and Stripe's webhook."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.schema import ErrorOutput

from ..services.stripe_payments import stripe_payment_complete
from ..services.stripe_webhooks import stripe_webhook_receive
from .checkout import (
    NOT_FOUND_ANSWER,
    CaptureOutput,
    CaptureRefusedOutput,
    OrderIdInput,
    PaymentApi,
    _order_body,
    _valid,
    capture_answer,
)
from .fields import choice

WEBHOOK_RECEIVED = "received"
PENDING = "PENDING"


class PendingOutput(serializers.Serializer):
    id = serializers.CharField()
    status = choice([PENDING], message="")
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    currency = serializers.CharField()
    title = serializers.CharField()
    message = serializers.CharField()


class CompletePaymentApi(PaymentApi):
    """POST /api/stripe/complete-payment {orderId}: after Stripe.js confirmed the payment (or on the return from the
    bank's page), the order's PaymentIntent is read from Stripe and applied, as /api/paypal/capture-payment does:
    200 paid, 402 `payment_not_completed` (declined, authentication unfinished), 409 `refunded`; 202 while Stripe is
    still processing it. Only the order's member may ask."""

    @extend_schema(
        request=OrderIdInput,
        responses={
            200: CaptureOutput,
            202: PendingOutput,
            402: CaptureRefusedOutput,
            404: NOT_FOUND_ANSWER,
            409: CaptureRefusedOutput,
            502: ErrorOutput,
        },
    )
    def post(self, request):
        values = _valid(OrderIdInput, request)
        outcome = stripe_payment_complete(order_id=values["orderId"], user=request.user)
        if outcome.pending:
            body = {**_order_body(outcome.order), "status": PENDING, "message": outcome.message}
            return Response(PendingOutput(body).data, status=status.HTTP_202_ACCEPTED)
        return capture_answer(outcome)


class StripeWebhookOutput(serializers.Serializer):
    result = choice([WEBHOOK_RECEIVED], message="")


class StripeWebhookApi(APIView):
    """POST /api/stripe/webhook: Stripe's notifications. The signature (Stripe-Signature, over the raw body) is checked
    here, so that nobody else can fill the queue; a verified event is recorded once and acknowledged at once (200),
    then applied by a task. A forged, altered or replayed delivery is refused (403) and nothing moves."""

    authentication_classes = []  # Stripe sends no session; no CSRF either: the signature check stands instead
    permission_classes = []
    parser_classes = []  # the body is read raw: the signature covers it byte for byte

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={
            200: StripeWebhookOutput,
            403: OpenApiResponse(ErrorOutput, description="Signature absente, invalide ou trop ancienne."),
        },
    )
    def post(self, request):
        stripe_webhook_receive(payload=request.body, signature=request.headers.get("Stripe-Signature", ""))
        return Response(StripeWebhookOutput({"result": WEBHOOK_RECEIVED}).data)


__all__ = ["CompletePaymentApi", "StripeWebhookApi"]
