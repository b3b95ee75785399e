"""Never in the way of a payment, and nothing missed: a document issued in a savepoint of the payment's transaction,
and the periodic job issuing what a payment should have got and has not."""

import logging

from django.db import transaction
from django.db.models import F, Q

from payments.models import PaymentOrder, PaymentStatus
from payments.subscriptions.models import ChargeStatus, SubscriptionCharge

from ..models import Invoice, InvoiceKind
from .credit_notes import credit_note_issue_for_order
from .invoicing import PAID_THEN_CLOSED, invoice_issue_for_charge, invoice_issue_for_order

logger = logging.getLogger(__name__)


def issue_safely(issue, **kwargs) -> Invoice | None:
    """Issue a document inside the caller's transaction, in a savepoint: if it fails, the payment still commits
    (the savepoint gives the number back) and `invoices_issue_missing` issues it later."""
    try:
        with transaction.atomic():
            return issue(**kwargs)
    except Exception:  # noqa: BLE001 - the payment must stand; the periodic job completes the books
        logger.exception("Could not issue %s(%s) now; the periodic job will", issue.__name__, kwargs)
        return None


def invoices_issue_missing() -> dict:
    """Issue what a payment should have got and has not: invoices of completed orders and paid periods, credit notes
    of invoiced orders refunded or voided (payments older than invoicing, seeded demo data, a failure at the time).
    Each under its payment's row lock, so it races neither a capture nor another run. Idempotent."""
    done = {"invoices": 0, "credit_notes": 0}
    paid = Q(status=PaymentStatus.COMPLETED) | Q(status__in=PAID_THEN_CLOSED, completed_at__isnull=False)
    orders = PaymentOrder.objects.filter(paid, purchased_gift_card__isnull=True).exclude(
        invoices__kind=InvoiceKind.INVOICE
    )
    for order_id in list(orders.order_by("completed_at", "pk").values_list("pk", flat=True)):
        with transaction.atomic():
            PaymentOrder.objects.select_for_update().get(pk=order_id)
            done["invoices"] += invoice_issue_for_order(order_id=order_id) is not None
    # The periods a purchase order paid carry its reference and are invoiced with it (its own invoice).
    charges = (
        SubscriptionCharge.objects.filter(status=ChargeStatus.PAID)
        .exclude(invoices__kind=InvoiceKind.INVOICE)
        .exclude(provider_reference=F("subscription__source_order__capture_id"))
        .exclude(provider_reference=F("subscription__source_order__order_id"))
    )
    for charge_id in list(charges.order_by("paid_at", "pk").values_list("pk", flat=True)):
        with transaction.atomic():
            SubscriptionCharge.objects.select_for_update().get(pk=charge_id)
            done["invoices"] += invoice_issue_for_charge(charge_id=charge_id) is not None
    closed = PaymentOrder.objects.filter(
        status__in=(PaymentStatus.REFUNDED, PaymentStatus.VOIDED),
        invoices__kind=InvoiceKind.INVOICE,
        invoices__credit_note__isnull=True,
    )
    for order_id in list(closed.order_by("pk").values_list("pk", flat=True).distinct()):
        with transaction.atomic():
            order = PaymentOrder.objects.select_for_update().get(pk=order_id)
            done["credit_notes"] += (
                credit_note_issue_for_order(order_id=order_id, reason=order.provider_note or order.message) is not None
            )
    return done
