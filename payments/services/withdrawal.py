"""The withdrawal right of a class card or a subscription bought online (docs/decisions.md 47; Code de la
consommation L221-18): for 14 days after the purchase the member withdraws, once, through the provider that took the
money. What was used is due only when the member asked for the service to start at once (L221-25): a card's classes
taken, a subscription's days up to the withdrawal; without that request everything paid goes back. A withdrawn
subscription ends that day: nothing more is charged and its pass books nothing from the next day.

Lock order (payments/services/locking.py): the PaymentOrder first, then the Subscription, then the pass (bookings'
Pass); the refund itself runs in a task after the commit, outside any lock, with one idempotency key per order
(refunds.py)."""

from datetime import timedelta
from decimal import ROUND_DOWN, Decimal

from django.db import transaction
from django.tasks import task
from django.utils import timezone

from bookings.models import PassKind
from bookings.services.locking import lock_pass
from bookings.services.pass_admin import pass_adjust
from bookings.services.pass_rules import pass_validity_set
from bookings.services.passes import add_months
from studio.emails import send_templated_email
from studio.errors import CONFLICT, NOT_FOUND, ApplicationError
from studio.queue import enqueue_after_commit

from ..models import PaymentOrder, PaymentStatus
from ..subscriptions.models import Subscription, SubscriptionAction, SubscriptionActionKind, SubscriptionStatus
from ..subscriptions.services.common import LIVE_STATUSES
from ..subscriptions.services.paypal import PAYPAL_SUBSCRIPTION_TYPE
from ..subscriptions.services.staff import subscription_close
from .locking import lock_payment_order, lock_subscription
from .refunds import _euros, payment_order_refund

WITHDRAWAL_DAYS = 14
MSG_WITHDRAWAL_NOT_FOUND = "Cet achat est introuvable."
MSG_WITHDRAWAL_CLOSED = "Le délai de rétractation de 14 jours est dépassé pour cet achat."
MSG_WITHDRAWAL_DONE = "Vous avez déjà exercé votre droit de rétractation pour cet achat."
MSG_WITHDRAWAL_NOT_OFFERED = "Cet achat ne se rétracte pas en ligne : écrivez-nous, nous vous répondrons."
MSG_WITHDRAWAL_REFUND = (
    "Rétractation enregistrée : {amount} € vous sont remboursés ({unused} séance(s) non utilisée(s) sur {total})."
)
MSG_WITHDRAWAL_NOTHING = (
    "Rétractation enregistrée : toutes les séances de la carte ont été suivies, rien n'est à rembourser."
)
MSG_WITHDRAWAL_SUBSCRIPTION = (
    "Rétractation enregistrée : votre abonnement prend fin aujourd'hui et {amount} € vous sont remboursés "
    "({unused} jour(s) non utilisé(s) sur {total})."
)
MSG_WITHDRAWAL_FULL = "Rétractation enregistrée : {amount} € vous sont remboursés, la totalité de votre achat."
WITHDRAWAL_SUBJECT = "Votre rétractation"
WITHDRAWAL_REASON = "Rétractation (article L221-18 du Code de la consommation)"


class WithdrawalError(ApplicationError):
    default_code = "withdrawal_invalid"
    messages = {
        "not_found": MSG_WITHDRAWAL_NOT_FOUND,
        "closed": MSG_WITHDRAWAL_CLOSED,
        "done": MSG_WITHDRAWAL_DONE,
        "not_offered": MSG_WITHDRAWAL_NOT_OFFERED,
    }
    statuses = {"not_found": NOT_FOUND, "closed": CONFLICT, "done": CONFLICT, "not_offered": CONFLICT}


def withdrawal_deadline(order: PaymentOrder):
    """The last moment of the withdrawal period: 14 days after the purchase was paid."""
    return order.completed_at + timedelta(days=WITHDRAWAL_DAYS)


