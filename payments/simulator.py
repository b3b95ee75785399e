"""The built-in payment simulator (docs/decisions.md 15): PayPal's order life cycle (create, approve, capture, refund)
played against the `SimulatedProviderOrder` table, answering the same dataclasses as PayPalProvider
(payments/providers.py), so that the site can be tried end to end without PayPal.
"""

import uuid
from decimal import Decimal

from django.db import connections, router, transaction
from django.utils import timezone

from .models import SimulatedOrderStatus, SimulatedProviderOrder
from .providers import (
    CAPTURE_COMPLETED,
    CAPTURE_DECLINED,
    ISSUE_ORDER_ALREADY_CAPTURED,
    ISSUE_ORDER_NOT_APPROVED,
    ProviderCapture,
    ProviderError,
    ProviderOrder,
    ProviderRefund,
)


def _simulator_columns(*names: str) -> list:
    return [SimulatedProviderOrder._meta.get_field(name) for name in names]


# The simulator's three writes of a booking, each one statement (one round trip each): the order created, approved,
# captured.
_SIM_CREATE = _simulator_columns(
    "order_id",
    "amount",
    "currency",
    "description",
    "status",
    "card_declined",
    "card_declines_later",
    "capture_id",
    "capture_status",
    "refund_id",
    "created_at",
)
_SIM_APPROVE_SET = _simulator_columns("status", "card_declined", "card_declines_later")
_SIM_CAPTURE_SET = _simulator_columns("status", "capture_id", "capture_status")
_SIM_CAPTURED = _simulator_columns("order_id", "status", "capture_id", "capture_status", "amount", "currency")


def _simulator_write(sql: str, params: list, returning: list | None = None):
    """Run one write of the simulator in autocommit: the number of rows written, or with `returning` (its fields, in
    the RETURNING clause's order) the first row written converted as the ORM would, or None.

    The simulator stands in for PayPal's servers: its rows are not this studio's records of money. On PostgreSQL, a
    write outside any transaction therefore commits without waiting for its WAL to reach the disk
    (`synchronous_commit` off for that statement alone, sent with it in one round trip: ~3 ms of waiting per write
    saved, three times a booking). What the studio records afterwards still waits for the disk, and flushing the WAL
    up to that commit flushes the simulator's earlier write with it: after a crash the simulator may have lost only
    a write that no committed payment record followed, and the member's retry redoes it. Inside a transaction (the
    caller's, a test's) the statement is simply run in it."""
    connection = connections[router.db_for_write(SimulatedProviderOrder)]
    with connection.cursor() as cursor:
        if (
            connection.vendor == "postgresql"
            and connection.get_autocommit()
            and not connection.in_atomic_block
            and not connection.settings_dict["OPTIONS"].get("server_side_binding")
        ):
            # One simple-protocol message of two statements: PostgreSQL runs them as one implicit transaction.
            cursor.execute(f"SET LOCAL synchronous_commit TO off; {sql}", params)
            cursor.nextset()
        else:
            cursor.execute(sql, params)
        if returning is None:
            return cursor.rowcount
        row = cursor.fetchone()
    if row is None:
        return None
    values = {}
    for model_field, value in zip(returning, row, strict=True):
        column = model_field.get_col(SimulatedProviderOrder._meta.db_table)
        for convert in connection.ops.get_db_converters(column) + column.get_db_converters(connection):
            value = convert(value, column, connection)
        values[model_field.attname] = value
    return values


def _simulator_sql(connection, text: str, **fields: list) -> str:
    """`text` with {table} and, for each keyword, its fields' quoted columns ({name}) or "column = %s" pairs
    ({name_set})."""
    quote = connection.ops.quote_name
    names = {"table": quote(SimulatedProviderOrder._meta.db_table)}
    for key, columns in fields.items():
        names[key] = ", ".join(quote(f.column) for f in columns)
        names[f"{key}_set"] = ", ".join(f"{quote(f.column)} = %s" for f in columns)
        names[f"{key}_values"] = ", ".join("%s" for _ in columns)
    for name in ("order_id", "status", "card_declined"):
        names[name] = quote(SimulatedProviderOrder._meta.get_field(name).column)
    return text.format(**names)


