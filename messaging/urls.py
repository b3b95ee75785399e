from django.urls import path

from . import views
from .apis.contact import (
    ContactMessageDetailApi,
    ContactMessageListCreateApi,
    ContactMessageReplyApi,
    ContactMessagesOfUserApi,
    UnreadCountApi,
)
from .apis.conversations import ConversationStartApi

urlpatterns = [
    path("contact", views.contact_page, name="contact"),
    path("user/messages", views.user_messages_page, name="user-messages"),
    path("user/messages/<int:message_id>", views.user_messages_page, name="user-message"),
    path("messages/<int:message_id>", views.staff_message_page, name="staff-message"),
]

api_urlpatterns = [
    path("contact-messages", ContactMessageListCreateApi.as_view(), name="api-contact-messages"),
    path("contact-messages/unread-count", UnreadCountApi.as_view(), name="api-contact-messages-unread"),
    path("contact-messages/mine", ConversationStartApi.as_view(), name="api-contact-messages-mine"),
    path(
        "contact-messages/user/<int:user_id>",
        ContactMessagesOfUserApi.as_view(),
        name="api-contact-messages-of-user",
    ),
    path("contact-messages/<int:message_id>", ContactMessageDetailApi.as_view(), name="api-contact-message"),
    path(
        "contact-messages/<int:message_id>/response",
        ContactMessageReplyApi.as_view(),
        name="api-contact-message-reply",
    ),
]
