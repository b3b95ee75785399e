"""Issuing invoices and credit notes (docs/decisions.md 40) (their PDF: documents.py), erasing a deleted member's
identity from them (docs/decisions.md 34).

Called by the receivers of payments' signals, inside the payment's own transaction and under its row lock (the
PaymentOrder, or the SubscriptionCharge): lock order PaymentOrder → CourseSession → Pass → Reservation (payments and
bookings) → Invoice → InvoiceCounter, the counter always last and held only until that transaction commits.
"""

import logging
from decimal import Decimal

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, OuterRef, Q, Subquery
from django.utils import timezone

from bookings.models import Reservation
from payments.choices import PaymentProviderName
from payments.desk_selectors import desk_payment_lines_of
from payments.models import PaymentOrder, PaymentStatus
from payments.subscriptions.models import ChargeStatus, SubscriptionCharge, saved_method_label
from payments.subscriptions.periods import period_due_on, period_ends_on
from studio.queue import enqueue_after_commit

from .customers import company_of_invoice, company_of_member, company_of_order
from .documents import invoice_document_render
from .models import NUMBER_PREFIX, Invoice, InvoiceCounter, InvoiceDocument, InvoiceKind
from .vat import vat_figures, vat_mention, vat_rule_on

logger = logging.getLogger(__name__)

ERASED_CUSTOMER = "Client n° {member_id} (compte supprimé)"
PAYMENT_METHODS = {
    PaymentProviderName.PAYPAL: "carte bancaire ou PayPal",
    PaymentProviderName.STRIPE: "carte bancaire (Stripe)",
    PaymentProviderName.SIMULATOR: "carte bancaire (simulateur de démonstration)",
    PaymentProviderName.MANUAL: "paiement enregistré par le studio",
    PaymentProviderName.DESK: "paiement à l'accueil du studio",
}
DEMONSTRATION = ", simulateur de démonstration"


def _paid_by(provider: str, method_label: str = "") -> str:
    """The invoice's means of payment: the method the money came from when the provider said which ("Apple Pay", a
    card, a SEPA mandate: a debit is not a card payment), else the provider's general words."""
    if not method_label:
        return PAYMENT_METHODS.get(provider, "")
    return method_label + (DEMONSTRATION if provider == PaymentProviderName.SIMULATOR else "")


# --- numbers ----------------------------------------------------------------------------------------------------


def _next_sequence(*, kind: str, year: int) -> int:
    """The next number of a series in a year, under the counter row's lock (held until the caller commits).

    The year's row is created once: a second transaction creating it at the same moment waits on the unique
    constraint for the first, then finds and locks it (get_or_create). Locked, the row gives two payments completing
    together numbers one after the other, and a transaction that rolls back gives its number back with it."""
    counter, _ = InvoiceCounter.objects.select_for_update().get_or_create(kind=kind, year=year)
    InvoiceCounter.objects.filter(pk=counter.pk).update(last_number=F("last_number") + 1)
    return counter.last_number + 1


def _number(kind: str, year: int, sequence: int) -> str:
    return f"{NUMBER_PREFIX[kind]}{year}-{sequence:06d}"


def _seller() -> dict:
    legal = settings.INVOICE_LEGAL
    return {
        "seller_name": legal["legal_name"][:200],
        "seller_address": legal["address"][:300],
        "seller_siret": legal["siret"][:20],
        "seller_vat_number": legal.get("vat_number", "")[:20],
    }


def _customer_address(user) -> str:
    if user is None:
        return ""
    return _address(user.address, user.postal_code, user.city)


def _address(address: str, postal_code: str, city: str) -> str:
    town = f"{postal_code} {city}".strip()
    return ", ".join(part for part in (address, town) if part)[:500]


def _vat(*, issued_at, fields: dict) -> dict:
    """The VAT status, rate, mention and figures a document keeps (docs/decisions.md 54): the studio's on the day it
    is issued, or its invoice's for a credit note (given in `fields`), with the same figures for the same amounts."""
    if "vat_status" in fields:
        status, rate = fields["vat_status"], fields["vat_rate"]
    else:
        rule = vat_rule_on(issued_at)
        status, rate = rule.status, rule.rate
    figures = vat_figures(total=fields["total_amount"], discount=fields.get("discount_amount") or 0, rate=rate)
    return {"vat_status": status, "vat_rate": rate, "seller_vat_note": vat_mention(status)[:200], **figures}


