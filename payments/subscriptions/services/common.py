"""Subscriptions billed per period (docs/decisions.md 24–26): what a subscription is and when its periods fall.

A tariff priced per period ("55 € par mois") bought online starts a Subscription: the purchase order pays the first
period(s), each later period is a SubscriptionCharge row (unique per subscription and period) charged on its due date.
With the simulator, the studio's scheduler charges it (`subscription_charges_run`, daily task and `run_due_jobs`).

A failed period is retried 3 days later and the member is e-mailed each time with "Payer maintenant" (the profile);
7 days after its due date the pass books nothing new until it is paid (bookings' PassRule.blocked_from).

This module keeps the shared names (messages, errors, delays), the dates of the periods and the start; by concern,
charging is in charging.py, e-mails in emails.py, freezes and the daily run in
lifecycle.py, staff actions in staff.py (callers import each name from its module). Row
locks follow the order written down in payments/services/locking.py (PaymentOrder → Subscription →
SubscriptionCharge → Pass).
"""

from datetime import timedelta

from django.utils import timezone

from bookings.services.passes import tariff_billing_period_months
from studio.errors import CONFLICT, NOT_FOUND, ApplicationError

from ...models import PaymentOrder, SimulatedProviderOrder
from ...simulator import SimulatorProvider
from ..models import (
    ChargeStatus,
    SavedMethodStatus,
    SavedPaymentMethod,
    Subscription,
    SubscriptionCharge,
    SubscriptionStatus,
)
from ..periods import period_due_on, tariff_commitment_periods

RETRY_AFTER_DAYS = 3
BLOCKED_AFTER_DAYS = 7
STALE_PROCESSING = timedelta(minutes=15)  # a runner that died mid-charge: the next run resumes with the same key
LIVE_STATUSES = (SubscriptionStatus.ACTIVE, SubscriptionStatus.UNPAID)
UNPAID_CHARGES = (ChargeStatus.DUE, ChargeStatus.FAILED, ChargeStatus.PROCESSING)

MSG_SUBSCRIPTION_NOT_FOUND = "Cet abonnement est introuvable."
MSG_NOTHING_DUE = "Aucune échéance n'est à payer sur cet abonnement."
MSG_PAY_NOW_DECLINED = "Le paiement de l'échéance a été refusé : réessayez avec un autre moyen de paiement."
MSG_PAY_NOW_PROVIDER = "Le paiement d'une échéance se fait chez PayPal pour cet abonnement."
MSG_PAY_AT_DESK = "Cette échéance se règle à l'accueil du studio, ou enregistrez une carte pour la payer en ligne."
MSG_FREEZE_WEEKS = "Le gel dure de 1 à 52 semaines."
MSG_FREEZE_REASON = "Indiquez la raison du gel (ex. blessure) : elle est gardée dans l'historique."
MSG_FREEZE_DATE = "Le gel commence entre aujourd'hui et la fin de l'engagement ({end})."
MSG_NOT_LIVE = "Cet abonnement est terminé ou annulé : il ne peut plus être modifié."
MAX_FREEZE_WEEKS = 52
CHARGE_FAILED_SUBJECT = "Échéance de votre abonnement impayée"
CHARGE_PAID_SUBJECT = "Votre reçu d'échéance d'abonnement"
RENEWAL_SUBJECT = "Votre abonnement se termine bientôt : renouvelez-le"
RENEWAL_DAYS_BEFORE = 15
SEPA_NOTICE_SUBJECT = "Prochain prélèvement SEPA de votre abonnement"


class SubscriptionError(ApplicationError):
    default_code = "subscription_invalid"
    messages = {
        "subscription_not_found": MSG_SUBSCRIPTION_NOT_FOUND,
        "nothing_due": MSG_NOTHING_DUE,
        "pay_now_declined": MSG_PAY_NOW_DECLINED,
        "pay_now_provider": MSG_PAY_NOW_PROVIDER,
        "pay_at_desk": MSG_PAY_AT_DESK,
        "freeze_weeks": MSG_FREEZE_WEEKS,
        "freeze_reason": MSG_FREEZE_REASON,
        "freeze_date": MSG_FREEZE_DATE,
        "not_live": MSG_NOT_LIVE,
    }
    statuses = {
        "subscription_not_found": NOT_FOUND,
        "nothing_due": CONFLICT,
        "pay_now_declined": CONFLICT,
        "pay_now_provider": CONFLICT,
        "pay_at_desk": CONFLICT,
        "not_live": CONFLICT,
    }


# --- start ------------------------------------------------------------------------------------------------------


def subscription_start_for_order(*, order: PaymentOrder) -> Subscription | None:
    """Called by the capture, under the order's row lock, once the order granted its pass: a tariff priced per
    period starts a subscription whose first period(s) the order paid. Idempotent (one subscription per order)."""
    if not order.granted_pass_id or not order.tariff_id:
        return None
    existing = Subscription.objects.filter(source_order=order).first()
    if existing is not None:
        return existing
    tariff = order.tariff
    period = tariff_billing_period_months(tariff)
    if period is None or not tariff.pass_unlimited:
        return None
    committed = tariff_commitment_periods(tariff, period)
    paid = min(max(order.quantity, 1), committed)
    pass_obj = order.granted_pass
    declines_later = order.provider == SimulatorProvider.name and (
        SimulatedProviderOrder.objects.filter(order_id=order.order_id, card_declines_later=True).exists()
    )
    # The member's saved card or mandate of the same provider pays the later periods (saved before paying the first).
    saved_method = SavedPaymentMethod.objects.filter(
        member_id=order.user_id, provider=order.provider, status=SavedMethodStatus.ACTIVE
    ).first()
    subscription = Subscription.objects.create(
        member_id=order.user_id,
        saved_method=saved_method,
        tariff=tariff,
        title=tariff.title[:150],
        provider=order.provider,
        source_order=order,
        granted_pass=pass_obj,
        amount=tariff.price,
        currency=order.currency,
        period_months=period,
        periods_committed=committed,
        periods_paid=paid,
        starts_on=pass_obj.starts_on,
        simulated_card_declines=declines_later,  # the member chose a card that pays now and fails later
        provider_subscription_id=order.order_id if order.type == "ABONNEMENT_PAYPAL" else "",
    )
    now = timezone.now()
    SubscriptionCharge.objects.bulk_create(
        SubscriptionCharge(
            subscription=subscription,
            period=n,
            due_on=period_due_on(subscription, n),
            amount=tariff.price,
            status=ChargeStatus.PAID,
            attempts=1,
            provider_reference=(order.capture_id or order.order_id)[:64],
            paid_at=now,
        )
        for n in range(1, paid + 1)
    )
    # The tariff's weekly cap came with the pass at its grant (bookings' pass_rules_from_tariff, docs/decisions.md 26).
    return subscription
