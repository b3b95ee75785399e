"""`manage.py invoices_issue_missing`: invoice the completed payments that have no invoice yet (payments older than
invoicing after a deployment, demo data) and credit the refunded ones; what the periodic job does, at once."""

from django.core.management.base import BaseCommand

from invoices.services import invoices_issue_missing


class Command(BaseCommand):
    help = "Émet les factures et avoirs manquants (paiements antérieurs à la facturation, données de démonstration)."

    def handle(self, *args, **options):
        done = invoices_issue_missing()
        self.stdout.write(f"Factures émises : {done['invoices']} · avoirs émis : {done['credit_notes']}")
