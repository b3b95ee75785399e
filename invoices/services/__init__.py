"""Issuing invoices and credit notes (docs/decisions.md 40) (their PDF: invoices/documents.py), erasing a deleted
member's identity from them (docs/decisions.md 34).

Called by the receivers of payments' signals, inside the payment's own transaction and under its row lock (the
PaymentOrder, or the SubscriptionCharge): lock order PaymentOrder → CourseSession → Pass → Reservation (payments and
bookings) → Invoice → InvoiceCounter, the counter always last and held only until that transaction commits.

The package's modules: invoicing.py issues invoices, credit_notes.py credit notes, both through common.py (numbers,
the fields every document copies); missing.py keeps issuing out of a payment's way and completes the books later;
erasure.py erases a deleted member's identity. Its public names are all importable from `invoices.services`.
"""

from .credit_notes import credit_note_issue_for_charge, credit_note_issue_for_order
from .erasure import ERASED_CUSTOMER, invoices_erase_customer
from .invoicing import (
    DEMONSTRATION,
    PAID_THEN_CLOSED,
    PAYMENT_METHODS,
    invoice_issue_for_charge,
    invoice_issue_for_order,
)
from .missing import invoices_issue_missing, issue_safely

__all__ = [
    "DEMONSTRATION",
    "ERASED_CUSTOMER",
    "PAID_THEN_CLOSED",
    "PAYMENT_METHODS",
    "credit_note_issue_for_charge",
    "credit_note_issue_for_order",
    "invoice_issue_for_charge",
    "invoice_issue_for_order",
    "invoices_erase_customer",
    "invoices_issue_missing",
    "issue_safely",
]