def _create(*, kind: str, issued_at, queue_document: bool = True, **fields) -> Invoice:
    fields.update(_vat(issued_at=issued_at, fields=fields))
    year = timezone.localtime(issued_at).year
    sequence = _next_sequence(kind=kind, year=year)
    invoice = Invoice.objects.create(
        kind=kind, year=year, sequence=sequence, number=_number(kind, year, sequence), issued_at=issued_at, **fields
    )
    if queue_document:
        enqueue_after_commit(invoice_document_render, invoice_id=invoice.pk)  # by a worker, never the request
    return invoice


def _line(title: str, quantity: int, amount: Decimal) -> tuple[str, int, Decimal]:
    quantity = max(int(quantity or 1), 1)
    unit = (Decimal(amount) / quantity).quantize(Decimal("0.01"))
    if unit * quantity != amount:
        return f"{title} × {quantity}", 1, Decimal(amount)
    return title, quantity, unit


# --- issuing ----------------------------------------------------------------------------------------------------


# What an order's invoice copies: the order's own columns, its member's address, its class's start (one query).
_ORDER_INVOICE_FIELDS = (
    "status",
    "title",
    "quantity",
    "amount",
    "currency",
    "first_name",
    "last_name",
    "email",
    "completed_at",
    "provider",
    "payment_method_label",
    "user_id",
    "user__address",
    "user__postal_code",
    "user__city",
    "session_start",
    "purchased_gift_card_id",
    "discount_amount",
    "promo_code__code",
    "gift_card_amount",
    "gift_card__code",
)


def _order_invoice_row(order_id: int) -> dict | None:
    # The class's start through the order's own reservation (a subquery, one index lookup): joined, PostgreSQL merged
    # the order with the reservations' primary-key index, reading it up to a new booking's reservation.
    session_start = Subquery(Reservation.objects.filter(pk=OuterRef("reservation_id")).values("session__start")[:1])
    return (
        PaymentOrder.objects.filter(pk=order_id)
        .order_by()
        .annotate(session_start=session_start)
        .values(*_ORDER_INVOICE_FIELDS)
        .first()
    )


# A payment completed, then refunded or voided, keeps its completion time: it was a sale (its credit note follows).
# A capture refused because the studio had just cancelled the class is one too (payments' capture.py).
PAID_THEN_CLOSED = (PaymentStatus.REFUND_PENDING, PaymentStatus.REFUNDED, PaymentStatus.VOIDED)


def _paid_then_closed(row: dict) -> bool:
    return row["status"] in PAID_THEN_CLOSED and row["completed_at"] is not None


def invoice_issue_for_order(*, order_id: int) -> Invoice | None:
    """The invoice of a completed payment order, issued once (the caller holds the order's row lock; the unique
    constraint on the order backs it: an order invoiced already gets its invoice back, the savepoint giving the
    number back). None when the order was never completed (money refunded because it bought nothing)."""
    row = _order_invoice_row(order_id)
    if row is None or not (row["status"] == PaymentStatus.COMPLETED or _paid_then_closed(row)):
        return None
    if row["purchased_gift_card_id"]:
        return None  # a gift card is a multi-purpose voucher: invoiced when spent (docs/decisions.md 56)
    title = row["title"]
    if row["session_start"] is not None:
        start = timezone.localtime(row["session_start"])
        title = f"{title} – séance du {start:%d/%m/%Y} à {start:%H:%M}"
    # Invoiced at the price before a promo code, less its discount (docs/decisions.md 49, 56).
    description, quantity, unit = _line(title, row["quantity"], row["amount"] + row["discount_amount"])
    now = timezone.now()
    name = f"{row['first_name']} {row['last_name']}".strip() or row["email"]
    address = _address(row["user__address"], row["user__postal_code"], row["user__city"]) if row["user_id"] else ""
    try:
        with transaction.atomic():
            return _create(
                kind=InvoiceKind.INVOICE,
                issued_at=now,
                # An order paid through a provider has a receipt, whose task attaches this PDF (rendering and
                # storing it): no task of its own. Any PDF missing is rendered when first asked for.
                queue_document=row["provider"] == PaymentProviderName.MANUAL,
                payment_order_id=order_id,
                member_id=row["user_id"],
                customer_name=name[:310],
                customer_email=row["email"][:254],
                # A company's billing address, when it gives one, replaces the member's.
                **{"customer_address": address, **company_of_order(order_id=order_id, address=address)},
                description=description[:400],
                quantity=quantity,
                unit_amount=unit,
                total_amount=row["amount"],
                currency=row["currency"],
                paid_at=row["completed_at"] or now,
                payment_method=_paid_by(row["provider"], row["payment_method_label"]),
                payment_lines=_desk_lines(order_id)
                if row["provider"] == PaymentProviderName.DESK
                else _offer_lines(row),
                discount_amount=row["discount_amount"],
                discount_label=f"Code promo {row['promo_code__code']}" if row["promo_code__code"] else "",
                **_seller(),
            )
    except IntegrityError:  # invoiced already (a second call), or meanwhile by a caller without the order's lock
        return Invoice.objects.get(payment_order_id=order_id, kind=InvoiceKind.INVOICE)


