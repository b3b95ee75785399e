"""Contact-message and room-rental APIs (SPEC.md 7, DECISIONS.md 17, 21). Thin: parse, call a service, shape."""

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.api import CsrfForBrowsers, error_response
from studio.pagination import StandardPagination
from studio.permissions import IsOwnerOrStaff, IsStudioStaff, is_studio_staff
from studio.ratelimit import PublicFormThrottle

from . import selectors, services
from .models import ContactMessage, RentalEventType

# --- Output shapes ----------------------------------------------------------------------------------------


def reply_data(reply) -> dict:
    return {
        "id": reply.pk,
        "response_text": reply.text,
        "timestamp": timezone.localtime(reply.created_at).isoformat(),
        "author": reply.author_label,
        "author_role": reply.author_role,
    }


def message_data(message: ContactMessage, *, viewer) -> dict:
    staff_view = is_studio_staff(viewer)
    return {
        "id": message.pk,
        "name": message.name,
        "email": message.email,
        "phone": message.phone,
        "subject": message.subject,
        "message_text": message.text,
        "followUp": message.follow_up,
        "user_id": message.user_id,
        "created_at": timezone.localtime(message.created_at).isoformat(),
        "last_activity_at": timezone.localtime(message.last_activity_at).isoformat(),
        "unread": message.staff_unread if staff_view else message.member_unread,
        "responses": [reply_data(reply) for reply in message.replies.all()],
    }


def rental_data(rental) -> dict:
    return {
        "id": rental.pk,
        "name": rental.name,
        "email": rental.email,
        "phone": rental.phone,
        "eventType": rental.event_type,
        "date": rental.date.isoformat(),
        "time": rental.time.strftime("%H:%M"),
        "message": rental.message,
        "user_id": rental.user_id,
        "created_at": timezone.localtime(rental.created_at).isoformat(),
    }


# --- Input ------------------------------------------------------------------------------------------------


class ContactMessageInput(serializers.Serializer):
    name = serializers.CharField(max_length=150)
    email = serializers.EmailField(max_length=254)
    phone = serializers.CharField(max_length=30, required=False, allow_blank=True, default="")
    subject = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    message = serializers.CharField(max_length=services.MAX_MESSAGE_LENGTH)
    followUp = serializers.BooleanField(required=False, default=False)
    # user_id is accepted for SPEC.md 7's payload but never trusted: the session says who writes.
    user_id = serializers.IntegerField(required=False, allow_null=True)


class ReplyInput(serializers.Serializer):
    response_text = serializers.CharField(allow_blank=True, max_length=services.MAX_MESSAGE_LENGTH)


class RentalRequestInput(serializers.Serializer):
    name = serializers.CharField(max_length=150)
    email = serializers.EmailField(max_length=254)
    phone = serializers.CharField(max_length=20)
    eventType = serializers.ChoiceField(choices=RentalEventType.choices, default=RentalEventType.PRIVATE_EVENT)
    date = serializers.DateField()
    time = serializers.TimeField()
    message = serializers.CharField(required=False, allow_blank=True, default="")


# --- Permissions ------------------------------------------------------------------------------------------


class IsUrlUserOrStaff(BasePermission):
    """`/user/<userId>` lists: the member themself, or staff."""

    message = "Vous n'avez pas accès à ces messages."

    def has_permission(self, request, view):
        user = request.user
        if not (user and user.is_authenticated):
            return False
        return is_studio_staff(user) or view.kwargs.get("user_id") == user.pk


def _paginated(request, view, queryset, shape):
    paginator = StandardPagination()
    page = paginator.paginate_queryset(queryset, request, view=view)
    return paginator.get_paginated_response([shape(item) for item in page])


# --- Views ------------------------------------------------------------------------------------------------


