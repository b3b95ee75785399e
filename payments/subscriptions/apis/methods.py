"""The member's saved payment method for the later periods of subscriptions: read it, save a card or accept a SEPA
mandate with the simulator (demonstration), or with Stripe (a SetupIntent the Payment Element confirms, then read
back here)."""

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.parsers import BoundedJSONParser
from studio.schema import ErrorOutput

from ...apis.fields import Text, choice, messages
from ..models import SavedMethodKind, SavedMethodProvider, SavedPaymentMethod
from ..services import saved_methods as services


class MethodOutput(serializers.Serializer):
    id = serializers.IntegerField()
    provider = serializers.CharField(help_text="simulator ou stripe.")
    kind = serializers.CharField(help_text="card ou sepa_debit.")
    label = serializers.CharField(help_text="« Carte •••• 4242, expire 12/28 », « Prélèvement SEPA FR76 •••• 1234, …».")
    last4 = serializers.CharField()
    brand = serializers.CharField()
    exp_month = serializers.IntegerField(allow_null=True)
    exp_year = serializers.IntegerField(allow_null=True)
    country = serializers.CharField(help_text="Pays de l'IBAN (prélèvement SEPA).")
    mandate_reference = serializers.CharField()
    mandate_accepted_at = serializers.DateTimeField(allow_null=True)


class MethodStateOutput(serializers.Serializer):
    provider = serializers.CharField(help_text="Qui enregistre un nouveau moyen : simulator ou stripe.")
    publishableKey = serializers.CharField(help_text="La clé publique Stripe, vide avec le simulateur.")  # noqa: N815
    mandateText = serializers.CharField(help_text="Le texte du mandat SEPA, le studio étant créancier.")  # noqa: N815
    method = MethodOutput(allow_null=True)


def _method_fields(method: SavedPaymentMethod | None) -> dict | None:
    if method is None:
        return None
    return {
        "id": method.pk,
        "provider": method.provider,
        "kind": method.kind,
        "label": method.label,
        "last4": method.last4,
        "brand": method.brand,
        "exp_month": method.exp_month,
        "exp_year": method.exp_year,
        "country": method.country,
        "mandate_reference": method.mandate_reference,
        "mandate_accepted_at": method.mandate_accepted_at,
    }


class SavedMethodApi(APIView):
    """GET /api/subscriptions/method: the member's usable saved method (or null) and how to save another."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: MethodStateOutput})
    def get(self, request):
        provider = services.saving_provider()
        body = {
            "provider": provider,
            "publishableKey": settings.STRIPE_PUBLISHABLE_KEY if provider == SavedMethodProvider.STRIPE else "",
            "mandateText": services.mandate_text(),
            "method": _method_fields(services.saved_method_of(member_id=request.user.pk)),
        }
        return Response(MethodStateOutput(body).data)


class SimulatedCardInput(serializers.Serializer):
    scenario = choice(
        [("success", "Carte qui fonctionne"), ("declines", "Carte refusée à chaque échéance")],
        message=services.MSG_SCENARIO,
        required=False,
        default="success",
    )


class SimulatedCardApi(APIView):
    """POST /api/subscriptions/method/simulator/card {scenario}: save a simulated card (demonstration)."""

    permission_classes = [IsAuthenticated]
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        request=SimulatedCardInput,
        responses={201: MethodOutput, 400: ErrorOutput, 409: OpenApiResponse(ErrorOutput, description="Stripe.")},
    )
    def post(self, request):
        values = SimulatedCardInput(data=request.data)
        values.is_valid(raise_exception=True)
        method = services.simulated_card_save(user=request.user, scenario=values.validated_data["scenario"])
        return Response(MethodOutput(_method_fields(method)).data, status=status.HTTP_201_CREATED)


class SimulatedMandateInput(serializers.Serializer):
    iban = Text(missing=services.MSG_IBAN, max_length=64, error_messages={"max_length": services.MSG_IBAN})
    holder = Text(missing=services.MSG_HOLDER, max_length=200, error_messages={"max_length": services.MSG_HOLDER})
    accepted = serializers.BooleanField(
        required=False, default=False, error_messages=messages(services.MSG_MANDATE, "invalid", "null")
    )


class SimulatedMandateApi(APIView):
    """POST /api/subscriptions/method/simulator/sepa {iban, holder, accepted}: accept a simulated SEPA mandate."""

    permission_classes = [IsAuthenticated]
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        request=SimulatedMandateInput,
        responses={201: MethodOutput, 400: ErrorOutput, 409: OpenApiResponse(ErrorOutput, description="Stripe.")},
    )
    def post(self, request):
        values = SimulatedMandateInput(data=request.data)
        values.is_valid(raise_exception=True)
        data = values.validated_data
        method = services.simulated_mandate_save(
            user=request.user, iban=data["iban"], holder=data["holder"], accepted=data["accepted"]
        )
        return Response(MethodOutput(_method_fields(method)).data, status=status.HTTP_201_CREATED)


class StripeSetupInput(serializers.Serializer):
    kind = choice(SavedMethodKind.choices, message=services.MSG_KIND)


class StripeSetupOutput(serializers.Serializer):
    setupIntentId = serializers.CharField()  # noqa: N815
    clientSecret = serializers.CharField()  # noqa: N815
    publishableKey = serializers.CharField()  # noqa: N815


class StripeSetupApi(APIView):
    """POST /api/subscriptions/method/stripe/setup {kind}: a SetupIntent for a card or a SEPA mandate; its client
    secret goes to the Payment Element (mode "setup")."""

    permission_classes = [IsAuthenticated]
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        request=StripeSetupInput,
        responses={201: StripeSetupOutput, 400: ErrorOutput, 409: ErrorOutput, 502: ErrorOutput},
    )
    def post(self, request):
        values = StripeSetupInput(data=request.data)
        values.is_valid(raise_exception=True)
        method, client_secret = services.stripe_saving_start(user=request.user, kind=values.validated_data["kind"])
        body = {
            "setupIntentId": method.setup_id,
            "clientSecret": client_secret,
            "publishableKey": settings.STRIPE_PUBLISHABLE_KEY,
        }
        return Response(StripeSetupOutput(body).data, status=status.HTTP_201_CREATED)


class StripeSetupCompleteInput(serializers.Serializer):
    setupIntentId = Text(  # noqa: N815 (Stripe.js's name)
        missing=services.MSG_SETUP_NOT_FOUND,
        max_length=64,
        error_messages={"max_length": services.MSG_SETUP_NOT_FOUND},
    )


class StripeSetupCompleteApi(APIView):
    """POST /api/subscriptions/method/stripe/complete {setupIntentId}: after confirmSetup, the server reads the
    SetupIntent from Stripe and saves the method."""

    permission_classes = [IsAuthenticated]
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        request=StripeSetupCompleteInput,
        responses={200: MethodOutput, 400: ErrorOutput, 402: ErrorOutput, 404: ErrorOutput, 502: ErrorOutput},
    )
    def post(self, request):
        values = StripeSetupCompleteInput(data=request.data)
        values.is_valid(raise_exception=True)
        method = services.stripe_saving_complete(
            setup_intent_id=values.validated_data["setupIntentId"], user=request.user
        )
        return Response(MethodOutput(_method_fields(method)).data)
