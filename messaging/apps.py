from django.apps import AppConfig


class MessagingConfig(AppConfig):
    name = "messaging"
    verbose_name = "Messagerie"

    def ready(self):
        from django.db.models.signals import post_delete, post_save

        from studio.auth_cache import read_with_user

        from .models import ContactMessage
        from .receivers import contact_message_changed
        from .selectors import STAFF_UNREAD_OWNER

        # The account menu's count is read in the user row's round trip (a member's own, the studio's inbox).
        read_with_user("unread")
        read_with_user("unread", owner=STAFF_UNREAD_OWNER)

        # The account menu's cached unread counts.
        post_save.connect(contact_message_changed, sender=ContactMessage, dispatch_uid="messaging-unread-save")
        post_delete.connect(contact_message_changed, sender=ContactMessage, dispatch_uid="messaging-unread-delete")
