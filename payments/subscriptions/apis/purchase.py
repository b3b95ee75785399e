"""Buying a subscription: the reduced-rate confirmation that create-order and PayPal's subscription take,
the proof upload, and PayPal's subscription flow (the JS SDK's createSubscription asks this server for the
subscription, the member approves it in PayPal's popup, then onApprove tells this server, which reads PayPal from a
task; the webhooks do the rest)."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from media_library.fields import UploadField
from studio.parsers import JSON_OR_MULTIPART, BoundedJSONParser
from studio.queue import enqueue_after_commit
from studio.schema import ErrorOutput

from ...apis.fields import Email, Text, choice, identifier
from ...apis.purchase_fields import immediate_start_field, terms_accepted_field
from ...models import PaymentStatus
from ...services.common import MSG_EMAIL_INVALID, MSG_INCOMPLETE, MSG_TARIFF_NOT_FOUND
from ...services.reduced_rate import (
    MSG_PROOF_MISSING,
    MSG_PROOF_NOT_FOUND,
    MSG_REDUCED_CONFIRM,
    MSG_REDUCED_STATUS,
    ReducedClaim,
    reduced_proof_upload,
)
from ..models import ReducedStatus
from ..services.paypal import paypal_subscription_sync_task
from ..services.paypal_purchase import paypal_subscription_approved, paypal_subscription_create, subscription_offer

MSG_SUBSCRIPTION_ID = "Abonnement PayPal introuvable."


class ReducedClaimInput(serializers.Serializer):
    """A student or job-seeker rate: the status, the required checkbox, and a proof uploaded before (optional)."""

    reduced_status = choice(
        ReducedStatus.choices, message=MSG_REDUCED_STATUS, required=False, help_text="Tarif réduit : le statut."
    )
    reduced_confirmed = serializers.BooleanField(
        required=False,
        error_messages={"invalid": MSG_REDUCED_CONFIRM, "null": MSG_REDUCED_CONFIRM},
        help_text="Tarif réduit : la case « Je confirme être étudiant(e) ou demandeur(se) d'emploi » cochée.",
    )
    reduced_proof_id = identifier(
        MSG_PROOF_NOT_FOUND, required=False, help_text="Tarif réduit : le justificatif envoyé avant (facultatif)."
    )


def reduced_claim_from(values: dict) -> ReducedClaim | None:
    if not any(k in values for k in ("reduced_status", "reduced_confirmed", "reduced_proof_id")):
        return None
    return ReducedClaim(
        status=values.get("reduced_status", ""),
        confirmed=bool(values.get("reduced_confirmed", False)),
        proof_id=values.get("reduced_proof_id"),
    )


class PayPalSubscriptionInput(ReducedClaimInput):
    tariff_id = identifier(MSG_TARIFF_NOT_FOUND)
    email = Email(missing=MSG_INCOMPLETE, invalid=MSG_EMAIL_INVALID)
    first_name = Text(missing=MSG_INCOMPLETE, max_length=1000)
    last_name = Text(missing=MSG_INCOMPLETE, max_length=1000)
    # Buying a subscription requires the terms of sale, as create-order does (docs/decisions.md 47).
    accept_terms = terms_accepted_field()
    immediate_start = immediate_start_field()


class PayPalSubscriptionOutput(serializers.Serializer):
    id = serializers.CharField(help_text="L'identifiant de l'abonnement chez PayPal (I-…), pour le bouton PayPal.")
    status = choice(PaymentStatus.choices, message="")
    amount = serializers.DecimalField(max_digits=10, decimal_places=2, help_text="Montant par période.")
    currency = serializers.CharField()


class PayPalApprovedInput(serializers.Serializer):
    subscriptionID = Text(  # noqa: N815 (PayPal's JS SDK's name)
        missing=MSG_SUBSCRIPTION_ID, max_length=64, error_messages={"max_length": MSG_SUBSCRIPTION_ID}
    )


class ProofInput(serializers.Serializer):
    file = UploadField(
        error_messages={key: MSG_PROOF_MISSING for key in ("required", "null", "invalid", "no_name", "empty")},
        help_text="Carte étudiante ou attestation France Travail : photo ou scan JPEG, PNG, GIF ou WebP.",
    )


class ProofOutput(serializers.Serializer):
    id = serializers.IntegerField()


def _order_body(order) -> dict:
    return {"id": order.order_id, "status": order.status, "amount": order.amount, "currency": order.currency}


class PayPalSubscriptionCreateApi(APIView):
    """POST /api/subscriptions/paypal: PayPal's button asks for a subscription on the tariff's billing plan."""

    permission_classes = [IsAuthenticated]
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        request=PayPalSubscriptionInput,
        responses={
            201: PayPalSubscriptionOutput,
            400: ErrorOutput,
            404: OpenApiResponse(ErrorOutput, description="Tarif ou justificatif introuvable."),
            409: OpenApiResponse(ErrorOutput, description="Paiement par PayPal indisponible (simulateur)."),
            502: ErrorOutput,
        },
    )
    def post(self, request):
        values = PayPalSubscriptionInput(data=request.data)
        values.is_valid(raise_exception=True)
        data = values.validated_data
        order = paypal_subscription_create(
            user=request.user,
            tariff_id=data["tariff_id"],
            email=data["email"],
            first_name=data["first_name"],
            last_name=data["last_name"],
            reduced=reduced_claim_from(data),
            immediate_start=data["immediate_start"],
        )
        return Response(PayPalSubscriptionOutput(_order_body(order)).data, status=status.HTTP_201_CREATED)


class PayPalSubscriptionApprovedApi(APIView):
    """POST /api/subscriptions/paypal/approved {subscriptionID}: the popup's onApprove; the worker reads PayPal."""

    permission_classes = [IsAuthenticated]
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        request=PayPalApprovedInput,
        responses={202: PayPalSubscriptionOutput, 400: ErrorOutput, 404: ErrorOutput},
    )
    def post(self, request):
        values = PayPalApprovedInput(data=request.data)
        values.is_valid(raise_exception=True)
        order = paypal_subscription_approved(
            provider_subscription_id=values.validated_data["subscriptionID"], user=request.user
        )
        enqueue_after_commit(paypal_subscription_sync_task, provider_subscription_id=order.order_id)
        return Response(PayPalSubscriptionOutput(_order_body(order)).data, status=status.HTTP_202_ACCEPTED)


