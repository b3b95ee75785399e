"""`POST /api/waitlist/offers/accept` (`{token}`): the one-tap accept of a waiting-list offer from its push
(docs/decisions.md 53). The signed token from the push is the member's authority for that one offer, so the service
worker posts it without a session or a CSRF token; the answer says whether the seat was booked with a pass and which
page to open (Mes cours, or the held seat's payment)."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.parsers import BoundedJSONParser
from studio.schema import ErrorOutput

from ..services.waitlist_accept import MSG_ACCEPT_LINK_INVALID, waitlist_offer_accept

_TOKEN_ERRORS = {
    key: MSG_ACCEPT_LINK_INVALID for key in ("required", "null", "blank", "min_length", "max_length", "invalid")
}


class WaitlistOfferAcceptInput(serializers.Serializer):
    token = serializers.CharField(min_length=1, max_length=300, error_messages=_TOKEN_ERRORS)


class WaitlistOfferAcceptOutput(serializers.Serializer):
    booked = serializers.BooleanField(help_text="true : réservé avec une carte ou un abonnement du membre.")
    url = serializers.CharField(help_text="La page à ouvrir : Mes cours, ou le paiement de la place retenue.")
    message = serializers.CharField()


class WaitlistOfferAcceptApi(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        operation_id="waitlist_offer_accept",
        request=WaitlistOfferAcceptInput,
        responses={200: WaitlistOfferAcceptOutput, 400: ErrorOutput, 404: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request):
        data = WaitlistOfferAcceptInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(WaitlistOfferAcceptOutput(waitlist_offer_accept(token=data.validated_data["token"])).data)
