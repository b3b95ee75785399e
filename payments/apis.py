"""Payment APIs under /api/paypal/ (DECISIONS.md 1). Thin: parse, call a service, shape the answer."""

import json
import logging

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.api import error_response
from studio.pagination import StandardPagination
from studio.permissions import IsStudioStaff

from . import services
from .providers import get_provider
from .selectors import payment_client_config, payment_orders_for_staff
from .tasks import paypal_webhook_process

logger = logging.getLogger(__name__)

MSG_WEBHOOK_REFUSED = "Notification refusée : signature invalide."
MSG_WEBHOOK_FAILED = "Erreur lors du traitement de la notification."
WEBHOOK_QUEUED = "queued"


def _text():
    return serializers.CharField(required=False, allow_blank=True, allow_null=True, default="", trim_whitespace=True)


def _optional_int(value):
    if value in (None, ""):
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        return -1  # never an id: the service answers "not found"
    return number if -(2**31) < number < 2**31 else -1


class CreateOrderInput(serializers.Serializer):
    amount = serializers.CharField(required=False, allow_blank=True, allow_null=True, default="")
    email = _text()
    first_name = _text()
    last_name = _text()
    title = _text()
    type = _text()
    date = _text()
    time = _text()
    message = _text()
    reservation_id = serializers.CharField(required=False, allow_blank=True, allow_null=True, default=None)
    tariff_id = serializers.CharField(required=False, allow_blank=True, allow_null=True, default=None)
    quantity = serializers.CharField(required=False, allow_blank=True, allow_null=True, default=None)


class PaymentOrderOutput(serializers.Serializer):
    order_id = serializers.CharField()
    provider = serializers.CharField()
    email = serializers.EmailField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    title = serializers.CharField()
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    currency = serializers.CharField()
    date = serializers.CharField()
    time = serializers.CharField()
    type = serializers.CharField()
    status = serializers.CharField()
    message = serializers.CharField()
    quantity = serializers.IntegerField()
    reservation_id = serializers.IntegerField(allow_null=True)
    tariff_id = serializers.IntegerField(allow_null=True)
    capture_id = serializers.CharField()
    provider_note = serializers.CharField()
    created_at = serializers.DateTimeField()
    completed_at = serializers.DateTimeField(allow_null=True)


ORDER_REF = inline_serializer(
    "PaymentOrderRef",
    {
        "id": serializers.CharField(),
        "status": serializers.CharField(),
        "amount": serializers.CharField(required=False),
        "currency": serializers.CharField(required=False),
    },
)


def _error(exc: services.PaymentError) -> Response:
    return error_response(exc.message, exc.status_code)


class CreateOrderApi(APIView):
    """POST /api/paypal/create-order → {id}: the provider's order, priced by the server."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=CreateOrderInput, responses={201: ORDER_REF})
    def post(self, request):
        data = CreateOrderInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        quantity = values["quantity"]
        try:
            order = services.payment_order_create(
                user=request.user,
                amount=values["amount"],
                email=values["email"] or "",
                first_name=values["first_name"] or "",
                last_name=values["last_name"] or "",
                title=values["title"] or "",
                type=values["type"] or "",
                date=values["date"] or "",
                time=values["time"] or "",
                message=values["message"] or "",
                reservation_id=_optional_int(values["reservation_id"]),
                tariff_id=_optional_int(values["tariff_id"]),
                quantity=_optional_int(quantity) if quantity not in (None, "") else None,
            )
        except services.PaymentError as exc:
            return _error(exc)
        return Response(
            {"id": order.order_id, "status": order.status, "amount": f"{order.amount:.2f}", "currency": order.currency},
            status=status.HTTP_201_CREATED,
        )


class OrderIdInput(serializers.Serializer):
    orderId = serializers.CharField(max_length=64, error_messages={"required": services.MSG_ORDER_NOT_FOUND})


def _order_id(request) -> str | None:
    data = OrderIdInput(data=request.data)
    return data.validated_data["orderId"] if data.is_valid() else None


class CapturePaymentApi(APIView):
    """POST /api/paypal/capture-payment {orderId} → the order, COMPLETED once however often it is called."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=OrderIdInput, responses={200: ORDER_REF})
    def post(self, request):
        order_id = _order_id(request)
        if not order_id:
            return error_response(services.MSG_ORDER_NOT_FOUND, status.HTTP_404_NOT_FOUND)
        try:
            outcome = services.payment_order_capture(order_id=order_id, user=request.user)
        except services.PaymentError as exc:
            return _error(exc)
        order = outcome.order
        body = {
            "id": order.order_id,
            "status": order.status,
            "amount": f"{order.amount:.2f}",
            "currency": order.currency,
            "title": order.title,
        }
        if outcome.refunded:
            # Captured, but it bought nothing (seats lost, reservation changed or paid already): refunded, and said.
            return error_response(outcome.message, status.HTTP_409_CONFLICT, refunded=True, **body)
        if not outcome.completed:
            code = status.HTTP_402_PAYMENT_REQUIRED
            return error_response(outcome.message or services.MSG_NOT_APPROVED, code, **body)
        return Response(body)


