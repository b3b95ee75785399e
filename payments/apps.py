from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    name = "payments"
    verbose_name = "Paiements"

    def ready(self):
        from . import receivers  # noqa: F401 - connects the receipt's delivery to the order
        from .staff_cache import register_receivers
        from .subscriptions import tasks  # noqa: F401 - the daily charge of subscriptions

        register_receivers()  # the staff's cached figures and subscriptions list follow every change they read
