"""Settle now the simulator's SEPA debits in flight, whatever their age (a demonstration, a test), instead of waiting
SIMULATOR_SEPA_SETTLE_DAYS for the hourly job."""

from django.core.management.base import BaseCommand

from ...subscriptions.services.debits import simulated_debits_settle


class Command(BaseCommand):
    help = "Règle tout de suite les prélèvements SEPA simulés en cours (payés, ou rejetés pour l'IBAN de test refusé)."

    def handle(self, *args, **options):
        outcome = simulated_debits_settle(delay_days=0)
        self.stdout.write(f"Prélèvements payés : {outcome['paid']}, rejetés : {outcome['returned']}.")
