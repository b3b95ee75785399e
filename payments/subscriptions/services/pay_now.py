"""The member's "Payer maintenant" (docs/decisions.md 25), with either provider: the simulator charges the unpaid
periods here (charging.py), PayPal captures the outstanding balance (paypal.py, which itself records each period
through charging.py: this module sits above both)."""

from django.utils import timezone

from ..models import ChargeStatus, Subscription
from .charging import subscription_charge_attempt
from .common import SubscriptionError
from .paypal import paypal_pay_now
from .saved_methods import CHARGED_BY_STUDIO, PAID_AT_DESK_UNLESS_SAVED


def subscription_pay_now(*, subscription_id: int, user, card_declined: bool = False) -> Subscription:
    """The member's "Payer maintenant": charge every unpaid period of their subscription now. With the simulator
    the member picks the card (a working one unless `card_declined`), which becomes the card charged next."""
    subscription = None
    if 0 < subscription_id < 2**31:
        subscription = Subscription.objects.filter(pk=subscription_id, member=user).first()
    if subscription is None:
        raise SubscriptionError.of("subscription_not_found")
    if subscription.provider == "paypal":
        # PayPal: its capture of the outstanding balance, bounded by the provider's time budget.
        return paypal_pay_now(subscription=subscription)
    if subscription.provider in PAID_AT_DESK_UNLESS_SAVED and subscription.saved_method_id is None:
        raise SubscriptionError.of("pay_at_desk")  # docs/decisions.md 43: no card to charge, the desk takes it
    if subscription.provider not in CHARGED_BY_STUDIO and subscription.provider not in PAID_AT_DESK_UNLESS_SAVED:
        raise SubscriptionError.of("pay_now_provider")
    if subscription.saved_method_id is None:
        # The simulated card of the subscriptions started before methods were saved: the member picks it here.
        Subscription.objects.filter(pk=subscription.pk).update(simulated_card_declines=card_declined)
    unpaid = list(
        subscription.charges.filter(status__in=(ChargeStatus.FAILED, ChargeStatus.DUE)).values_list("pk", flat=True)
    )
    if not unpaid:
        raise SubscriptionError.of("nothing_due")
    today = timezone.localdate()
    declined = False
    for charge_id in unpaid:
        charge = subscription_charge_attempt(charge_id=charge_id, as_of=today, force=True)
        declined = declined or charge.status == ChargeStatus.FAILED
    if declined:
        raise SubscriptionError.of("pay_now_declined")
    return Subscription.objects.get(pk=subscription.pk)
