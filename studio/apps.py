from django.apps import AppConfig


class StudioConfig(AppConfig):
    """The shared core. It imports no app: apps register with it (studio.cache.register_public_models) and learn of
    its events through its signals (studio/signals.py)."""

    name = "studio"
    verbose_name = "Studio"

    def ready(self):
        from django.conf import settings
        from django.core.signals import request_started
        from django.db.models.signals import post_delete, post_save

        from . import pdf  # noqa: F401 - registers the system check of the PDF fonts
        from .auth_cache import bump_saved_user, forget_read_ahead
        from .fields import count_length_as_sent

        count_length_as_sent()

        # A user saved or deleted: the cached row and the member's cached values are rebuilt.
        post_save.connect(bump_saved_user, sender=settings.AUTH_USER_MODEL, dispatch_uid="member-cache-save")
        post_delete.connect(bump_saved_user, sender=settings.AUTH_USER_MODEL, dispatch_uid="member-cache-delete")
        request_started.connect(forget_read_ahead, dispatch_uid="member-cache-read-ahead")