class ContactMessageListCreateApi(APIView):
    """POST: anyone writes to the studio (rate-limited per client address, DECISIONS.md 31). GET: staff list,
    paginated, `?ordering=` and `?unread=1`."""

    throttle_classes = [PublicFormThrottle]
    rate_limit_form = "contact"

    def get_permissions(self):
        return [AllowAny(), CsrfForBrowsers()] if self.request.method == "POST" else [IsStudioStaff()]

    @extend_schema(operation_id="contact_messages_list", responses=OpenApiTypes.OBJECT)
    def get(self, request):
        queryset = selectors.contact_messages_for_staff(
            ordering=request.query_params.get("ordering"),
            unread_only=request.query_params.get("unread") in ("1", "true"),
        )
        return _paginated(request, self, queryset, lambda m: message_data(m, viewer=request.user))

    @extend_schema(request=ContactMessageInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        data = ContactMessageInput(data=request.data)
        if not data.is_valid():
            return error_response(services.MSG_CONTACT_FAILED, errors=data.errors)
        try:
            message = services.contact_message_create(
                name=data.validated_data["name"],
                email=data.validated_data["email"],
                phone=data.validated_data["phone"],
                subject=data.validated_data["subject"],
                text=data.validated_data["message"],
                follow_up=data.validated_data["followUp"],
                user=request.user,
            )
        except services.MessagingError as exc:
            return error_response(services.MSG_CONTACT_FAILED, errors={"message": [exc.message]})
        return Response(
            {"message": services.MSG_CONTACT_SENT, "id": message.pk, "user_id": message.user_id},
            status=status.HTTP_201_CREATED,
        )


class ContactMessagesOfUserApi(APIView):
    permission_classes = [IsUrlUserOrStaff]

    @extend_schema(operation_id="contact_messages_of_user", responses=OpenApiTypes.OBJECT)
    def get(self, request, user_id: int):
        messages = selectors.contact_messages_of_user(user_id=user_id)
        return Response([message_data(m, viewer=request.user) for m in messages])


class ContactMessageDetailApi(APIView):
    """GET: the owner or staff, and opening it marks it read for them. DELETE: staff."""

    owner_field = "user"

    def get_permissions(self):
        return [IsStudioStaff()] if self.request.method == "DELETE" else [IsOwnerOrStaff()]

    @extend_schema(operation_id="contact_messages_retrieve", responses=OpenApiTypes.OBJECT)
    def get(self, request, message_id: int):
        message = selectors.contact_message_get(message_id=message_id)
        if message is None:
            raise NotFound
        self.check_object_permissions(request, message)
        services.contact_message_mark_read(message=message, reader=request.user)
        return Response(message_data(message, viewer=request.user))

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, message_id: int):
        try:
            services.contact_message_delete(message_id=message_id)
        except ContactMessage.DoesNotExist:
            raise NotFound from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class ContactMessageReplyApi(APIView):
    """PUT {response_text}: the owner or staff append a reply; 201 with every reply as `updatedResponses`."""

    permission_classes = [IsOwnerOrStaff]
    owner_field = "user"

    @extend_schema(request=ReplyInput, responses={201: OpenApiTypes.OBJECT})
    def put(self, request, message_id: int):
        target = ContactMessage.objects.filter(pk=message_id).only("id", "user_id").first()
        if target is None:
            raise NotFound
        self.check_object_permissions(request, target)
        data = ReplyInput(data=request.data)
        if not data.is_valid():
            return error_response(services.MSG_REPLY_BLANK, errors=data.errors)
        try:
            services.contact_reply_add(
                message_id=message_id, author=request.user, text=data.validated_data["response_text"]
            )
        except services.MessagingError as exc:
            return error_response(exc.message, errors={"response_text": [exc.message]})
        except ContactMessage.DoesNotExist:
            raise NotFound from None
        message = selectors.contact_message_get(message_id=message_id)
        return Response(
            {"updatedResponses": [reply_data(reply) for reply in message.replies.all()]},
            status=status.HTTP_201_CREATED,
        )


class UnreadCountApi(APIView):
    """For the account menu and the dashboard's sidebar: `count` is the viewer's own, `staff_count` for staff."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="contact_messages_unread_count", responses=OpenApiTypes.OBJECT)
    def get(self, request):
        body = {"count": selectors.unread_count_for_member(user=request.user)}
        if is_studio_staff(request.user):
            body["staff_count"] = selectors.unread_count_for_staff()
        return Response(body)


class RentalRequestListCreateApi(APIView):
    """POST: anyone asks for the room (rate-limited per client address, DECISIONS.md 31). GET: staff list for
    the dashboard, paginated, `?ordering=`."""

    throttle_classes = [PublicFormThrottle]
    rate_limit_form = "rental"

    def get_permissions(self):
        return [AllowAny(), CsrfForBrowsers()] if self.request.method == "POST" else [IsStudioStaff()]

    @extend_schema(operation_id="rental_requests_list", responses=OpenApiTypes.OBJECT)
    def get(self, request):
        queryset = selectors.rental_requests_for_staff(ordering=request.query_params.get("ordering"))
        return _paginated(request, self, queryset, rental_data)

    @extend_schema(request=RentalRequestInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        data = RentalRequestInput(data=request.data)
        if not data.is_valid():
            return error_response(services.MSG_RENTAL_REQUIRED, errors=data.errors)
        try:
            rental = services.room_rental_request_create(
                name=data.validated_data["name"],
                email=data.validated_data["email"],
                phone=data.validated_data["phone"],
                event_type=data.validated_data["eventType"],
                date=data.validated_data["date"],
                time=data.validated_data["time"],
                message=data.validated_data["message"],
                user=request.user,
            )
        except services.MessagingError as exc:
            return error_response(exc.message, errors={exc.field or "non_field_errors": [exc.message]})
        return Response(rental_data(rental), status=status.HTTP_201_CREATED)
