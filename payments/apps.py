from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    name = "payments"
    verbose_name = "Paiements"

    def ready(self):
        from studio.registry import provide

        from . import receivers  # noqa: F401 - connects the receipt's delivery to the order
        from .selectors import payment_client_config
        from .staff_cache import register_receivers
        from .subscriptions import tasks  # noqa: F401 - the daily charge of subscriptions

        register_receivers()  # the staff's cached figures and subscriptions list follow every change they read

        provide("payment_client_config", payment_client_config)  # the calendar's payment widget (bookings/views.py)
