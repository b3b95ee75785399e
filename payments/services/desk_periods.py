"""A subscription's later period paid at the front desk (docs/decisions.md 43): a due or refused period is sold like a
class card, by one or several means adding up to the period's amount read from the database.

The sale is a payment order of provider "desk" (its `DeskPaymentLine`s are the day's takings, "caisse du jour"), and
the period is marked paid through `subscription_charge_paid`, the function a provider's payment goes through: the
pass extended, the unpaid block lifted, the period's invoice issued (listing the order's means, invoices'
`invoice_issue_for_charge`) and the receipt sent. The order's id is the period's `provider_reference`, which links
the two.

Locks (payments/services/locking.py): the new order row, then the subscription, then the charge. Two staff paying the
same period at once: the second finds it paid under the charge's lock and gets a 409, its order undone with it. The
same key sent twice gets the first answer (the order's id is made from it and is unique).
"""

import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from accounts.services.staff_actions import staff_action_record
from bookings.services.staff_bookings import staff_booking_member

from ..models import DeskPaymentLine, PaymentOrder, PaymentStatus
from ..subscriptions.models import ChargeStatus, SubscriptionCharge
from ..subscriptions.services.charging import subscription_charge_paid
from ..subscriptions.services.common import LIVE_STATUSES
from .desk import DeskError, DeskLine, _check_total, _order_fields, _order_id, euros_text, means_text
from .locking import lock_charge

PERIOD_TYPE = "ECHEANCE"
PAYABLE = (ChargeStatus.DUE, ChargeStatus.FAILED)


def period_title(charge: SubscriptionCharge) -> str:
    subscription = charge.subscription
    return f"{subscription.title} – période {charge.period}/{subscription.periods_committed}"


def _same_period_sale(order: PaymentOrder, *, member_id: int, charge_id: int) -> PaymentOrder:
    """A period's sale sent again with its key: the recorded order, if it paid that period for that member."""
    same = (
        order.user_id == member_id
        and SubscriptionCharge.objects.filter(pk=charge_id, provider_reference=order.order_id).exists()
    )
    if not same:
        raise DeskError.of("key_reused")
    return order


def _payable_charge(*, member: User, charge_id: int) -> SubscriptionCharge:
    charge = (
        SubscriptionCharge.objects.select_related("subscription")
        .filter(pk=charge_id, subscription__member_id=member.pk)
        .first()
        if 0 < charge_id < 2**31
        else None
    )
    if charge is None:
        raise DeskError.of("charge_not_found", field="charge_id")
    if charge.status not in PAYABLE or charge.subscription.status not in LIVE_STATUSES:
        raise DeskError.of("charge_not_due", field="charge_id")
    return charge


def desk_period_sale_record(
    *, staff: User, member_id: int, charge_id: int, lines: list[DeskLine], idempotency_key: uuid.UUID
) -> PaymentOrder:
    """Record a subscription period paid at the desk; see the module."""
    order_id = _order_id(idempotency_key)
    recorded = PaymentOrder.objects.filter(order_id=order_id).first()
    if recorded is not None:
        return _same_period_sale(recorded, member_id=member_id, charge_id=charge_id)
    member = staff_booking_member(member_id)
    charge = _payable_charge(member=member, charge_id=charge_id)
    _check_total(lines, charge.amount)  # a first check before any lock; again under the charge's lock below
    now = timezone.now()
    try:
        with transaction.atomic():
            order = PaymentOrder.objects.create(
                **{
                    **_order_fields(member=member, now=now),
                    "order_id": order_id,
                    "title": period_title(charge)[:200],
                    "type": PERIOD_TYPE,
                    "quantity": 1,
                    "amount": charge.amount,
                    "currency": charge.subscription.currency,
                    "status": PaymentStatus.COMPLETED,
                    "completed_at": now,
                }
            )
            DeskPaymentLine.objects.bulk_create(
                [DeskPaymentLine(order=order, means=li.means, amount=li.amount, recorded_by=staff) for li in lines]
            )
            subscription, locked = lock_charge(charge.pk)
            if locked.status not in PAYABLE or subscription.status not in LIVE_STATUSES:
                # Paid meanwhile (another desk, the member's card): this order is undone with the transaction.
                raise DeskError.of("charge_not_due", field="charge_id")
            _check_total(lines, locked.amount)
            subscription_charge_paid(charge_id=locked.pk, reference=order.order_id)
            staff_action_record(
                member=member,
                staff=staff,
                action="desk_sale",
                summary=f"Vente à l'accueil : {order.title}, {euros_text(order.amount)} ({means_text(lines)})",
            )
            return order
    except IntegrityError:
        # The same key recorded meanwhile by the first submission (its insert waited for that commit).
        recorded = PaymentOrder.objects.filter(order_id=order_id).first()
        if recorded is None:
            raise
        return _same_period_sale(recorded, member_id=member_id, charge_id=charge_id)
