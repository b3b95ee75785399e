"""Background work of deposits: the refund of a deposit whose request was refused or cancelled."""

from django.tasks import task

from .services.refunds import payment_order_refund


@task
def payment_deposit_refund(order_id: str) -> str:
    """Refund one deposit marked REFUND_PENDING, through the provider, once (idempotency key per order)."""
    return payment_order_refund(order_id=order_id).status
