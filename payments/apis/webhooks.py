"""POST /api/paypal/webhook: PayPal's notifications (docs/decisions.md 41)."""

import json

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.errors import FORBIDDEN, ApplicationError
from studio.parsers import BoundedJSONParser
from studio.queue import enqueue_after_commit
from studio.schema import ErrorOutput

from ..providers import get_provider
from ..tasks import paypal_webhook_process
from .fields import choice

MSG_WEBHOOK_INVALID = "Notification refusée : le corps n'est pas un objet JSON."
MSG_WEBHOOK_REFUSED = "Notification refusée : signature invalide."
WEBHOOK_QUEUED = "queued"


class WebhookError(ApplicationError):
    default_code = "webhook_invalid"
    messages = {
        "webhook_invalid": MSG_WEBHOOK_INVALID,
        "webhook_signature_invalid": MSG_WEBHOOK_REFUSED,
    }
    # A notification PayPal did not sign is refused like any unauthenticated call (403).
    statuses = {"webhook_signature_invalid": FORBIDDEN}


class WebhookOutput(serializers.Serializer):
    result = choice([WEBHOOK_QUEUED], message="")


class WebhookApi(APIView):
    """PayPal's notifications, verified with PayPal, then acknowledged at once (202) and applied by a worker, once per
    event id (docs/decisions.md 41). The check stays in the request so that nobody but PayPal can fill the queue; what
    an event then does (a capture, a fulfilment, a receipt) never holds PayPal's delivery.

    The body is PayPal's event as it sent it (the signature covers it byte for byte): a JSON object, read here
    rather than by a serializer."""

    authentication_classes = []  # PayPal sends no session; no CSRF either: the signature check stands instead
    permission_classes = []
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={
            202: WebhookOutput,
            400: OpenApiResponse(ErrorOutput, description="Le corps n'est pas un objet JSON."),
            403: OpenApiResponse(ErrorOutput, description="La signature de PayPal manque ou est invalide."),
        },
    )
    def post(self, request):
        try:
            event = json.loads(request.body or b"{}")
        except ValueError:
            event = None
        if not isinstance(event, dict):
            raise WebhookError.of("webhook_invalid")
        if not get_provider().verify_webhook(headers=request.headers, event=event):
            raise WebhookError.of("webhook_signature_invalid")
        # A queue that cannot take it: the event is applied here, after the commit (studio.queue's one policy).
        enqueue_after_commit(paypal_webhook_process, event=event)
        return Response(WebhookOutput({"result": WEBHOOK_QUEUED}).data, status=status.HTTP_202_ACCEPTED)
