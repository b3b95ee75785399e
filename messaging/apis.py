"""Contact-message and room-rental APIs (SPEC.md 7, DECISIONS.md 17, 21). Thin: parse, call a service, shape.

An invalid payload answers 400 with the form's French message (`MSG_CONTACT_FAILED`, `MSG_REPLY_BLANK`,
`MSG_RENTAL_REQUIRED`) and the messages per field; a refused write is a `MessagingError` answered by the shared
exception handler (404 for a message that does not exist): no view catches it.
"""

from django.core.validators import RegexValidator
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.api import CsrfForBrowsers
from studio.pagination import StandardPagination
from studio.permissions import IsOwnerOrStaff, IsStudioStaff, is_studio_staff
from studio.ratelimit import PublicFormThrottle
from studio.schema import ErrorOutput

from . import selectors, services
from .models import ContactMessage, RentalEventType

NO_NUL = RegexValidator(r"^[^\x00]*$", message="Le caractère nul n’est pas autorisé.")


class TextField(serializers.CharField):
    """Text without NUL characters (DRF refuses them; the schema says so); a JSON number or boolean is not text.
    Unless blank is allowed, something other than spaces (they are trimmed)."""

    def __init__(self, **kwargs):
        if not kwargs.get("validators"):  # a field with its own pattern (the phone) states it alone
            blank = kwargs.get("error_messages", {}).get("blank")
            not_blank = RegexValidator(r"^[^\x00]*\S[^\x00]*$", message=blank)
            kwargs["validators"] = [NO_NUL if kwargs.get("allow_blank") else not_blank]
        super().__init__(**kwargs)

    def run_validation(self, data=serializers.empty):
        # The length the schema states is the length sent, before the spaces around are trimmed.
        if isinstance(data, str) and self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length, length=len(data))
        return super().run_validation(data)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class QueryValueMixin:
    """A query parameter given empty (`?page_size=`) is a value to check, not an absent one."""

    def get_value(self, dictionary):
        return dictionary.get(self.field_name, serializers.empty)


class QueryIntegerField(QueryValueMixin, serializers.IntegerField):
    pass


class QueryBooleanField(QueryValueMixin, serializers.BooleanField):
    pass


# Ten digits, with spaces, dots or dashes between them as people type them (the service keeps the digits).
PHONE_PATTERN = RegexValidator(r"^[\s.\-]*(?:[0-9][\s.\-]*){10}$", message=services.MSG_RENTAL_PHONE)

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


class ReplyOutput(serializers.Serializer):
    id = serializers.IntegerField()
    response_text = serializers.CharField()
    timestamp = serializers.DateTimeField()
    author = serializers.CharField(allow_blank=True)
    author_role = serializers.CharField()


class ContactMessageOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    email = serializers.CharField()
    phone = serializers.CharField(allow_blank=True)
    subject = serializers.CharField(allow_blank=True)
    message_text = serializers.CharField()
    followUp = serializers.BooleanField()  # noqa: N815 (SPEC.md's field name)
    user_id = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    last_activity_at = serializers.DateTimeField()
    unread = serializers.BooleanField(help_text="Non lu par celui qui regarde : le studio, ou le membre.")
    responses = ReplyOutput(many=True)