def _offer_lines(row: dict) -> list[list[str]]:
    """An order paid partly or wholly with a gift card lists the card and the rest's means (docs/decisions.md 49)."""
    if not row["gift_card_amount"]:
        return []
    lines = [[f"Carte cadeau {row['gift_card__code']}", f"{row['gift_card_amount']:.2f}"]]
    rest = row["amount"] - row["gift_card_amount"]
    if rest > 0:
        lines.append([_paid_by(row["provider"], row["payment_method_label"]), f"{rest:.2f}"])
    return lines


def _desk_lines(order_id: int) -> list[list[str]]:
    """Each means of a desk sale and its amount, as the invoice keeps them (docs/decisions.md 43)."""
    return [[label, f"{amount:.2f}"] for label, amount in desk_payment_lines_of(order_id=order_id)]


def invoice_issue_for_charge(*, charge_id: int) -> Invoice | None:
    """The invoice of a subscription period paid (the caller holds the charge's row lock)."""
    charge = (
        SubscriptionCharge.objects.select_related("subscription__member", "subscription__saved_method")
        .filter(pk=charge_id)
        .first()
    )
    if charge is None or charge.status != ChargeStatus.PAID:
        return None
    existing = Invoice.objects.filter(subscription_charge=charge, kind=InvoiceKind.INVOICE).first()
    if existing is not None:
        return existing
    subscription = charge.subscription
    member = subscription.member
    starts = period_due_on(subscription, charge.period)
    ends = period_ends_on(subscription, charge.period)
    description = (
        f"{subscription.title} – période {charge.period}/{subscription.periods_committed} "
        f"(du {starts:%d/%m/%Y} au {ends:%d/%m/%Y})"
    )
    now = timezone.now()
    # A period paid at the front desk: its order (whose id the period keeps as its reference) lists each means.
    desk_order = (
        PaymentOrder.objects.filter(order_id=charge.provider_reference, provider=PaymentProviderName.DESK)
        .values_list("pk", flat=True)
        .first()
        if charge.provider_reference
        else None
    )
    try:
        with transaction.atomic():
            return _create(
                kind=InvoiceKind.INVOICE,
                issued_at=now,
                subscription_charge=charge,
                member=member,
                customer_name=(member.get_full_name() or member.email)[:310],
                customer_email=member.email[:254],
                **{
                    "customer_address": _customer_address(member),
                    **company_of_member(member, address=_customer_address(member)),
                },
                description=description[:400],
                quantity=1,
                unit_amount=charge.amount,
                total_amount=charge.amount,
                currency=subscription.currency,
                paid_at=charge.paid_at or now,
                payment_method=(
                    _paid_by(PaymentProviderName.DESK)
                    if desk_order
                    else _paid_by(subscription.provider, _charged_method(subscription))
                ),
                payment_lines=_desk_lines(desk_order) if desk_order else [],
                **_seller(),
            )
    except IntegrityError:
        return Invoice.objects.get(subscription_charge=charge, kind=InvoiceKind.INVOICE)


