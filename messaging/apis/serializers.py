"""What the messaging APIs accept and answer: typed inputs whose schema states what the server checks,
and the answers' shapes."""

from django.utils import timezone
from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers

from media_library.fields import NO_NUL, blank_is_text, not_blank
from studio.fields import StrictBooleanField
from studio.pagination import StandardPagination
from studio.permissions import is_studio_staff

from .. import services
from ..models import ContactMessage


class TextField(serializers.CharField):
    """Text without NUL characters (DRF refuses them; the schema says so); a JSON number or boolean is not text.
    Unless blank is allowed, something other than spaces (they are trimmed)."""

    def __init__(self, **kwargs):
        if not kwargs.get("validators"):  # a field with its own pattern (the phone) states it alone
            blank = kwargs.get("error_messages", {}).get("blank")
            kwargs["validators"] = [NO_NUL if kwargs.get("allow_blank") else not_blank(blank)]
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
    followUp = serializers.BooleanField()  # noqa: N815 (the field name clients read)
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
    updatedResponses = ReplyOutput(many=True)  # noqa: N815 (the field name clients read)


class UnreadCountOutput(serializers.Serializer):
    count = serializers.IntegerField()
    staff_count = serializers.IntegerField(required=False, help_text="Pour le studio seulement.")


# --- Input ------------------------------------------------------------------------------------------------


class ContactMessageInput(serializers.Serializer):
    name = TextField(max_length=150)
    email = serializers.EmailField(max_length=254)
    phone = TextField(max_length=30, required=False, allow_blank=True, default="")
    subject = TextField(max_length=200, required=False, allow_blank=True, default="")
    message = TextField(max_length=services.MAX_MESSAGE_LENGTH)
    followUp = StrictBooleanField(required=False, default=False)  # noqa: N815 (the field name clients send)
    # user_id is accepted, as the contact form sends it, but never trusted: the session says who writes.
    user_id = serializers.IntegerField(required=False, allow_null=True)


class ReplyInput(serializers.Serializer):
    response_text = TextField(
        max_length=services.MAX_MESSAGE_LENGTH,
        error_messages={key: services.MSG_REPLY_BLANK for key in ("required", "blank", "null")},
    )


class StaffListQuery(serializers.Serializer):
    page = QueryIntegerField(min_value=1, required=False)
    page_size = QueryIntegerField(min_value=1, max_value=StandardPagination.max_page_size, required=False)
    ordering = TextField(required=False, allow_blank=True, help_text="Clé de tri, `-clé` pour l'inverse.")


class ContactMessageListQuery(StaffListQuery):
    unread = QueryBooleanField(required=False, default=False, help_text="Seulement les messages non lus.")


class BlankIsTextSchema(OpenApiSerializerExtension):
    """A text that may be blank is the empty text or one matching its pattern (`blank_is_text`): `?ordering=` and
    an empty subject are accepted, as the server does."""

    target_class = ContactMessageInput

    def map_serializer(self, auto_schema, direction):
        return blank_is_text(super().map_serializer(auto_schema, direction))


class StaffListQuerySchema(BlankIsTextSchema):
    target_class = StaffListQuery


class ContactMessageListQuerySchema(BlankIsTextSchema):
    target_class = ContactMessageListQuery
