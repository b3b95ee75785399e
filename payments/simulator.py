"""The built-in payment simulator (docs/decisions.md 15): PayPal's order life cycle (create, approve, capture, refund)
played against the `SimulatedProviderOrder` table, answering the same dataclasses as PayPalProvider
(payments/providers.py), so that the site can be tried end to end without PayPal.
"""

import uuid
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction

from .choices import PaymentMethod
from .models import SimulatedChallenge, SimulatedOrderStatus, SimulatedProviderOrder
from .provider_types import (
    CAPTURE_COMPLETED,
    CAPTURE_DECLINED,
    ISSUE_ORDER_ALREADY_CAPTURED,
    ISSUE_ORDER_NOT_APPROVED,
    ProviderCapture,
    ProviderError,
    ProviderOrder,
    ProviderRefund,
)

# The ways a French member pays one-off that the simulator plays (docs/decisions.md 42): a card, which the bank may
# challenge (3-D Secure) or decline, and a wallet, which a bank never challenges (the phone authenticated the payer).
METHOD_CARD = PaymentMethod.CARD.value
METHOD_WALLET = PaymentMethod.WALLET.value
WALLET_APPLE_PAY = "apple_pay"
WALLET_GOOGLE_PAY = "google_pay"
WALLET_LABELS = {WALLET_APPLE_PAY: "Apple Pay", WALLET_GOOGLE_PAY: "Google Pay"}
SCENARIO_SUCCESS = "success"
SCENARIO_CHALLENGE = "challenge"
SCENARIO_DECLINED = "declined"
SCENARIOS = {
    METHOD_CARD: (SCENARIO_SUCCESS, SCENARIO_CHALLENGE, SCENARIO_DECLINED),
    METHOD_WALLET: (SCENARIO_SUCCESS, SCENARIO_DECLINED),
}
# The simulator's one card: Stripe's test Visa number, co-badged Cartes Bancaires as most French cards are, paid
# through CB as the studio's Stripe account prefers.
CARD_LABEL = "Carte •••• 4242 (CB)"
# Why the simulator refuses a capture besides a decline (PayPal's issue name for a bank's 3-D Secure step).
ISSUE_AUTHENTICATION_REQUIRED = "PAYER_ACTION_REQUIRED"
ISSUE_AUTHENTICATION_FAILED = "AUTHENTICATION_FAILED"
ISSUE_NO_CHALLENGE = "NO_CHALLENGE"
# What a declined capture's `raw` says of the scenario the buyer approved with.
RAW_SCENARIO = "simulated_scenario"


def method_label(method: str, wallet: str = WALLET_APPLE_PAY) -> str:
    """How the staff's lists name the simulated method: "Carte •••• 4242 (CB)", "Apple Pay", "Google Pay"."""
    if method == METHOD_WALLET:
        return WALLET_LABELS[wallet]
    return CARD_LABEL


@dataclass(frozen=True)
class ChallengeAnswer:
    """Where a challenged order stands after the buyer's answer: `state` PASSED or FAILED, `approved` when the
    order may be captured, `changed` when this call settled the challenge (a repeated call changes nothing)."""

    state: str
    approved: bool
    changed: bool


