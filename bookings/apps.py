from django.apps import AppConfig


class BookingsConfig(AppConfig):
    name = "bookings"
    verbose_name = "Réservations"

    def ready(self):
        # isort: off
        from . import pass_rules  # noqa: F401 - the PassRule model (a pass's booking rules), in its own module
        from . import receivers  # noqa: F401 - a reservation's change refreshes its session's feeds (bookings/cache.py)

        # isort: on
