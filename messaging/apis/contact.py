"""Contact messages (docs/decisions.md 21): anyone writes to the studio, the member and staff read and
reply, staff list and delete."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.api import CsrfForBrowsers
from studio.permissions import IsOwnerOrStaff, IsStudioStaff, is_studio_staff
from studio.ratelimit import PublicFormThrottle

from .. import selectors, services
from .common import PAGE_NOT_FOUND, IsUrlUserOrStaff, _paginated, _query, _valid
from .serializers import (
    ContactMessageInput,
    ContactMessageListQuery,
    ContactMessageOutput,
    ContactMessagePageOutput,
    ContactSentOutput,
    RepliesOutput,
    ReplyInput,
    UnreadCountOutput,
    message_data,
    reply_data,
)


class ContactMessageListCreateApi(APIView):
    """POST: anyone writes to the studio (rate-limited per client address, docs/decisions.md 31). GET: staff list,
    paginated, `?ordering=` and `?unread=1`."""

    throttle_classes = [PublicFormThrottle]
    rate_limit_form = "contact"

    def get_permissions(self):
        return [AllowAny(), CsrfForBrowsers()] if self.request.method == "POST" else [IsStudioStaff()]

    @extend_schema(
        operation_id="contact_messages_list",
        parameters=[ContactMessageListQuery],
        responses={200: ContactMessagePageOutput, **PAGE_NOT_FOUND},
    )
    def get(self, request):
        query = _query(ContactMessageListQuery, request)
        queryset = selectors.contact_messages_for_staff(ordering=query.get("ordering"), unread_only=query["unread"])
        page = _paginated(request, self, queryset, lambda m: message_data(m, viewer=request.user))
        return Response(ContactMessagePageOutput(page).data)

    @extend_schema(request=ContactMessageInput, responses={201: ContactSentOutput})
    def post(self, request):
        data = _valid(
            ContactMessageInput(data=request.data), message=services.MSG_CONTACT_FAILED, code="contact_invalid"
        )
        message = services.contact_message_create(
            name=data["name"],
            email=data["email"],
            phone=data["phone"],
            subject=data["subject"],
            text=data["message"],
            follow_up=data["followUp"],
            user=request.user,
        )
        body = {"message": services.MSG_CONTACT_SENT, "id": message.pk, "user_id": message.user_id}
        return Response(ContactSentOutput(body).data, status=status.HTTP_201_CREATED)


class ContactMessagesOfUserApi(APIView):
    permission_classes = [IsUrlUserOrStaff]

    @extend_schema(operation_id="contact_messages_of_user", responses=ContactMessageOutput(many=True))
    def get(self, request, user_id: int):
        messages = selectors.contact_messages_of_user(user_id=user_id)
        return Response(ContactMessageOutput([message_data(m, viewer=request.user) for m in messages], many=True).data)


class ContactMessageDetailApi(APIView):
    """GET: the owner or staff, and opening it marks it read for them. DELETE: staff."""

    owner_field = "user"

    def get_permissions(self):
        return [IsStudioStaff()] if self.request.method == "DELETE" else [IsOwnerOrStaff()]

    @extend_schema(operation_id="contact_messages_retrieve", responses=ContactMessageOutput)
    def get(self, request, message_id: int):
        message = services.contact_message_get_or_404(message_id=message_id)
        self.check_object_permissions(request, message)
        services.contact_message_mark_read(message=message, reader=request.user)
        return Response(ContactMessageOutput(message_data(message, viewer=request.user)).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, message_id: int):
        services.contact_message_delete(message_id=message_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ContactMessageReplyApi(APIView):
    """PUT {response_text}: the owner or staff append a reply; 201 with every reply as `updatedResponses`."""

    permission_classes = [IsOwnerOrStaff]
    owner_field = "user"

    @extend_schema(request=ReplyInput, responses={201: RepliesOutput})
    def put(self, request, message_id: int):
        target = services.contact_message_get_or_404(message_id=message_id)
        self.check_object_permissions(request, target)
        data = _valid(ReplyInput(data=request.data), message=services.MSG_REPLY_BLANK, code="reply_blank")
        services.contact_reply_add(message_id=message_id, author=request.user, text=data["response_text"])
        message = services.contact_message_get_or_404(message_id=message_id)
        body = {"updatedResponses": [reply_data(reply) for reply in message.replies.all()]}
        return Response(RepliesOutput(body).data, status=status.HTTP_201_CREATED)


class UnreadCountApi(APIView):
    """For the account menu and the dashboard's sidebar: `count` is the viewer's own, `staff_count` for staff."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="contact_messages_unread_count", responses=UnreadCountOutput)
    def get(self, request):
        body = {"count": selectors.unread_count_for_member(user=request.user)}
        if is_studio_staff(request.user):
            body["staff_count"] = selectors.unread_count_for_staff()
        return Response(UnreadCountOutput(body).data)