def _charged_method(subscription) -> str:
    """The saved card or mandate a period was charged to, short enough for the invoice ("Prélèvement SEPA FR14 ••••
    2606"); "" when the provider charges by itself (PayPal)."""
    method = subscription.saved_method
    if method is None:
        return ""
    return saved_method_label(kind=method.kind, last4=method.last4, country=method.country)


def credit_note_issue_for_order(*, order_id: int, reason: str = "", amount: Decimal | None = None) -> Invoice | None:
    """The credit note of a completed order whose money went back (or that staff voided): once, referring to its
    invoice, for `amount` when only part went back (a withdrawal's unused classes). None when the order was never
    invoiced (money refunded because it bought nothing)."""
    invoice = Invoice.objects.select_for_update().filter(payment_order_id=order_id, kind=InvoiceKind.INVOICE).first()
    return _credit_note(invoice=invoice, reason=reason, amount=amount) if invoice is not None else None


def credit_note_issue_for_charge(*, charge_id: int, reason: str = "") -> Invoice | None:
    """The credit note of a subscription period refunded by staff: its own invoice's, or, for the period(s) the
    purchase order paid, the order's invoice's for that period's amount."""
    charge = SubscriptionCharge.objects.select_related("subscription").filter(pk=charge_id).first()
    if charge is None:
        return None
    invoice = (
        Invoice.objects.select_for_update().filter(subscription_charge_id=charge_id, kind=InvoiceKind.INVOICE).first()
    )
    if invoice is None:
        invoice = (
            Invoice.objects.select_for_update()
            .filter(payment_order_id=charge.subscription.source_order_id, kind=InvoiceKind.INVOICE)
            .first()
        )
        if invoice is None:
            return None
        return _credit_note(invoice=invoice, reason=reason, amount=min(charge.amount, invoice.total_amount))
    return _credit_note(invoice=invoice, reason=reason)


def _credit_note(*, invoice: Invoice, reason: str, amount: Decimal | None = None) -> Invoice:
    existing = Invoice.objects.filter(credited_invoice=invoice).first()
    if existing is not None:
        return existing
    quantity, unit = invoice.quantity, invoice.unit_amount
    discount = {"discount_amount": invoice.discount_amount, "discount_label": invoice.discount_label}
    if amount is not None and amount != invoice.total_amount:
        quantity, unit, discount = 1, amount, {}
    try:
        with transaction.atomic():
            return _create(
                kind=InvoiceKind.CREDIT_NOTE,
                issued_at=timezone.now(),
                credited_invoice=invoice,
                payment_order_id=invoice.payment_order_id,
                subscription_charge_id=invoice.subscription_charge_id,
                member_id=invoice.member_id,
                customer_name=invoice.customer_name,
                customer_email=invoice.customer_email,
                customer_address=invoice.customer_address,
                customer_erased_at=invoice.customer_erased_at,
                **company_of_invoice(invoice),
                description=invoice.description,
                quantity=quantity,
                unit_amount=unit,
                total_amount=amount if amount is not None else invoice.total_amount,
                currency=invoice.currency,
                payment_method=invoice.payment_method,
                reason=(reason or "").strip()[:300],
                vat_status=invoice.vat_status,
                vat_rate=invoice.vat_rate,
                **discount,
                **_seller(),
            )
    except IntegrityError:
        return Invoice.objects.get(credited_invoice=invoice)


# --- never in the way of a payment, and nothing missed ---------------------------------------------------------


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


# --- a deleted account (docs/decisions.md 34) --------------------------------------------------------------------


def invoices_erase_customer(*, member_id: int, email: str = "") -> int:
    """Erase a deleted member's identity from their invoices and credit notes (theirs, or made out to their e-mail:
    a payment staff recorded by hand); numbers, lines, amounts and dates stay as issued (the accounting record).
    Their stored PDFs go too, rendered again without the identity."""
    now = timezone.now()
    mine = Q(member_id=member_id) | Q(customer_email__iexact=email) if email else Q(member_id=member_id)
    ids = list(Invoice.objects.filter(mine).values_list("pk", flat=True))
    Invoice.objects.filter(pk__in=ids).update(
        customer_name=ERASED_CUSTOMER.format(member_id=member_id),
        customer_email="",
        customer_address="",
        customer_erased_at=now,
    )
    InvoiceDocument.objects.filter(invoice_id__in=ids).delete()
    return len(ids)
