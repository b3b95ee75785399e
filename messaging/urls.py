from django.urls import path

from . import apis, views

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
    path("contact-messages", apis.ContactMessageListCreateApi.as_view(), name="api-contact-messages"),
    path("contact-messages/unread-count", apis.UnreadCountApi.as_view(), name="api-contact-messages-unread"),
    path(
        "contact-messages/user/<int:user_id>",
        apis.ContactMessagesOfUserApi.as_view(),
        name="api-contact-messages-of-user",
    ),
    path("contact-messages/<int:message_id>", apis.ContactMessageDetailApi.as_view(), name="api-contact-message"),
    path(
        "contact-messages/<int:message_id>/response",
        apis.ContactMessageReplyApi.as_view(),
        name="api-contact-message-reply",
    ),
    path("rental-requests", apis.RentalRequestListCreateApi.as_view(), name="api-rental-requests"),
]
