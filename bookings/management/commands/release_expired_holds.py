from django.core.management.base import BaseCommand

from bookings.services.availability import reservations_release_expired


class Command(BaseCommand):
    help = "Libère les places des réservations non payées dont le délai de 15 minutes est dépassé."

    def handle(self, *args, **options):
        released = reservations_release_expired()
        self.stdout.write(f"{released} réservation(s) expirée(s) libérée(s).")
