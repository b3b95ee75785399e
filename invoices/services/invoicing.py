"""Issuing the invoice of a completed payment order or of a paid subscription period (docs/decisions.md 40), and
the words for how it was paid."""

from django.db import IntegrityError, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from bookings.models import Reservation
from payments.choices import PaymentProviderName
from payments.desk_selectors import desk_payment_lines_of
from payments.models import PaymentOrder, PaymentStatus
from payments.subscriptions.models import ChargeStatus, SubscriptionCharge, saved_method_label
from payments.subscriptions.periods import period_due_on, period_ends_on

from ..customers import company_of_member, company_of_order
from ..models import Invoice, InvoiceKind
from .common import _address, _create, _customer_address, _line, _seller

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
# A capture refused because the studio had just cancelled the class is one too (payments' fulfilment.py).
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
