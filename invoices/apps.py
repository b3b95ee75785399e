from django.apps import AppConfig


class InvoicesConfig(AppConfig):
    """Invoices and credit notes of completed payments (docs/decisions.md 40). Above payments: it hears of
    payments through `payments.signals` and gives the receipts their PDF through `studio.registry`."""

    name = "invoices"
    verbose_name = "Factures"

    def ready(self):
        from studio.registry import provide

        from . import receivers  # noqa: F401 - payments' signals issue invoices and credit notes
        from .services import charge_receipt_attachments, order_receipt_attachments

        provide("payment_receipt_attachments", lambda: order_receipt_attachments)
        provide("subscription_charge_receipt_attachments", lambda: charge_receipt_attachments)