class SimulatorProvider:
    """Stands in for PayPal when no credentials are configured: a demonstration mode, no money moves.

    It keeps the provider's side of each order in SimulatedProviderOrder and behaves like Orders v2: an order must be
    approved by the buyer (the widget's simulated buttons) before it can be captured; a repeated capture is
    ORDER_ALREADY_CAPTURED; a buyer who chose the declined card gets a DECLINED capture.
    """

    name = "simulator"

    def create_order(
        self, *, amount: Decimal, currency: str, description: str, reference: str, request_id: str
    ) -> ProviderOrder:
        order_id = f"SIM-{uuid.uuid4().hex[:17].upper()}"
        SimulatedProviderOrder.objects.create(
            order_id=order_id,
            amount=amount,
            currency=currency,
            description=description[:200],
            status=SimulatedOrderStatus.CREATED,
        )
        return ProviderOrder(id=order_id, status=SimulatedOrderStatus.CREATED)

    def approve_order(
        self,
        *,
        order_id: str,
        card_declined: bool,
        declines_later: bool = False,
        method: str = METHOD_CARD,
        wallet: str = WALLET_APPLE_PAY,
        scenario: str = SCENARIO_SUCCESS,
    ) -> bool:
        """What the buyer does on the provider's side: approve with a card or a wallet that will or will not be
        declined (or, for a subscription, that pays now and is declined at the next charges: `declines_later`).
        A card the bank challenges (`scenario` "challenge") is not approved until the buyer authenticates
        (`authenticate`): returns True then. Each call is a new attempt, replacing the previous one."""
        challenged = scenario == SCENARIO_CHALLENGE
        # One UPDATE: its row lock decides against a concurrent capture (a paid order is never approved again).
        approved = (
            SimulatedProviderOrder.objects.filter(order_id=order_id)
            .exclude(status=SimulatedOrderStatus.COMPLETED)
            .update(
                status=SimulatedOrderStatus.CREATED if challenged else SimulatedOrderStatus.APPROVED,
                card_declined=card_declined or scenario == SCENARIO_DECLINED,
                card_declines_later=declines_later,
                method=method,
                method_label=method_label(method, wallet),
                scenario=scenario,
                challenge=SimulatedChallenge.PENDING if challenged else "",
            )
        )
        if not approved:
            if SimulatedProviderOrder.objects.filter(order_id=order_id).exists():
                raise ProviderError("Commande déjà payée.", issue=ISSUE_ORDER_ALREADY_CAPTURED, status_code=422)
            raise ProviderError("Commande inconnue.", issue="RESOURCE_NOT_FOUND", status_code=404)
        return challenged

    def challenge_state(self, *, order_id: str) -> str:
        """The order's challenge: "" (none asked), PENDING, PASSED or FAILED."""
        state = SimulatedProviderOrder.objects.filter(order_id=order_id).values_list("challenge", flat=True).first()
        if state is None:
            raise ProviderError("Commande inconnue.", issue="RESOURCE_NOT_FOUND", status_code=404)
        return state

    def authenticate(self, *, order_id: str, passed: bool) -> ChallengeAnswer:
        """The buyer's answer to the bank's challenge, settled once under the order's row lock: a passed challenge
        approves the order, a refused one leaves it unpayable until another attempt. A second answer (or two at
        once) is told the first one's result and changes nothing."""
        with transaction.atomic():
            order = SimulatedProviderOrder.objects.select_for_update().filter(order_id=order_id).first()
            if order is None:
                raise ProviderError("Commande inconnue.", issue="RESOURCE_NOT_FOUND", status_code=404)
            if not order.challenge:
                raise ProviderError("Aucune authentification attendue.", issue=ISSUE_NO_CHALLENGE, status_code=422)
            changed = order.challenge == SimulatedChallenge.PENDING
            if changed:
                order.challenge = SimulatedChallenge.PASSED if passed else SimulatedChallenge.FAILED
                if passed:
                    order.status = SimulatedOrderStatus.APPROVED
                order.save(update_fields=["challenge", "status"])
        return ChallengeAnswer(
            state=order.challenge, approved=order.status == SimulatedOrderStatus.APPROVED, changed=changed
        )

    def payment_method_of(self, *, order_id: str) -> tuple[str, str] | None:
        """The method the buyer approved the order with and its label; None before any approval."""
        found = SimulatedProviderOrder.objects.filter(order_id=order_id).values_list("method", "method_label").first()
        return found if found and found[0] else None

    def capture_order(self, *, order_id: str, request_id: str) -> ProviderCapture:
        # The order's row lock decides against a concurrent capture, which then finds it COMPLETED (a replay).
        with transaction.atomic():
            order = SimulatedProviderOrder.objects.select_for_update().filter(order_id=order_id).first()
            if order is None:
                raise ProviderError("Commande inconnue.", issue="RESOURCE_NOT_FOUND", status_code=404)
            if order.status == SimulatedOrderStatus.COMPLETED:
                already_captured = True
            elif order.status != SimulatedOrderStatus.APPROVED:
                if order.challenge == SimulatedChallenge.PENDING:
                    raise ProviderError(
                        "Authentification 3-D Secure en attente.", issue=ISSUE_AUTHENTICATION_REQUIRED, status_code=422
                    )
                if order.challenge == SimulatedChallenge.FAILED:
                    raise ProviderError(
                        "Authentification 3-D Secure refusée.", issue=ISSUE_AUTHENTICATION_FAILED, status_code=422
                    )
                raise ProviderError(
                    "Le paiement n'a pas été approuvé.", issue=ISSUE_ORDER_NOT_APPROVED, status_code=422
                )
            elif order.card_declined:
                # As PayPal: the capture is refused, the order stays approved so the buyer may try another card.
                order.card_declined = False
                order.status = SimulatedOrderStatus.CREATED
                order.save(update_fields=["card_declined", "status"])
                return ProviderCapture(
                    order_id=order_id,
                    order_status="APPROVED",
                    capture_status=CAPTURE_DECLINED,
                    amount=order.amount,
                    currency=order.currency,
                    raw={RAW_SCENARIO: order.scenario},
                )
            else:
                already_captured = False
                order.status = SimulatedOrderStatus.COMPLETED
                order.capture_id = f"SIMCAP-{uuid.uuid4().hex[:14].upper()}"
                order.capture_status = CAPTURE_COMPLETED
                order.save(update_fields=["status", "capture_id", "capture_status"])
        if already_captured:
            # Same path as PayPal's ORDER_ALREADY_CAPTURED: read the order again.
            return self.get_order(order_id=order_id)
        return self._as_capture(order)

    def get_order(self, *, order_id: str) -> ProviderCapture:
        order = SimulatedProviderOrder.objects.filter(order_id=order_id).first()
        if order is None:
            raise ProviderError("Commande inconnue.", issue="RESOURCE_NOT_FOUND", status_code=404)
        return self._as_capture(order)

    def refund_capture(self, *, capture_id: str, request_id: str, amount: Decimal | None = None) -> ProviderRefund:
        """Record the refund of a capture (whole, or `amount` of it), once: a second call answers the first refund."""
        with transaction.atomic():
            order = SimulatedProviderOrder.objects.select_for_update().filter(capture_id=capture_id).first()
            if order is None or not capture_id:
                raise ProviderError("Capture inconnue.", issue="RESOURCE_NOT_FOUND", status_code=404)
            if not order.refund_id:
                order.refund_id = f"SIMREF-{uuid.uuid4().hex[:14].upper()}"
                order.capture_status = "REFUNDED"
                order.save(update_fields=["refund_id", "capture_status"])
        return ProviderRefund(id=order.refund_id, status="COMPLETED")

    @staticmethod
    def _as_capture(order: SimulatedProviderOrder) -> ProviderCapture:
        return ProviderCapture(
            order_id=order.order_id,
            order_status=order.status,
            capture_id=order.capture_id,
            capture_status=order.capture_status,
            amount=order.amount,
            currency=order.currency,
        )

    def verify_webhook(self, *, headers, event: dict) -> bool:
        return False  # nobody sends the simulator webhooks

    def charge_saved_card(
        self, *, amount: Decimal, currency: str, description: str, request_id: str, card_declined: bool
    ) -> ProviderCapture:
        """Charge the subscriber's saved (simulated) card once per request id: a repeated call with the
        same id answers the first result, as PayPal's PayPal-Request-Id does."""
        order_id = f"SIMSUB-{uuid.uuid5(uuid.NAMESPACE_URL, request_id).hex[:20].upper()}"
        with transaction.atomic():
            order, created = SimulatedProviderOrder.objects.select_for_update().get_or_create(
                order_id=order_id,
                defaults={"amount": amount, "currency": currency, "description": description[:200]},
            )
            if created:
                order.card_declined = card_declined
                if card_declined:
                    order.capture_status = CAPTURE_DECLINED
                    order.save(update_fields=["card_declined", "capture_status"])
                else:
                    order.status = SimulatedOrderStatus.COMPLETED
                    order.capture_id = f"SIMCAP-{uuid.uuid4().hex[:14].upper()}"
                    order.capture_status = CAPTURE_COMPLETED
                    order.save(update_fields=["status", "capture_id", "capture_status"])
        return self._as_capture(order)