class ReducedProofApi(APIView):
    """POST /api/subscriptions/reduced-proofs (multipart, `file`): the member's proof, checked by its content and size;
    its id then goes with the purchase (`reduced_proof_id`). A few per hour (429 past them, with Retry-After); a
    proof no purchase names is deleted a day after its upload."""

    permission_classes = [IsAuthenticated]
    parser_classes = JSON_OR_MULTIPART

    @extend_schema(
        request={"multipart/form-data": ProofInput},
        responses={
            201: ProofOutput,
            400: OpenApiResponse(ErrorOutput, description=MSG_PROOF_MISSING),
            429: OpenApiResponse(ErrorOutput, description="Trop de justificatifs envoyés dans l'heure."),
        },
    )
    def post(self, request):
        values = ProofInput(data=request.data)
        values.is_valid(raise_exception=True)
        proof = reduced_proof_upload(user=request.user, upload=values.validated_data.get("file"))
        return Response(ProofOutput({"id": proof.pk}).data, status=status.HTTP_201_CREATED)


class OfferOutput(serializers.Serializer):
    tariff_id = serializers.IntegerField()
    per_period = serializers.BooleanField(help_text="Payé par période (un abonnement prélevé à chaque échéance).")
    reduced = serializers.BooleanField(help_text="Tarif réduit : le statut se confirme à l'achat.")
    period_months = serializers.IntegerField(allow_null=True)
    periods_committed = serializers.IntegerField(allow_null=True)
    amount = serializers.DecimalField(max_digits=10, decimal_places=2, help_text="Montant par période (ou prix).")


class SubscriptionOfferApi(APIView):
    """GET /api/subscriptions/offers/{tariff_id}: how the purchase modal sells this tariff (per period? reduced?)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: OfferOutput, 404: OpenApiResponse(ErrorOutput, description="Tarif introuvable.")})
    def get(self, request, tariff_id: int):
        return Response(OfferOutput(subscription_offer(tariff_id=tariff_id)).data)
