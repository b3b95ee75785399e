"""The simulator's bank for saved methods (docs/decisions.md 15): a saved card charged at once, or a SEPA debit that
stays "En cours" until the simulated bank settles it days later, paid, or returned for Stripe's failing test IBAN.

Kept apart from payments/simulator.py (the one-off orders' life cycle): these charges leave no provider-side row,
their outcome is what the member chose when saving the method. References derive from the attempt's request id, so a
repeated call answers the same one.
"""

import uuid
from dataclasses import dataclass

# Stripe's documented test IBANs (stripe.com/docs/testing#sepa-direct-debit), so that a demonstration tried with the
# simulator behaves as it will with Stripe: the first one is paid after processing, the second one is returned.
IBAN_SUCCEEDS = "FR1420041010050500013M02606"
IBAN_RETURNED = "FR8420041010050500013M02607"

OUTCOME_DECLINES = "declines"
OUTCOME_RETURNED = "returned"

PAID, PROCESSING, FAILED = "paid", "processing", "failed"
SIMULATED_PREFIXES = ("SIMCARD-", "SIMSEPA-")  # the references of what this bank charged

NOTE_CARD_DECLINED = "Carte refusée par la banque (simulée)."
NOTE_DEBIT_RETURNED = "Prélèvement rejeté par la banque (simulé)."


@dataclass(frozen=True)
class DebitOutcome:
    """What a charge of a saved method answered: paid, processing (a SEPA debit on its way) or failed, with the
    provider's reference and, when refused, a note for the member and staff."""

    status: str
    reference: str = ""
    note: str = ""


def _reference(prefix: str, request_id: str) -> str:
    return f"{prefix}-{uuid.uuid5(uuid.NAMESPACE_URL, request_id).hex[:20].upper()}"


def simulated_method_charge(*, kind: str, outcome: str, request_id: str) -> DebitOutcome:
    """Charge a simulated saved method once per request id: a card is paid (or refused) at once, a SEPA debit is
    PROCESSING until `simulated_debit_result` settles it."""
    if kind == "sepa_debit":
        return DebitOutcome(PROCESSING, _reference("SIMSEPA", request_id))
    if outcome == OUTCOME_DECLINES:
        return DebitOutcome(FAILED, note=NOTE_CARD_DECLINED)
    return DebitOutcome(PAID, _reference("SIMCARD", request_id))


def simulated_debit_result(*, outcome: str, reference: str) -> DebitOutcome:
    """What the simulated bank answers when it settles a SEPA debit sent days before."""
    if outcome == OUTCOME_RETURNED:
        return DebitOutcome(FAILED, reference, NOTE_DEBIT_RETURNED)
    return DebitOutcome(PAID, reference)
