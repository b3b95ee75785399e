from django.apps import AppConfig


class StudioConfig(AppConfig):
    """The shared core. It imports no app: apps register with it (studio.cache.register_public_models) and learn of
    its events through its signals (studio/signals.py)."""

    name = "studio"
    verbose_name = "Studio"

    def ready(self):
        from . import pdf  # noqa: F401 - registers the system check of the PDF fonts
        from .fields import count_length_as_sent

        count_length_as_sent()
