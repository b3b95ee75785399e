"""The demonstration mode's payment window and the widget's provider settings: the simulator approves an order with
the method the buyer picked (card, with or without 3-D Secure, or a wallet) and answers the simulated bank's
challenge (docs/decisions.md 42); the public config tells the widget which providers are offered."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.fields import StrictBooleanField
from studio.schema import ErrorOutput, StudioAutoSchema

from ..choices import ONLINE_PROVIDERS
from ..models import PaymentStatus
from ..selectors import payment_client_config
from ..services.capture import simulator_order_approve, simulator_order_authenticate
from ..services.common import MSG_NOT_APPROVED
from ..simulator import (
    METHOD_CARD,
    METHOD_WALLET,
    SCENARIO_CHALLENGE,
    SCENARIO_SUCCESS,
    SCENARIOS,
    WALLET_APPLE_PAY,
    WALLET_LABELS,
)
from .checkout import NOT_FOUND_ANSWER, OrderIdInput, OrderStatusOutput, PaymentApi, _valid
from .fields import choice, messages

MSG_OUTCOME_INVALID = "Issue de paiement simulée inconnue : « approve », « decline » ou « approve_declines_later »."
OUTCOME_DECLINES_LATER = "approve_declines_later"
MSG_METHOD_INVALID = "Moyen de paiement simulé inconnu : « card » (carte) ou « wallet » (Apple Pay, Google Pay)."
MSG_SCENARIO_INVALID = (
    "Scénario de paiement simulé inconnu : « success », « challenge » (3-D Secure, carte seulement) ou « declined »."
)
MSG_WALLET_SCENARIO = "Apple Pay et Google Pay ne demandent pas de 3-D Secure : scénario « success » ou « declined »."
MSG_WALLET_INVALID = "Portefeuille simulé inconnu : « apple_pay » (Apple Pay) ou « google_pay » (Google Pay)."
MSG_PASSED_INVALID = "Dites si l'authentification est validée : « passed » vaut true (validée) ou false (refusée)."
ACTION_REQUIRED = "ACTION_REQUIRED"


class WalletNeverChallengedSchema(StudioAutoSchema):
    """A wallet has no 3-D Secure scenario (SimulatorApproveInput.validate): `not` says so in the schema."""

    def _map_serializer(self, serializer, direction, bypass_extensions=False):
        schema = super()._map_serializer(serializer, direction, bypass_extensions)
        if isinstance(serializer, SimulatorApproveInput) and direction == "request":
            schema["not"] = {
                "required": ["method", "scenario"],
                "properties": {"method": {"enum": [METHOD_WALLET]}, "scenario": {"enum": [SCENARIO_CHALLENGE]}},
            }
        return schema


class SimulatorApproveInput(OrderIdInput):
    """What the simulated payment window sends: the outcome, and the method the buyer pays with and what their
    bank does (docs/decisions.md 42)."""

    outcome = choice(
        ["approve", "decline", OUTCOME_DECLINES_LATER],
        message=MSG_OUTCOME_INVALID,
        default="approve",
        help_text=(
            "« decline » : la carte simulée est refusée à la capture ; « approve_declines_later » (abonnement) : "
            "elle paie la commande puis est refusée aux échéances suivantes."
        ),
    )
    method = choice(
        [METHOD_CARD, METHOD_WALLET],
        message=MSG_METHOD_INVALID,
        default=METHOD_CARD,
        help_text="« card » : la carte CB simulée (•••• 4242) ; « wallet » : Apple Pay ou Google Pay simulé.",
    )
    scenario = choice(
        list(SCENARIOS[METHOD_CARD]),
        message=MSG_SCENARIO_INVALID,
        default=SCENARIO_SUCCESS,
        help_text=(
            "« success » : payé à la capture ; « challenge » (carte) : la banque demande une authentification "
            "3-D Secure (POST /api/paypal/simulator/authenticate) ; « declined » : refusé par la banque à la capture."
        ),
    )
    wallet = choice(
        list(WALLET_LABELS),
        message=MSG_WALLET_INVALID,
        default=WALLET_APPLE_PAY,
        help_text="Le portefeuille d'un paiement « wallet ».",
    )

    def validate(self, attrs):
        if attrs["scenario"] not in SCENARIOS[attrs["method"]]:
            raise serializers.ValidationError({"scenario": MSG_WALLET_SCENARIO})
        return attrs


class SimulatorApproveOutput(serializers.Serializer):
    id = serializers.CharField()
    status = choice([PaymentStatus.APPROVED.value, ACTION_REQUIRED], message=MSG_NOT_APPROVED)
    challenge = serializers.BooleanField(
        required=False, help_text="Présent (true) quand la banque demande une authentification 3-D Secure."
    )


class SimulatorAuthenticateInput(OrderIdInput):
    passed = StrictBooleanField(
        error_messages=messages(MSG_PASSED_INVALID, "invalid", "required", "null"),
        help_text="true : l'authentification 3-D Secure simulée est validée ; false : refusée.",
    )


class PaymentConfigOutput(serializers.Serializer):
    provider = choice(["paypal", "simulator"], message="")
    clientId = serializers.CharField(allow_blank=True)  # noqa: N815 (the widget's name)
    currency = serializers.CharField()
    providers = serializers.ListField(child=choice(ONLINE_PROVIDERS, message=""))
    stripePublishableKey = serializers.CharField(allow_blank=True)  # noqa: N815 (the widget's name)


class SimulatorApproveApi(PaymentApi):
    """POST /api/paypal/simulator/approve {orderId, outcome, method, scenario, wallet}: the demonstration mode's
    stand-in for the provider's window (404 when PayPal is the provider). A card its bank challenges answers
    ACTION_REQUIRED: the order waits for /api/paypal/simulator/authenticate."""

    schema = WalletNeverChallengedSchema()

    @extend_schema(request=SimulatorApproveInput, responses={200: SimulatorApproveOutput, 404: NOT_FOUND_ANSWER})
    def post(self, request):
        values = _valid(SimulatorApproveInput, request)
        challenged = simulator_order_approve(
            order_id=values["orderId"],
            user=request.user,
            card_declined=values["outcome"] == "decline",
            declines_later=values["outcome"] == OUTCOME_DECLINES_LATER,
            method=values["method"],
            wallet=values["wallet"],
            scenario=values["scenario"],
        )
        if challenged:
            body = {"id": values["orderId"], "status": ACTION_REQUIRED, "challenge": True}
        else:
            body = {"id": values["orderId"], "status": PaymentStatus.APPROVED.value}
        return Response(SimulatorApproveOutput(body).data)


class SimulatorAuthenticateApi(PaymentApi):
    """POST /api/paypal/simulator/authenticate {orderId, passed}: the member's answer to the simulated 3-D Secure
    challenge of their card, once (a repeated answer is told the first result). 402: refused, nothing was debited;
    409: no challenge is waiting for this order, or the order is closed."""

    @extend_schema(
        request=SimulatorAuthenticateInput,
        responses={200: OrderStatusOutput, 402: ErrorOutput, 404: NOT_FOUND_ANSWER},
    )
    def post(self, request):
        values = _valid(SimulatorAuthenticateInput, request)
        simulator_order_authenticate(order_id=values["orderId"], user=request.user, passed=values["passed"])
        return Response(OrderStatusOutput({"id": values["orderId"], "status": PaymentStatus.APPROVED.value}).data)


class PaymentConfigApi(APIView):
    """GET /api/paypal/config: the widget's provider settings (public: the PayPal client id is public)."""

    authentication_classes = []  # public: nobody needs to be identified, and the schema says so
    permission_classes = []

    @extend_schema(responses=PaymentConfigOutput)
    def get(self, request):
        return Response(PaymentConfigOutput(payment_client_config()).data)


__all__ = ["PaymentConfigApi", "SimulatorApproveApi", "SimulatorAuthenticateApi"]
