"""POST /api/contact-messages/mine: a member starts a conversation with the studio from /user/messages
with {subject, message}; answers the conversation as the member reads it. Missing text: a French 400."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.api import CsrfForBrowsers
from studio.ratelimit import PublicFormThrottle
from studio.schema import ErrorOutput

from .. import conversations, services
from .serializers import ContactMessageOutput, TextField, message_data


def _required(message: str) -> dict:
    return dict.fromkeys(("required", "blank", "null", "invalid"), message)


class ConversationInput(serializers.Serializer):
    subject = TextField(
        max_length=conversations.MAX_SUBJECT_LENGTH,
        error_messages=_required(conversations.MSG_CONVERSATION_SUBJECT_REQUIRED),
    )
    message = TextField(
        max_length=services.MAX_MESSAGE_LENGTH,
        error_messages=_required(conversations.MSG_CONVERSATION_TEXT_REQUIRED),
    )


class ConversationStartedOutput(ContactMessageOutput):
    notice = serializers.CharField(help_text="La confirmation affichée au membre.")


class ConversationStartApi(APIView):
    permission_classes = [IsAuthenticated, CsrfForBrowsers]
    throttle_classes = [PublicFormThrottle]
    rate_limit_form = "contact"

    @extend_schema(
        operation_id="contact_messages_mine_create",
        request=ConversationInput,
        responses={
            201: ConversationStartedOutput,
            400: OpenApiResponse(ErrorOutput, description="Sujet ou message manquant."),
        },
    )
    def post(self, request):
        data = ConversationInput(data=request.data)
        data.is_valid(raise_exception=True)
        message = conversations.conversation_start(
            member=request.user, subject=data.validated_data["subject"], text=data.validated_data["message"]
        )
        message = services.contact_message_get_or_404(message_id=message.pk)
        body = {**message_data(message, viewer=request.user), "notice": conversations.MSG_CONVERSATION_STARTED}
        return Response(ConversationStartedOutput(body).data, status=status.HTTP_201_CREATED)