class ContactMessagePageOutput(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = ContactMessageOutput(many=True)


class ContactSentOutput(serializers.Serializer):
    message = serializers.CharField()
    id = serializers.IntegerField()
    user_id = serializers.IntegerField(allow_null=True)


class RepliesOutput(serializers.Serializer):
    updatedResponses = ReplyOutput(many=True)  # noqa: N815 (SPEC.md's field name)


class UnreadCountOutput(serializers.Serializer):
    count = serializers.IntegerField()
    staff_count = serializers.IntegerField(required=False, help_text="Pour le studio seulement.")


class RentalRequestOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    email = serializers.CharField()
    phone = serializers.CharField()
    eventType = serializers.CharField()  # noqa: N815 (SPEC.md's field name)
    date = serializers.DateField()
    time = serializers.CharField(help_text="HH:MM")
    message = serializers.CharField(allow_blank=True)
    user_id = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


class RentalRequestPageOutput(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = RentalRequestOutput(many=True)


# --- Input ------------------------------------------------------------------------------------------------


class ContactMessageInput(serializers.Serializer):
    name = TextField(max_length=150)
    email = serializers.EmailField(max_length=254)
    phone = TextField(max_length=30, required=False, allow_blank=True, default="")
    subject = TextField(max_length=200, required=False, allow_blank=True, default="")
    message = TextField(max_length=services.MAX_MESSAGE_LENGTH)
    followUp = serializers.BooleanField(required=False, default=False)  # noqa: N815 (SPEC.md's field name)
    # user_id is accepted for SPEC.md 7's payload but never trusted: the session says who writes.
    user_id = serializers.IntegerField(required=False, allow_null=True)


class ReplyInput(serializers.Serializer):
    response_text = TextField(
        max_length=services.MAX_MESSAGE_LENGTH,
        error_messages={key: services.MSG_REPLY_BLANK for key in ("required", "blank", "null")},
    )


RENTAL_REQUIRED = {key: services.MSG_RENTAL_REQUIRED for key in ("required", "blank", "null")}


class RentalRequestInput(serializers.Serializer):
    name = TextField(max_length=150, error_messages=RENTAL_REQUIRED)
    email = serializers.EmailField(max_length=254, error_messages=RENTAL_REQUIRED)
    phone = TextField(max_length=20, validators=[PHONE_PATTERN], error_messages=RENTAL_REQUIRED)
    eventType = serializers.ChoiceField(  # noqa: N815 (SPEC.md's field name)
        choices=RentalEventType.choices,
        default=RentalEventType.PRIVATE_EVENT,
        error_messages={"invalid_choice": services.MSG_RENTAL_EVENT_TYPE},
    )
    date = serializers.DateField(help_text="Aujourd'hui ou plus tard.", error_messages=RENTAL_REQUIRED)
    time = serializers.TimeField(error_messages=RENTAL_REQUIRED)
    message = TextField(required=False, allow_blank=True, default="")


class StaffListQuery(serializers.Serializer):
    page = QueryIntegerField(min_value=1, required=False)
    page_size = QueryIntegerField(min_value=1, max_value=StandardPagination.max_page_size, required=False)
    ordering = TextField(required=False, allow_blank=True, help_text="Clé de tri, `-clé` pour l'inverse.")


class ContactMessageListQuery(StaffListQuery):
    unread = QueryBooleanField(required=False, default=False, help_text="Seulement les messages non lus.")


def _query(serializer_class, request) -> dict:
    query = serializer_class(data=request.query_params)
    query.is_valid(raise_exception=True)
    return query.validated_data


def _valid(serializer, *, message: str, code: str) -> dict:
    """The validated payload, or a 400 with the form's French message and the messages per field."""
    if not serializer.is_valid():
        raise services.MessagingError(message, code=code, extra={"errors": serializer.errors})
    return serializer.validated_data


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


PAGE_NOT_FOUND = {404: OpenApiResponse(ErrorOutput, description="Page au-delà de la dernière.")}


# --- Views ------------------------------------------------------------------------------------------------


class ContactMessageListCreateApi(APIView):
    """POST: anyone writes to the studio (rate-limited per client address, DECISIONS.md 31). GET: staff list,
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
        return Response(ContactMessagePageOutput(page.data).data)

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


class RentalRequestListCreateApi(APIView):
    """POST: anyone asks for the room (rate-limited per client address, DECISIONS.md 31). GET: staff list for
    the dashboard, paginated, `?ordering=`."""

    throttle_classes = [PublicFormThrottle]
    rate_limit_form = "rental"

    def get_permissions(self):
        return [AllowAny(), CsrfForBrowsers()] if self.request.method == "POST" else [IsStudioStaff()]

    @extend_schema(
        operation_id="rental_requests_list",
        parameters=[StaffListQuery],
        responses={200: RentalRequestPageOutput, **PAGE_NOT_FOUND},
    )
    def get(self, request):
        query = _query(StaffListQuery, request)
        queryset = selectors.rental_requests_for_staff(ordering=query.get("ordering"))
        page = _paginated(request, self, queryset, rental_data)
        return Response(RentalRequestPageOutput(page.data).data)

    @extend_schema(request=RentalRequestInput, responses={201: RentalRequestOutput})
    def post(self, request):
        payload = RentalRequestInput(data=request.data)
        payload.is_valid(raise_exception=True)  # the first message answers: MSG_RENTAL_REQUIRED, MSG_RENTAL_PHONE...
        data = payload.validated_data
        rental = services.room_rental_request_create(
            name=data["name"],
            email=data["email"],
            phone=data["phone"],
            event_type=data["eventType"],
            date=data["date"],
            time=data["time"],
            message=data["message"],
            user=request.user,
        )
        return Response(RentalRequestOutput(rental_data(rental)).data, status=status.HTTP_201_CREATED)
