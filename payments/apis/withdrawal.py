"""The member's withdrawal from a class card bought online (docs/decisions.md 47): GET /api/paypal/withdrawal lists
the purchases still open to it (the profile's "Exercer mon droit de rétractation"), POST {orderId} withdraws, once.
Refusals are WithdrawalErrors the shared exception handler answers in French."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from studio.schema import ErrorOutput

from ..models import PaymentOrder, PaymentStatus
from ..services.withdrawal import (
    MSG_WITHDRAWAL_NOT_FOUND,
    payment_order_withdraw,
    withdrawal_deadline,
    withdrawal_open,
)
from .checkout import ORDER_ID_MAX, PaymentApi, _valid
from .fields import Text


class WithdrawalInput(serializers.Serializer):
    orderId = Text(  # noqa: N815 (the widget's name)
        missing=MSG_WITHDRAWAL_NOT_FOUND,
        max_length=ORDER_ID_MAX,
        error_messages={"max_length": MSG_WITHDRAWAL_NOT_FOUND},
    )


class WithdrawalOutput(serializers.Serializer):
    message = serializers.CharField()
    refund_amount = serializers.DecimalField(max_digits=10, decimal_places=2)


class WithdrawableOutput(serializers.Serializer):
    orderId = serializers.CharField()  # noqa: N815
    title = serializers.CharField()
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    deadline = serializers.DateTimeField(help_text="La fin du délai de rétractation de 14 jours.")


class WithdrawalApi(PaymentApi):
    @extend_schema(responses={200: WithdrawableOutput(many=True)})
    def get(self, request):
        orders = PaymentOrder.objects.filter(
            user=request.user,
            tariff__isnull=False,
            granted_pass__isnull=False,
            status=PaymentStatus.COMPLETED,
            withdrawn_at__isnull=True,
        ).order_by("-completed_at")[:20]
        rows = [
            {"orderId": o.order_id, "title": o.title, "amount": o.amount, "deadline": withdrawal_deadline(o)}
            for o in orders
            if withdrawal_open(o)
        ]
        return Response(WithdrawableOutput(rows, many=True).data)

    @extend_schema(request=WithdrawalInput, responses={200: WithdrawalOutput, 404: ErrorOutput, 409: ErrorOutput})
    def post(self, request):
        values = _valid(WithdrawalInput, request)
        order, message = payment_order_withdraw(user=request.user, order_id=values["orderId"])
        return Response(WithdrawalOutput({"message": message, "refund_amount": order.withdrawal_refund_amount}).data)
