"""Staff actions on a subscription from the dashboard (docs/decisions.md 25): retry the unpaid period now, cancel with
or without the refund of the current period, end a reduced plan. Each answers the French outcome and the subscription
as staff see it; each is logged with who and why."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.fields import StrictBooleanField
from studio.parsers import BoundedJSONParser
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ...apis.fields import Text
from ..selectors import subscription_for_staff
from ..services import staff as subscription_staff
from .subscriptions import StaffSubscriptionOutput, _body

MSG_REFUND_INVALID = "Indiquez vrai ou faux pour le remboursement de la période en cours."


class RetryInput(serializers.Serializer):
    reason = Text(max_length=2000, help_text="Facultatif : pourquoi la relance.")


class ReasonInput(serializers.Serializer):
    reason = Text(missing=subscription_staff.MSG_REASON_REQUIRED, max_length=2000)


class CancelInput(ReasonInput):
    refund = StrictBooleanField(
        default=False,
        error_messages={"invalid": MSG_REFUND_INVALID, "null": MSG_REFUND_INVALID},
        help_text="Rembourser la période en cours via le prestataire de paiement.",
    )


class ActionOutput(serializers.Serializer):
    message = serializers.CharField(help_text="Le résultat, en français.")
    subscription = StaffSubscriptionOutput()


ANSWERS = {
    200: ActionOutput,
    400: ErrorOutput,
    404: OpenApiResponse(ErrorOutput, description="Abonnement introuvable."),
    409: OpenApiResponse(ErrorOutput, description="Abonnement terminé ou annulé, ou rien à faire."),
}


def _answer(subscription_id: int, message: str) -> Response:
    view = subscription_for_staff(subscription_id=subscription_id)
    return Response(ActionOutput({"message": message, "subscription": _body(view, with_member=True)}).data)


class _StaffAction(APIView):
    permission_classes = [IsStudioStaff]
    parser_classes = [BoundedJSONParser]


class SubscriptionRetryApi(_StaffAction):
    """POST /api/subscriptions/{id}/retry {reason?}: charge the first unpaid period now."""

    @extend_schema(request=RetryInput, responses=ANSWERS)
    def post(self, request, subscription_id: int):
        values = RetryInput(data=request.data)
        values.is_valid(raise_exception=True)
        message = subscription_staff.subscription_charge_retry(
            subscription_id=subscription_id, by=request.user, reason=values.validated_data.get("reason", "")
        )
        return _answer(subscription_id, message)


class SubscriptionCancelApi(_StaffAction):
    """POST /api/subscriptions/{id}/cancel {refund, reason}: nothing more is charged; with `refund`, the current
    period's money goes back through the provider, once."""

    @extend_schema(request=CancelInput, responses=ANSWERS)
    def post(self, request, subscription_id: int):
        values = CancelInput(data=request.data)
        values.is_valid(raise_exception=True)
        message = subscription_staff.subscription_cancel(
            subscription_id=subscription_id,
            by=request.user,
            reason=values.validated_data["reason"],
            refund=values.validated_data["refund"],
        )
        return _answer(subscription_id, message)


class SubscriptionEndReducedApi(_StaffAction):
    """POST /api/subscriptions/{id}/end-reduced {reason}: the member no longer qualifies for the reduced rate."""

    @extend_schema(request=ReasonInput, responses=ANSWERS)
    def post(self, request, subscription_id: int):
        values = ReasonInput(data=request.data)
        values.is_valid(raise_exception=True)
        message = subscription_staff.subscription_end_reduced(
            subscription_id=subscription_id, by=request.user, reason=values.validated_data["reason"]
        )
        return _answer(subscription_id, message)
