"""The refusals of invoices, shared by the services and the selectors."""

from studio.errors import NOT_FOUND, ApplicationError

MSG_INVOICE_NOT_FOUND = "Cette facture est introuvable."


class InvoiceError(ApplicationError):
    default_code = "invoice_invalid"
    messages = {"invoice_not_found": MSG_INVOICE_NOT_FOUND}
    statuses = {"invoice_not_found": NOT_FOUND}
