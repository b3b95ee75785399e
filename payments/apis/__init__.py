"""Payment APIs under /api/paypal/ (docs/decisions.md 1), split by who calls them: the member's checkout, PayPal's
webhook, the staff's order list. The views' names are re-exported here (`payments.apis.<name>`)."""

from .checkout import (
    CancelOrderApi,
    CapturePaymentApi,
    CreateOrderApi,
    PaymentConfigApi,
    SimulatorApproveApi,
)
from .staff import PaymentOrderDetailApi, PaymentOrderOutput, PaymentOrdersApi
from .webhooks import MSG_WEBHOOK_FAILED, MSG_WEBHOOK_INVALID, MSG_WEBHOOK_REFUSED, WEBHOOK_QUEUED, WebhookApi

__all__ = [
    "MSG_WEBHOOK_FAILED",
    "MSG_WEBHOOK_INVALID",
    "MSG_WEBHOOK_REFUSED",
    "WEBHOOK_QUEUED",
    "CancelOrderApi",
    "CapturePaymentApi",
    "CreateOrderApi",
    "PaymentConfigApi",
    "PaymentOrderDetailApi",
    "PaymentOrderOutput",
    "PaymentOrdersApi",
    "SimulatorApproveApi",
    "WebhookApi",
]
