from django.apps import AppConfig


class InvoicesConfig(AppConfig):
    """Invoices and credit notes of completed payments (docs/decisions.md 40). Above payments: it hears of
    payments through `payments.signals` and sends their receipts with the invoice attached (receipts.py)."""

    name = "invoices"
    verbose_name = "Factures"

    def ready(self):
        from . import receivers  # noqa: F401 - payments' signals issue invoices and credit notes
