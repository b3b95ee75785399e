"""Staff edits of payment orders (create, update, delete)."""

from django.db import IntegrityError, transaction

from ..models import CURRENCY_EUR, PaymentOrder, PaymentStatus
from .common import (
    MSG_EMAIL_INVALID,
    MSG_ORDER_LIVE_TAKEN,
    MSG_ORDER_NOT_FOUND,
    PaymentError,
    _parse_amount,
    _valid_email,
)

# --- staff edits -----------------------------------------------------------------------------------------------

MSG_REQUIRED_FIELDS = "⚠️ Veuillez remplir tous les champs obligatoires !"
MSG_ORDER_ID_TAKEN = "Une commande avec cet identifiant existe déjà."
MSG_AMOUNT_INVALID = "Le montant doit être un nombre positif."
MSG_STATUS_INVALID = "Statut de paiement inconnu."

STAFF_FIELDS = ("order_id", "email", "first_name", "last_name", "title", "amount", "date", "time", "type", "status")
STAFF_REQUIRED = ("email", "order_id", "amount", "title", "date", "time")


def _staff_values(data: dict) -> dict:
    values = {}
    for name in STAFF_FIELDS + ("message", "currency"):
        if name in data and data[name] is not None:
            values[name] = str(data[name]).strip()
    if any(not values.get(name) for name in STAFF_REQUIRED):
        raise PaymentError(MSG_REQUIRED_FIELDS)
    amount = _parse_amount(values["amount"])
    if amount is None or amount < 0:
        raise PaymentError(MSG_AMOUNT_INVALID)
    values["amount"] = amount
    values["currency"] = CURRENCY_EUR  # DECISIONS.md 16
    if "status" in values and values["status"] not in PaymentStatus.values:
        if not values["status"]:
            values.pop("status")
        else:
            raise PaymentError(MSG_STATUS_INVALID)
    if "type" in values and not values["type"]:
        values.pop("type")
    if not _valid_email(values["email"]):
        raise PaymentError(MSG_EMAIL_INVALID)
    limits = (("order_id", 64), ("title", 200), ("date", 40), ("time", 40), ("type", 30), ("first_name", 150))
    for name, limit in (*limits, ("last_name", 150)):
        if name in values:
            values[name] = values[name][:limit]
    return values


def payment_order_staff_create(*, data: dict) -> PaymentOrder:
    values = _staff_values(data)
    if PaymentOrder.objects.filter(order_id=values["order_id"]).exists():
        raise PaymentError(MSG_ORDER_ID_TAKEN)
    try:
        with transaction.atomic():
            return PaymentOrder.objects.create(provider="manual", **values)
    except IntegrityError:
        raise PaymentError(MSG_ORDER_ID_TAKEN) from None


@transaction.atomic
def payment_order_staff_update(*, order_id: str, data: dict) -> PaymentOrder:
    order = PaymentOrder.objects.select_for_update().filter(order_id=order_id).first()
    if order is None:
        raise PaymentError(MSG_ORDER_NOT_FOUND, status_code=404)
    values = _staff_values(data)
    if values["order_id"] != order.order_id and PaymentOrder.objects.filter(order_id=values["order_id"]).exists():
        raise PaymentError(MSG_ORDER_ID_TAKEN)
    for name, value in values.items():
        setattr(order, name, value)
    try:
        with transaction.atomic():
            order.save()
    except IntegrityError:
        raise PaymentError(MSG_ORDER_LIVE_TAKEN) from None  # one live order per reservation (issue 16)
    return order


MSG_PAID_NOT_DELETED = (
    "Un paiement encaissé ne se supprime pas : changez son statut (« Annulée » ou « Remboursée ») et indiquez la "
    "raison dans le message."
)


def payment_order_staff_delete(*, order_id: str) -> None:
    """Delete an order typed in by mistake. A payment that moved money stays in the records (DECISIONS.md 33)."""
    order = PaymentOrder.objects.filter(order_id=order_id).first()
    if order is None:
        raise PaymentError(MSG_ORDER_NOT_FOUND, status_code=404)
    if order.capture_id or order.status in (PaymentStatus.COMPLETED, PaymentStatus.REFUND_PENDING):
        raise PaymentError(MSG_PAID_NOT_DELETED)
    deleted, _ = PaymentOrder.objects.filter(pk=order.pk).exclude(status=PaymentStatus.COMPLETED).delete()
    if not deleted:
        raise PaymentError(MSG_PAID_NOT_DELETED)
