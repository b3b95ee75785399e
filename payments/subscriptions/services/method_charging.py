"""Charging one period to the member's saved method, outside any transaction (charging.py locked the period and
marked it PROCESSING first): the simulator's bank, or Stripe's off-session PaymentIntent.

Each attempt of a period has its own idempotency key (subscription, period, attempt): a runner that died before the
answer resumes with the same key and Stripe answers the same PaymentIntent, so a period is never charged twice;
a new attempt after a refusal asks again with the next key.
"""

import logging
import uuid

from ...provider_types import CAPTURE_COMPLETED, CAPTURE_PENDING, ProviderError, ProviderRefund
from ...stripe_gateway import get_stripe_gateway
from ..models import SavedMethodProvider, SavedMethodStatus, SavedPaymentMethod, Subscription, SubscriptionCharge
from ..simulated_debits import (
    FAILED,
    PAID,
    PROCESSING,
    SIMULATED_PREFIXES,
    DebitOutcome,
    simulated_method_charge,
)
from .saved_methods import MSG_METHOD_UNUSABLE

logger = logging.getLogger(__name__)

PURPOSE = "subscription_charge"  # the PaymentIntent's metadata `purpose`: its webhooks come to this app


def method_charge(
    *, subscription: Subscription, charge: SubscriptionCharge, method: SavedPaymentMethod | None, request_id: str
) -> DebitOutcome | None:
    """Charge `charge` to `method`: paid, processing (a SEPA debit) or failed; None when the provider did not
    answer (the period stays PROCESSING and the next run asks again with the same key)."""
    if method is None or method.status != SavedMethodStatus.ACTIVE:
        return DebitOutcome(FAILED, note=MSG_METHOD_UNUSABLE)
    if method.provider == SavedMethodProvider.SIMULATOR:
        return simulated_method_charge(kind=method.kind, outcome=method.simulated_outcome, request_id=request_id)
    try:
        state = get_stripe_gateway().charge_saved_method(
            amount=charge.amount,
            charge_ref=request_id,
            customer_id=method.customer_id,
            payment_method_id=method.method_id,
            kind=method.kind,
            mandate_id=method.mandate_id,
            description=f"{subscription.title} – période {charge.period}/{subscription.periods_committed}",
            metadata={
                "purpose": PURPOSE,
                "charge_id": str(charge.pk),
                "subscription": str(subscription.pk),
                "period": str(charge.period),
            },
        )
    except ProviderError:
        logger.exception("Charge %s: Stripe unreachable, left for the next run", charge.pk)
        return None
    if state.status == CAPTURE_COMPLETED and state.amount == charge.amount:
        return DebitOutcome(PAID, state.id)
    if state.status == CAPTURE_PENDING:
        return DebitOutcome(PROCESSING, state.id)
    return DebitOutcome(FAILED, state.id, state.message or state.decline_code or state.status or "DECLINED")


def method_refund(*, subscription: Subscription, reference: str, request_id: str) -> ProviderRefund | None:
    """Refund a period charged to a saved method (staff cancel with the refund of the current period): the simulator's
    bank gives the money back at once, Stripe refunds the PaymentIntent once per key. None when the period was not
    paid by a saved method (the purchase order's first period of a simulator subscription, PayPal's)."""
    if reference.startswith(SIMULATED_PREFIXES):
        return ProviderRefund(
            id=f"SIMREF-{uuid.uuid5(uuid.NAMESPACE_URL, request_id).hex[:14].upper()}", status="COMPLETED"
        )
    if subscription.provider == SavedMethodProvider.STRIPE:
        if not reference.startswith("pi_"):
            raise ProviderError("Paiement Stripe introuvable pour ce remboursement.", issue="unknown_payment")
        return get_stripe_gateway().refund(intent_id=reference, refund_ref=request_id)
    return None
