"""What every payment provider answers and raises, PayPal's (payments/providers.py) and the simulator's
(payments/simulator.py): the statuses, the small dataclasses and ProviderError, in a module both import so that
neither imports the other for them (docs/decisions.md 15)."""

from dataclasses import dataclass, field
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
