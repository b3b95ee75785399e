"""Which provider opens a one-off order: the one the member chose among those offered (docs/decisions.md 42), and
the opening itself, at PayPal or the simulator (an Orders v2 order) or at Stripe (a PaymentIntent).

The amount always comes from the database; the provider's call runs outside any transaction."""

import logging
from dataclasses import dataclass, field
from decimal import Decimal

from django.tasks import task

from studio.queue import enqueue_after_commit

from ..choices import CURRENCY_EUR, PaymentProviderName
from ..models import PaymentOrder, PaymentStatus
from ..provider_types import ProviderError
from ..providers import get_provider
from ..selectors import payment_providers
from ..stripe_gateway import get_stripe_gateway
from .common import PaymentError

logger = logging.getLogger(__name__)

STRIPE = PaymentProviderName.STRIPE.value
# What a PaymentIntent pays for, in its metadata `purpose`: the webhook tells a one-off order from a subscription's
# charge by it (payments/services/stripe_webhooks.py).
PURPOSE_RESERVATION = "reservation"
PURPOSE_TARIFF = "tariff"
PURPOSE_DEPOSIT = "deposit"
PURPOSE_SUBSCRIPTION_CHARGE = "subscription_charge"


@dataclass(frozen=True)
class OpenedOrder:
    provider: str
    id: str
    client_secret: str = field(default="", repr=False)  # Stripe's, for the member's page only


def payment_provider_choose(provider: str = "") -> str:
    """The provider named by the member, if offered; the first offered when none is named."""
    offered = payment_providers()
    if not provider:
        return offered[0]
    if provider not in offered:
        raise PaymentError.of("provider_not_offered")
    return provider


def provider_order_open(
    *, provider: str, amount: Decimal, description: str, reference: str, purpose: str
) -> OpenedOrder:
    """Open the order at the provider. Stripe's idempotency key and metadata come from our reference, so a repeated
    call answers the same PaymentIntent; PayPal's request id likewise."""
    try:
        if provider == STRIPE:
            start = get_stripe_gateway().start_payment(
                amount=amount,
                order_ref=reference,
                description=description,
                metadata={"reference": reference, "purpose": purpose},
            )
            return OpenedOrder(provider=STRIPE, id=start.id, client_secret=start.client_secret)
        client = get_provider()
        opened = client.create_order(
            amount=amount,
            currency=CURRENCY_EUR,
            description=description,
            reference=reference,
            request_id=f"create-{reference}",
        )
        return OpenedOrder(provider=client.name, id=opened.id)
    except ProviderError as exc:
        logger.warning("Payment provider %s refused create-order: %s (%s)", provider, exc.message, exc.issue)
        raise PaymentError.of("provider_down") from exc


def stripe_client_secret(order) -> str:
    """The client secret of a Stripe order being paid (a second tab asking again): read from Stripe, never stored."""
    try:
        return get_stripe_gateway().get_payment(intent_id=order.order_id).client_secret
    except ProviderError as exc:
        logger.warning("Stripe could not tell the client secret of %s: %s", order.order_id, exc.message)
        raise PaymentError.of("provider_down") from exc


def provider_order_voided(order: PaymentOrder) -> None:
    """A Stripe order just voided here (the member gave up, or chose another provider): its PaymentIntent is canceled
    at Stripe, after the commit, so that a page left open can no longer pay it."""
    if order.provider == STRIPE and order.status == PaymentStatus.VOIDED:
        enqueue_after_commit(stripe_payment_abandon, intent_id=order.order_id)


@task
def stripe_payment_abandon(intent_id: str) -> str:
    """Cancel a voided order's PaymentIntent. One Stripe already took stays taken (Stripe refuses the cancellation):
    the webhook or the reconciliation then refunds it, since a voided order is never fulfilled."""
    try:
        get_stripe_gateway().cancel_payment(intent_id=intent_id)
    except ProviderError as exc:
        logger.info("PaymentIntent %s not canceled: %s (%s)", intent_id, exc.message, exc.issue)
        return "kept"
    return "canceled"
