from django.apps import AppConfig


class BookingsConfig(AppConfig):
    name = "bookings"
    verbose_name = "Réservations"

    def ready(self):
        from . import receivers  # noqa: F401 - a reservation's change refreshes its session's feeds (bookings/cache.py)
