from django.urls import path

from . import views
from .apis import rental_requests as rental_apis
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
    path("room-rental", views.room_rental_page, name="room-rental"),
    path("rental-form", views.rental_form_page, name="rental-form"),
    path("confirmation", views.confirmation_page, name="confirmation"),
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
    path("rental-requests", rental_apis.RentalRequestsApi.as_view(), name="api-rental-requests"),
    path("rental-requests/mine", rental_apis.MyRentalRequestsApi.as_view(), name="api-rental-requests-mine"),
    path("rental-requests/<int:rental_id>", rental_apis.RentalRequestDetailApi.as_view(), name="api-rental-request"),
    path(
        "rental-requests/<int:rental_id>/quote", rental_apis.RentalQuoteApi.as_view(), name="api-rental-request-quote"
    ),
    path(
        "rental-requests/<int:rental_id>/confirm",
        rental_apis.RentalConfirmApi.as_view(),
        name="api-rental-request-confirm",
    ),
    path(
        "rental-requests/<int:rental_id>/refuse",
        rental_apis.RentalRefuseApi.as_view(),
        name="api-rental-request-refuse",
    ),
    path(
        "rental-requests/<int:rental_id>/cancel",
        rental_apis.RentalCancelApi.as_view(),
        name="api-rental-request-cancel",
    ),
]
