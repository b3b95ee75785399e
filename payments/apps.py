from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    name = "payments"
    verbose_name = "Paiements"

    def ready(self):
        from . import receivers  # noqa: F401 - connects the receipt's delivery to the order
