"""Locking in payments: the one place the lock order of payments' writes is written down, and the helpers every
writer of a subscription uses. Bookings' part of the same order is in bookings/services/locking.py, the session's
lock that begins it in courses/services/locking.py.

Lock order of the whole project, always (a writer takes only the rows it needs, but never in another order):

    PaymentOrder  →  Subscription  →  SubscriptionCharge  →  ReducedRateDeclaration
                  →  CourseSession (courses)  →  Pass  →  Reservation rows (bookings)

- PaymentOrder first (`lock_payment_order`): a capture, a refund, a staff edit lock the order, then call bookings (the
  pass granted, the reservation confirmed) and, for a tariff priced per period, create the Subscription
  (`subscription_start_for_order`). A cancelled class's refunds lock each order alone (`of=("self",)`). Recording a
  card order for a hold takes no order lock: it locks the session (courses' `lock_session`) and bookings'
  reservation (`lock_reservation`) before inserting the order.
- Subscription before any of its charges (`lock_subscription`, then `lock_charge_of`, or `lock_charge` which takes
  both in that order): the scheduler's charge of a period and its outcome (paid, refused), PayPal's webhooks and
  daily job, "Payer maintenant", and the staff's cancel, freeze, end of a reduced plan and retry. A bulk UPDATE of a
  subscription's charges (a cancel cancels its unpaid periods) runs under the subscription's lock too.
- A charge row alone (`lock_charge_alone`) only where nothing else is locked after it: recording a refund's id.
- The reduced-rate declaration after its subscription (`lock_reduced_declaration`).
- Then bookings' rows, through bookings' services (`pass_validity_set`, `pass_rule_set` lock the Pass). A member's
  withdrawal (services/withdrawal.py) locks the order, then a subscription's row, then the card or the pass, and
  refunds after the commit. The staff's cancel with refund therefore locks the subscription's purchase order before
  the subscription: its credit note refers to that order, and taking the subscription first deadlocked against a
  withdrawal (payments/tests/test_withdrawal_concurrency.py).
- Last, what receivers of payments' signals lock in the same transaction (invoices: their numbering).

The simulated provider's own rows (SimulatedProviderOrder) are locked alone in their short transactions, outside
every lock above (provider calls run outside the transactions that hold them).

A scheduler charging a period while staff cancel or freeze the same subscription therefore never deadlock: both
queue on the subscription's row (payments/tests/test_subscription_lock_order.py proves it on PostgreSQL).
"""

from ..models import PaymentOrder
from ..subscriptions.models import ReducedRateDeclaration, Subscription, SubscriptionCharge


def lock_payment_order(order_id: str, *, missing_ok: bool = False) -> PaymentOrder | None:
    """A payment order, locked (the first lock of every write that involves one). A missing order raises
    PaymentOrder.DoesNotExist, or is None with `missing_ok`."""
    orders = PaymentOrder.objects.select_for_update().filter(order_id=order_id)
    return orders.first() if missing_ok else orders.get()


def lock_subscription(subscription_id: int, **filters) -> Subscription | None:
    """A subscription row, locked (after any PaymentOrder, before its charges); None when there is none (or it does
    not match `filters`, e.g. `member=user`). An id outside the database's integer range is None too."""
    if not 0 < subscription_id < 2**31:
        return None
    return Subscription.objects.select_for_update().filter(pk=subscription_id, **filters).first()


def lock_subscription_of_order(order_id: int) -> Subscription | None:
    """The subscription a purchase order started, locked (the order is locked first when the caller holds it)."""
    return Subscription.objects.select_for_update().filter(source_order_id=order_id).first()


def lock_charge_of(subscription: Subscription, charge_id: int) -> SubscriptionCharge:
    """Under the subscription's lock: one of its charges, locked."""
    return SubscriptionCharge.objects.select_for_update().get(pk=charge_id, subscription_id=subscription.pk)


def lock_charge(charge_id: int) -> tuple[Subscription, SubscriptionCharge]:
    """A charge and its subscription, locked in the documented order: the subscription first, then the charge. The
    charge's subscription never changes, so reading it before the locks is safe."""
    subscription_id = SubscriptionCharge.objects.values_list("subscription_id", flat=True).get(pk=charge_id)
    subscription = lock_subscription(subscription_id)
    return subscription, lock_charge_of(subscription, charge_id)


def lock_charge_alone(charge_id: int) -> SubscriptionCharge:
    """A charge row locked by itself: only for a write that locks nothing after it (a refund's id recorded)."""
    return SubscriptionCharge.objects.select_for_update().get(pk=charge_id)


def lock_reduced_declaration(*, order_id: int) -> ReducedRateDeclaration | None:
    """Under the subscription's lock: the purchase's reduced-rate declaration still running, locked."""
    return ReducedRateDeclaration.objects.select_for_update().filter(order_id=order_id, ended_at__isnull=True).first()