def _prepared(connection, fields: list, values: list) -> list:
    return [f.get_db_prep_save(v, connection) for f, v in zip(fields, values, strict=True)]


class SimulatorProvider:
    """Stands in for PayPal when no credentials are configured: a demonstration mode, no money moves.

    It keeps the provider's side of each order in SimulatedProviderOrder and behaves like Orders v2: an order must be
    approved by the buyer (the widget's simulated buttons) before it can be captured; a repeated capture is
    ORDER_ALREADY_CAPTURED; a buyer who chose the declined card gets a DECLINED capture.
    """

    name = "simulator"

    @staticmethod
    def _connection():
        return connections[router.db_for_write(SimulatedProviderOrder)]

    def create_order(
        self, *, amount: Decimal, currency: str, description: str, reference: str, request_id: str
    ) -> ProviderOrder:
        connection = self._connection()
        order_id = f"SIM-{uuid.uuid4().hex[:17].upper()}"
        values = [
            order_id,
            amount,
            currency,
            description[:200],
            SimulatedOrderStatus.CREATED,
            False,
            False,
            "",
            "",
            "",
            timezone.now(),
        ]
        sql = _simulator_sql(connection, "INSERT INTO {table} ({create}) VALUES ({create_values})", create=_SIM_CREATE)
        _simulator_write(sql, _prepared(connection, _SIM_CREATE, values))
        return ProviderOrder(id=order_id, status=SimulatedOrderStatus.CREATED)

    def approve_order(self, *, order_id: str, card_declined: bool, declines_later: bool = False) -> None:
        """What the buyer does on PayPal's side: approve, with a card that will or will not be declined (or, for a
        subscription, that pays now and is declined at the next charges: `declines_later`)."""
        # One UPDATE: its row lock decides against a concurrent capture (a paid order is never approved again).
        connection = self._connection()
        sql = _simulator_sql(
            connection,
            "UPDATE {table} SET {approve_set} WHERE {order_id} = %s AND NOT ({status} = %s)",
            approve=_SIM_APPROVE_SET,
        )
        values = _prepared(connection, _SIM_APPROVE_SET, [SimulatedOrderStatus.APPROVED, card_declined, declines_later])
        if not _simulator_write(sql, [*values, order_id, SimulatedOrderStatus.COMPLETED]):
            if SimulatedProviderOrder.objects.filter(order_id=order_id).exists():
                raise ProviderError("Commande déjà payée.", issue=ISSUE_ORDER_ALREADY_CAPTURED, status_code=422)
            raise ProviderError("Commande inconnue.", issue="RESOURCE_NOT_FOUND", status_code=404)

    def capture_order(self, *, order_id: str, request_id: str) -> ProviderCapture:
        # The usual case, an approved order and a good card, in one UPDATE guarded by that state, answering the row
        # it wrote: its row lock decides against a concurrent capture, which finds the order COMPLETED below (a
        # replay).
        connection = self._connection()
        sql = _simulator_sql(
            connection,
            "UPDATE {table} SET {capture_set} WHERE {order_id} = %s AND {status} = %s AND NOT {card_declined} "
            "RETURNING {captured}",
            capture=_SIM_CAPTURE_SET,
            captured=_SIM_CAPTURED,
        )
        capture_id = f"SIMCAP-{uuid.uuid4().hex[:14].upper()}"
        values = _prepared(
            connection, _SIM_CAPTURE_SET, [SimulatedOrderStatus.COMPLETED, capture_id, CAPTURE_COMPLETED]
        )
        captured = _simulator_write(sql, [*values, order_id, SimulatedOrderStatus.APPROVED], returning=_SIM_CAPTURED)
        if captured is not None:
            return self._as_capture(SimulatedProviderOrder(**captured))
        with transaction.atomic():
            order = SimulatedProviderOrder.objects.select_for_update().filter(order_id=order_id).first()
            if order is None:
                raise ProviderError("Commande inconnue.", issue="RESOURCE_NOT_FOUND", status_code=404)
            if order.status == SimulatedOrderStatus.COMPLETED:
                already_captured = True
            elif order.status != SimulatedOrderStatus.APPROVED:
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

    def refund_capture(self, *, capture_id: str, request_id: str) -> ProviderRefund:
        """Record the refund of a whole capture, once: a second call answers the first refund."""
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
