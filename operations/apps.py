from django.apps import AppConfig


class OperationsConfig(AppConfig):
    name = "operations"
    verbose_name = "Exploitation"

    def ready(self):
        from . import reporting

        reporting.sentry_setup()
