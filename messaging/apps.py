from django.apps import AppConfig


class MessagingConfig(AppConfig):
    name = "messaging"
    verbose_name = "Messagerie"

    def ready(self):
        from django.db.models.signals import post_delete, post_save

        from .models import ContactMessage
        from .receivers import contact_message_changed

        # The account menu's cached unread counts (issue 18).
        post_save.connect(contact_message_changed, sender=ContactMessage, dispatch_uid="messaging-unread-save")
        post_delete.connect(contact_message_changed, sender=ContactMessage, dispatch_uid="messaging-unread-delete")