class CancelOrderApi(APIView):
    """POST /api/paypal/cancel-order {orderId}: the buyer gave up; the reservation keeps its hold."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=OrderIdInput, responses={200: ORDER_REF})
    def post(self, request):
        order_id = _order_id(request)
        if not order_id:
            return error_response(services.MSG_ORDER_NOT_FOUND, status.HTTP_404_NOT_FOUND)
        try:
            order = services.payment_order_cancel(order_id=order_id, user=request.user)
        except services.PaymentError as exc:
            return _error(exc)
        return Response({"id": order.order_id, "status": order.status})


class SimulatorApproveInput(serializers.Serializer):
    orderId = serializers.CharField(max_length=64)
    outcome = serializers.ChoiceField(choices=["approve", "decline"], default="approve")


class SimulatorApproveApi(APIView):
    """POST /api/paypal/simulator/approve {orderId, outcome}: the demonstration mode's stand-in for PayPal's window."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=SimulatorApproveInput, responses={200: ORDER_REF})
    def post(self, request):
        data = SimulatorApproveInput(data=request.data)
        if not data.is_valid():
            return error_response(services.MSG_ORDER_NOT_FOUND, status.HTTP_404_NOT_FOUND)
        try:
            services.simulator_order_approve(
                order_id=data.validated_data["orderId"],
                user=request.user,
                card_declined=data.validated_data["outcome"] == "decline",
            )
        except services.PaymentError as exc:
            return _error(exc)
        return Response({"id": data.validated_data["orderId"], "status": "APPROVED"})


class PaymentConfigApi(APIView):
    """GET /api/paypal/config: the widget's provider settings (public: the PayPal client id is public)."""

    authentication_classes = []  # public: nobody needs to be identified, and the schema says so
    permission_classes = []

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response(payment_client_config())


class WebhookApi(APIView):
    """POST /api/paypal/webhook: PayPal's notifications, verified with PayPal, then acknowledged at once (202) and
    applied by a worker, once per event id (DECISIONS.md 41). The check stays in the request so that nobody but PayPal
    can fill the queue; what an event then does (a capture, a fulfilment, a receipt) never holds PayPal's delivery."""

    authentication_classes = []  # PayPal sends no session; no CSRF either: the signature check stands instead
    permission_classes = []

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request):
        try:
            event = json.loads(request.body or b"{}")
        except ValueError:
            return error_response(MSG_WEBHOOK_REFUSED, status.HTTP_400_BAD_REQUEST)
        if not isinstance(event, dict) or not get_provider().verify_webhook(headers=request.headers, event=event):
            return error_response(MSG_WEBHOOK_REFUSED, status.HTTP_400_BAD_REQUEST)
        try:
            paypal_webhook_process.enqueue(event=event)
        except Exception:  # noqa: BLE001 - the queue is down: answer 500 so PayPal redelivers later
            logger.exception("PayPal webhook %s could not be queued", event.get("id"))
            return error_response(MSG_WEBHOOK_FAILED, status.HTTP_500_INTERNAL_SERVER_ERROR)
        return Response({"result": WEBHOOK_QUEUED}, status=status.HTTP_202_ACCEPTED)


def _plain(data) -> dict:
    """Staff edits go to the service as plain values; it says which required field is missing."""
    return dict(data.items()) if hasattr(data, "items") else {}


class PaymentOrdersApi(APIView):
    """GET (paginated; ?ordering=[-]created|date|amount|status|email, ?status=, ?search=) and POST, staff only."""

    permission_classes = [IsStudioStaff]

    @extend_schema(responses=PaymentOrderOutput(many=True))
    def get(self, request):
        qs = payment_orders_for_staff(
            ordering=request.query_params.get("ordering", ""),
            status=request.query_params.get("status", ""),
            search=request.query_params.get("search", "").strip(),
        )
        paginator = StandardPagination()
        page = paginator.paginate_queryset(qs, request, view=self)
        return paginator.get_paginated_response(PaymentOrderOutput(page, many=True).data)

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: PaymentOrderOutput})
    def post(self, request):
        try:
            order = services.payment_order_staff_create(data=_plain(request.data))
        except services.PaymentError as exc:
            return _error(exc)
        return Response(PaymentOrderOutput(order).data, status=status.HTTP_201_CREATED)


class PaymentOrderDetailApi(APIView):
    """PUT and DELETE /api/paypal/orders/<order_id>, staff only."""

    permission_classes = [IsStudioStaff]

    @extend_schema(request=OpenApiTypes.OBJECT, responses=PaymentOrderOutput)
    def put(self, request, order_id):
        try:
            order = services.payment_order_staff_update(order_id=order_id, data=_plain(request.data))
        except services.PaymentError as exc:
            return _error(exc)
        return Response(PaymentOrderOutput(order).data)

    @extend_schema(responses={204: None})
    def delete(self, request, order_id):
        try:
            services.payment_order_staff_delete(order_id=order_id)
        except services.PaymentError as exc:
            return _error(exc)
        return Response(status=status.HTTP_204_NO_CONTENT)
