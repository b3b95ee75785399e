from django.urls import path

from . import views

urlpatterns = [
    path("contact", views.contact_page, name="contact"),
    path("room-rental", views.room_rental_page, name="room-rental"),
    path("rental-form", views.rental_form_page, name="rental-form"),
    path("confirmation", views.confirmation_page, name="confirmation"),
    path("user/messages", views.user_messages_page, name="user-messages"),
    path("user/messages/<int:message_id>", views.user_messages_page, name="user-message"),
    path("messages/<int:message_id>", views.staff_message_page, name="staff-message"),
]

api_urlpatterns = []