def withdrawal_open(order: PaymentOrder, *, now=None) -> bool:
    """Whether the profile offers "Exercer mon droit de rétractation" for this order."""
    return bool(
        order.tariff_id
        and order.granted_pass_id
        and order.status == PaymentStatus.COMPLETED
        and order.withdrawn_at is None
        and order.completed_at is not None
        and (now or timezone.now()) <= withdrawal_deadline(order)
    )


def _online(order: PaymentOrder) -> bool:
    """A paid order this page withdraws from. A subscription started with PayPal's own subscription button is not:
    PayPal refunds its payments by another API than an order's capture, so the studio handles it by hand."""
    return (
        order.status == PaymentStatus.COMPLETED
        and order.completed_at is not None
        and order.type != PAYPAL_SUBSCRIPTION_TYPE
    )


def _subscription_days(subscription: Subscription, order: PaymentOrder, today) -> tuple[int, int]:
    """The days the order paid for (its periods from the start) and those not used yet by `today` (the withdrawal's
    day counts as used)."""
    paid_months = subscription.period_months * max(min(order.quantity, subscription.periods_committed), 1)
    total = (add_months(subscription.starts_on, paid_months) - subscription.starts_on).days
    used = min(max((today - subscription.starts_on).days + 1, 0), total)
    return total - used, total


def unused_part(*, amount: Decimal, credits_left: int, credits_total: int) -> Decimal:
    """The card's price for the classes not taken, to the cent below (the member is never owed more than paid)."""
    if credits_total <= 0:
        return Decimal("0.00")
    return (amount * credits_left / credits_total).quantize(Decimal("0.01"), rounding=ROUND_DOWN)


def member_withdrawable_rows(*, member_id: int) -> list[dict]:
    """The member's purchases still open to withdrawal, newest first: [{order_id, title, amount, deadline}]."""
    since = timezone.now() - timedelta(days=WITHDRAWAL_DAYS)
    orders = (
        PaymentOrder.objects.filter(
            user_id=member_id,
            tariff__isnull=False,
            granted_pass__isnull=False,
            status=PaymentStatus.COMPLETED,
            withdrawn_at__isnull=True,
            completed_at__gte=since,
        )
        .exclude(type=PAYPAL_SUBSCRIPTION_TYPE)
        .order_by("-completed_at")
    )
    return [
        {"order_id": o.order_id, "title": o.title, "amount": o.amount, "deadline": withdrawal_deadline(o)}
        for o in orders
        if withdrawal_open(o)
    ]


def withdrawal_preview(*, user, order_id: str) -> dict:
    """What withdrawing from this card would do now, for the page that asks to confirm (read without locks; the
    withdrawal itself checks again under them): {order, unused, total, refund}, or WithdrawalError."""
    order = PaymentOrder.objects.filter(order_id=order_id, user_id=user.pk, tariff__isnull=False).first()
    if order is None:
        raise WithdrawalError.of("not_found")
    if order.withdrawn_at is not None:
        raise WithdrawalError.of("done")
    card = order.granted_pass
    if not _online(order) or card is None:
        raise WithdrawalError.of("not_offered")
    if timezone.now() > withdrawal_deadline(order):
        raise WithdrawalError.of("closed")
    if card.kind == PassKind.CARD:
        unused, total = card.credits_left, card.credits_total
    else:
        subscription = Subscription.objects.filter(source_order=order).first()
        if subscription is None:
            raise WithdrawalError.of("not_offered")
        unused, total = _subscription_days(subscription, order, timezone.localdate())
    refund = _refund_of(order, unused=unused, total=total)
    return {
        "order": order,
        "subscription": card.kind != PassKind.CARD,
        "unused": unused,
        "total": total,
        "refund": refund,
        "refund_text": _euros(refund),
        "deadline": withdrawal_deadline(order),
    }


def _refund_of(order: PaymentOrder, *, unused: int, total: int) -> Decimal:
    """The whole price when the member did not ask to start at once (nothing used is due, L221-25); otherwise the
    unused part."""
    if not order.immediate_start:
        return order.amount
    return unused_part(amount=order.amount, credits_left=unused, credits_total=total)


