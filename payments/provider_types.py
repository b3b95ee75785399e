"""What every payment provider answers and raises, PayPal's (payments/providers.py), Stripe's
(payments/stripe_gateway.py) and the simulator's (payments/simulator.py): the statuses, the small dataclasses and
ProviderError, in a module they all import so that none imports another for them (docs/decisions.md 15)."""

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

# PayPal answers ORDER_ALREADY_CAPTURED when a capture is repeated with a new request id.
ISSUE_ORDER_ALREADY_CAPTURED = "ORDER_ALREADY_CAPTURED"
ISSUE_INSTRUMENT_DECLINED = "INSTRUMENT_DECLINED"
ISSUE_ORDER_NOT_APPROVED = "ORDER_NOT_APPROVED"
ISSUE_CAPTURE_FULLY_REFUNDED = "CAPTURE_FULLY_REFUNDED"

CAPTURE_COMPLETED = "COMPLETED"
CAPTURE_DECLINED = "DECLINED"
CAPTURE_PENDING = "PENDING"
CAPTURE_FAILED = "FAILED"


class ProviderError(Exception):
    """The provider refused or could not be reached. `issue` is PayPal's issue code when it gave one."""

    def __init__(self, message: str, *, issue: str = "", status_code: int | None = None, debug_id: str = ""):
        super().__init__(message)
        self.message = message
        self.issue = issue
        self.status_code = status_code
        self.debug_id = debug_id


@dataclass(frozen=True)
class ProviderOrder:
    id: str
    status: str


@dataclass(frozen=True)
class ProviderCapture:
    """An order as the provider sees it after a capture (or a GET): the order's status and its capture's."""

    order_id: str
    order_status: str
    capture_id: str = ""
    capture_status: str = ""
    amount: Decimal | None = None
    currency: str = ""
    raw: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class ProviderRefund:
    """A refund of a whole capture: PayPal's refund id and status (COMPLETED, PENDING, FAILED or CANCELLED)."""

    id: str
    status: str


REFUND_ACCEPTED = ("COMPLETED", "PENDING")

# Stripe's PaymentIntents add two outcomes PayPal's orders do not have: the bank asks the member to authenticate
# (3-D Secure, or an off-session charge the bank wants confirmed), and a payment canceled before it was made.
CAPTURE_ACTION_REQUIRED = "ACTION_REQUIRED"
CAPTURE_CANCELLED = "CANCELLED"


@dataclass(frozen=True)
class PaymentStart:
    """A payment (or a saving of a payment method) just opened at the provider: what the page needs to go on.

    `client_secret` is handed to Stripe.js on the member's page only; `next_action` is Stripe's next_action.type
    ("use_stripe_sdk", "redirect_to_url") when the bank asks for authentication."""

    id: str
    status: str
    client_secret: str = field(default="", repr=False)
    next_action: str = ""
    next_action_url: str = ""


@dataclass(frozen=True)
class PaymentState:
    """Where a payment stands at the provider. `status` is ours (CAPTURE_*, "" while nothing was attempted),
    `provider_status` the provider's; a decline keeps the provider's `decline_code` and a French `message` fit to
    show the member."""

    id: str
    status: str
    provider_status: str
    amount: Decimal | None = None
    currency: str = ""
    charge_id: str = ""
    payment_method_id: str = ""
    customer_id: str = ""
    decline_code: str = ""
    message: str = ""
    client_secret: str = field(default="", repr=False)
    next_action: str = ""
    metadata: dict = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class SetupState:
    """Where the saving of a card or a SEPA account stands (status as PaymentState's) and what it saved."""

    id: str
    status: str
    provider_status: str
    customer_id: str = ""
    payment_method_id: str = ""
    mandate_id: str = ""
    decline_code: str = ""
    message: str = ""


@dataclass(frozen=True)
class ProviderCustomer:
    id: str
    email: str = ""
    name: str = ""


@dataclass(frozen=True)
class SavedMethod:
    """A saved card or SEPA account, in the words a member recognises it by.

    kind is "card" or "sepa_debit"; `cb_preferred` says a co-badged card goes through Cartes Bancaires; a SEPA
    account carries its mandate's reference and the moment it was accepted online."""

    id: str
    kind: str
    last4: str
    brand: str = ""
    exp_month: int | None = None
    exp_year: int | None = None
    cb_preferred: bool = False
    country: str = ""
    bank_code: str = ""
    mandate_id: str = ""
    mandate_reference: str = ""
    mandate_status: str = ""
    mandate_accepted_at: datetime | None = None

    @property
    def label(self) -> str:
        if self.kind == "sepa_debit":
            return f"Prélèvement SEPA •••• {self.last4}"
        brand = "CB" if self.cb_preferred else (BRAND_LABELS.get(self.brand) or self.brand.capitalize())
        expiry = f" (exp. {self.exp_month:02d}/{self.exp_year})" if self.exp_month and self.exp_year else ""
        return f"Carte {brand} •••• {self.last4}{expiry}"


BRAND_LABELS = {"visa": "Visa", "mastercard": "Mastercard", "amex": "American Express", "cartes_bancaires": "CB"}
