"""Buying a subscription through PayPal: the tariff's catalog product and billing plan, created once and
reused (SubscriptionPlan keeps their ids and the price; a changed price gets a new plan); the subscription the JS
SDK's createSubscription asks for, recorded as an open PaymentOrder named by PayPal's id; the popup's onApprove; and
how the purchase modal sells a tariff (per period, reduced). Split from paypal.py (what PayPal says
afterwards)."""

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from bookings.services.passes import tariff_billing_period_months
from courses.models import Tariff

from ...choices import CURRENCY_EUR, PaymentProviderName
from ...models import PaymentOrder, PaymentStatus
from ...provider_types import ProviderError
from ...services.common import PaymentError, _mark, _valid_email, terms_acceptance_fields
from ...services.reduced_rate import ReducedClaim, reduced_claim_check, reduced_declaration_record, tariff_is_reduced
from ..models import SubscriptionPlan
from ..periods import tariff_commitment_periods
from .paypal import PAYPAL_SUBSCRIPTION_TYPE, _paypal, logger


def subscription_tariff(tariff_id: int) -> Tariff:
    """A tariff sold per period (an unlimited subscription priced "par mois", "par trimestre"...), or PaymentError."""
    tariff = Tariff.objects.filter(pk=tariff_id).first() if 0 < tariff_id < 2**31 else None
    if tariff is None:
        raise PaymentError.of("tariff_not_found")
    period = tariff_billing_period_months(tariff)
    if period is None or not tariff.pass_unlimited or tariff.price <= 0 or tariff.pass_validity_months < 1:
        raise PaymentError.of("tariff_not_orderable")
    return tariff


def subscription_offer(*, tariff_id: int) -> dict:
    """How a tariff is sold (the purchase modal): per period or once, reduced or not."""
    tariff = Tariff.objects.filter(pk=tariff_id).first() if 0 < tariff_id < 2**31 else None
    if tariff is None:
        raise PaymentError.of("tariff_not_found", status=404)
    period = tariff_billing_period_months(tariff)
    per_period = period is not None and tariff.pass_unlimited and tariff.pass_validity_months >= 1
    return {
        "tariff_id": tariff.pk,
        "per_period": per_period,
        "reduced": tariff_is_reduced(tariff),
        "period_months": period if per_period else None,
        "periods_committed": tariff_commitment_periods(tariff, period) if per_period else None,
        "amount": tariff.price,
    }


def _plan_terms(tariff: Tariff) -> tuple[int, int]:
    period = tariff_billing_period_months(tariff)
    return period, tariff_commitment_periods(tariff, period)


def paypal_plan_ensure(*, tariff: Tariff) -> SubscriptionPlan:
    """The tariff's PayPal product and billing plan, created once and reused; a new plan when the price changed.
    Two purchases at once send the same idempotency keys, so PayPal answers both with the same product and plan."""
    plan, _ = SubscriptionPlan.objects.get_or_create(tariff=tariff)
    if plan.paypal_plan_id and plan.paypal_plan_amount == tariff.price:
        return plan
    api = _paypal()
    period, cycles = _plan_terms(tariff)
    product_id = plan.paypal_product_id or api.create_product(
        name=tariff.title, description=tariff.description or tariff.title, request_id=f"product-tariff-{tariff.pk}"
    )
    plan_id = api.create_plan(
        product_id=product_id,
        name=tariff.title,
        amount=tariff.price,
        currency=CURRENCY_EUR,
        interval_months=period,
        cycles=cycles,
        request_id=f"plan-tariff-{tariff.pk}-{tariff.price:.2f}-{period}x{cycles}",
    )
    SubscriptionPlan.objects.filter(pk=plan.pk).update(
        paypal_product_id=product_id, paypal_plan_id=plan_id, paypal_plan_amount=tariff.price
    )
    plan.refresh_from_db()
    return plan


def paypal_plans_ensure() -> int:
    """Periodic: every tariff sold per period has its product and plan before a member needs them."""
    created = 0
    for tariff in Tariff.objects.filter(pass_unlimited=True, price__gt=0, pass_validity_months__gte=1):
        if tariff_billing_period_months(tariff) is None:
            continue
        plan = SubscriptionPlan.objects.filter(tariff=tariff).first()
        if plan is None or not plan.paypal_plan_id or plan.paypal_plan_amount != tariff.price:
            paypal_plan_ensure(tariff=tariff)
            created += 1
    return created


def paypal_subscription_create(
    *,
    user,
    tariff_id: int,
    email: str,
    first_name: str,
    last_name: str,
    reduced: ReducedClaim | None = None,
    immediate_start: bool = False,
) -> PaymentOrder:
    """The member accepted the terms of sale and clicked PayPal's button: a PayPal Subscription on the tariff's plan,
    waiting for the member's approval in the popup, recorded as an open PaymentOrder named by its id, with the terms'
    version and the immediate start asked for (docs/decisions.md 47)."""
    tariff = subscription_tariff(tariff_id)
    if not _valid_email(email):
        raise PaymentError.of("email_invalid")
    proof = reduced_claim_check(user=user, tariff=tariff, claim=reduced)
    try:
        plan = paypal_plan_ensure(tariff=tariff)
        created = _paypal().create_subscription(
            plan_id=plan.paypal_plan_id,
            custom_id=f"tariff-{tariff.pk}-member-{user.pk}",
            given_name=first_name,
            surname=last_name,
            email=email,
            brand_name=settings.STUDIO["name"],
            return_url=f"{settings.SITE_URL}/user/profile#abonnements",
            cancel_url=f"{settings.SITE_URL}/tarifs",
            request_id=f"subscription-{tariff.pk}-{user.pk}-{timezone.now().timestamp():.6f}",
        )
    except ProviderError as exc:
        logger.warning("PayPal subscription for tariff %s refused: %s (%s)", tariff.pk, exc.message, exc.issue)
        raise PaymentError.of("provider_down") from exc
    with transaction.atomic():
        order = PaymentOrder.objects.create(
            order_id=created.id[:64],
            provider=PaymentProviderName.PAYPAL,
            email=email,
            first_name=first_name[:150],
            last_name=last_name[:150],
            title=tariff.title[:200],
            amount=tariff.price,
            type=PAYPAL_SUBSCRIPTION_TYPE,
            user=user,
            tariff=tariff,
            date=timezone.localdate().isoformat(),
            **terms_acceptance_fields(accepted=True, immediate_start=immediate_start),
        )
        reduced_declaration_record(order=order, claim=reduced, proof=proof)
    return order


def paypal_subscription_approved(*, provider_subscription_id: str, user) -> PaymentOrder:
    """The popup said the member approved: the order is APPROVED; the worker then reads PayPal (the task queued by
    the API) and the webhooks do the rest."""
    order = PaymentOrder.objects.filter(order_id=provider_subscription_id, type=PAYPAL_SUBSCRIPTION_TYPE).first()
    if order is None or order.user_id != user.pk:
        raise PaymentError.of("order_not_found")
    return _mark(order_id=order.order_id, status=PaymentStatus.APPROVED, only_from=(PaymentStatus.CREATED,))