def payment_order_withdraw(*, user, order_id: str) -> tuple[PaymentOrder, str]:
    """The member withdraws from their class card or subscription: once, within 14 days of the purchase. A card's
    remaining classes are removed, a subscription ends today; what is owed back (`_refund_of`) is refunded by a task
    after the commit. Returns the order and the French confirmation."""
    with transaction.atomic():
        order = lock_payment_order(order_id, missing_ok=True)
        if order is None or order.user_id != user.pk or not order.tariff_id:
            raise WithdrawalError.of("not_found")
        if order.withdrawn_at is not None:
            raise WithdrawalError.of("done")
        if not _online(order) or not order.granted_pass_id:
            raise WithdrawalError.of("not_offered")
        now = timezone.now()
        if now > withdrawal_deadline(order):
            raise WithdrawalError.of("closed")
        subscription_id = Subscription.objects.filter(source_order=order).values_list("pk", flat=True).first()
        if subscription_id is not None:
            unused, total = _subscription_withdraw(subscription_id=subscription_id, order=order, user=user)
        else:
            card = lock_pass(order.granted_pass_id)
            if card is None or card.kind != PassKind.CARD:
                raise WithdrawalError.of("not_offered")
            unused, total = card.credits_left, card.credits_total
            if unused:
                pass_adjust(actor=user, pass_id=card.pk, reason=WITHDRAWAL_REASON, credits_delta=-unused)
        refund = _refund_of(order, unused=unused, total=total)
        order.withdrawn_at = now
        order.withdrawal_refund_amount = refund
        fields = ["withdrawn_at", "withdrawal_refund_amount", "updated_at"]
        if refund > 0:
            if refund == order.amount and unused != total:
                message = MSG_WITHDRAWAL_FULL.format(amount=_euros(refund))
            elif subscription_id is not None:
                message = MSG_WITHDRAWAL_SUBSCRIPTION.format(amount=_euros(refund), unused=unused, total=total)
            else:
                message = MSG_WITHDRAWAL_REFUND.format(amount=_euros(refund), unused=unused, total=total)
            order.status = PaymentStatus.REFUND_PENDING
            order.provider_note = message
            fields += ["status", "provider_note"]
            enqueue_after_commit(payment_withdrawal_refund, order_id=order.order_id)
        else:
            # Nothing goes back, so no refund notice: this acknowledges the withdrawal (recorded in the outbox, sent
            # after the commit by a worker).
            message = MSG_WITHDRAWAL_NOTHING
            send_templated_email(
                to=order.email,
                subject=WITHDRAWAL_SUBJECT,
                template="payments_withdrawal",
                context={"order": order, "message": message},
                topic="payments.withdrawal",
                topic_id=order.pk,
            )
        order.save(update_fields=fields)
    return order, message


def _subscription_withdraw(*, subscription_id: int, order: PaymentOrder, user) -> tuple[int, int]:
    """Under the order's lock: the subscription ends today (nothing more charged, PayPal told) and its pass books
    nothing after today. Returns the paid days not used and all the paid days."""
    subscription = lock_subscription(subscription_id)
    if subscription.status not in (*LIVE_STATUSES, SubscriptionStatus.FROZEN):
        raise WithdrawalError.of("not_offered")
    today = timezone.localdate()
    unused, total = _subscription_days(subscription, order, today)
    subscription_close(subscription, status=SubscriptionStatus.CANCELLED)
    pass_validity_set(pass_id=subscription.granted_pass_id, expires_on=today, reason=WITHDRAWAL_REASON, by=user)
    SubscriptionAction.objects.create(
        subscription=subscription,
        kind=SubscriptionActionKind.MEMBER_WITHDRAW,
        by=user,
        reason=WITHDRAWAL_REASON,
        outcome=f"{unused} jour(s) non utilisé(s) sur {total}",
    )
    return unused, total


@task
def payment_withdrawal_refund(order_id: str) -> str:
    """Refund the unused part of a withdrawn card, through the provider, once (idempotency key per order)."""
    return payment_order_refund(order_id=order_id).status
