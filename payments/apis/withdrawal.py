"""The member's withdrawal from a class card bought online (docs/decisions.md 47): GET /api/paypal/withdrawal lists
the purchases still open to it (the profile's "Exercer mon droit de rétractation"), POST {orderId} withdraws, once.
Refusals are WithdrawalErrors the shared exception handler answers in French."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from studio.schema import ErrorOutput

from ..services.withdrawal import (
    MSG_WITHDRAWAL_NOT_FOUND,
    member_withdrawable_rows,
    payment_order_withdraw,
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
        rows = [
            {"orderId": r["order_id"], "title": r["title"], "amount": r["amount"], "deadline": r["deadline"]}
            for r in member_withdrawable_rows(member_id=request.user.pk)
        ]
        return Response(WithdrawableOutput(rows, many=True).data)

    @extend_schema(request=WithdrawalInput, responses={200: WithdrawalOutput, 404: ErrorOutput, 409: ErrorOutput})
    def post(self, request):
        values = _valid(WithdrawalInput, request)
        order, message = payment_order_withdraw(user=request.user, order_id=values["orderId"])
        return Response(WithdrawalOutput({"message": message, "refund_amount": order.withdrawal_refund_amount}).data)
