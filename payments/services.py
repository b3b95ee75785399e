"""Payment writes: create an order priced by the server, capture it once, apply PayPal's webhooks once.

Provider calls (HTTP) run outside database transactions; every state change then happens under a row lock on the
PaymentOrder (STYLE.md 3), so two captures, or a capture and a webhook, fulfil an order exactly once
(DECISIONS.md 14).
"""

import logging
import uuid
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone

from bookings.models import Reservation, ReservationStatus
from bookings.services import ReservationError, bookings_release_for_refund, pass_grant_for_order, reservation_confirm
from courses.models import Tariff
from studio.emails import send_templated_email

from .models import CURRENCY_EUR, DEFAULT_TIME, PaymentOrder, PaymentStatus, PaymentWebhookEvent
from .providers import (
    CAPTURE_COMPLETED,
    CAPTURE_DECLINED,
    CAPTURE_FAILED,
    CAPTURE_PENDING,
    ProviderCapture,
    ProviderError,
    get_provider,
)

logger = logging.getLogger(__name__)

MSG_INCOMPLETE = "❌ Données de paiement incomplètes. Vérifiez le titre et le type."
MSG_EMAIL_INVALID = "❌ L'email n'est pas valide."
MSG_AMOUNT_MISMATCH = "Le montant ne correspond pas au prix de la commande. Rechargez la page et réessayez."
MSG_RESERVATION_NOT_FOUND = "Cette réservation est introuvable."
MSG_RESERVATION_PAID = "Cette réservation est déjà payée."
MSG_HOLD_EXPIRED = "Le délai de 15 minutes pour payer cette réservation est dépassé. Veuillez réserver à nouveau."
MSG_TARIFF_NOT_FOUND = "Ce tarif est introuvable."
MSG_TARIFF_NOT_ORDERABLE = "Cette offre ne se commande pas en ligne."
MSG_QUANTITY = "La quantité doit être un nombre entre 1 et {max}."
MSG_PROVIDER_DOWN = "Le service de paiement ne répond pas. Veuillez réessayer dans quelques instants."
MSG_ORDER_NOT_FOUND = "Cette commande de paiement est introuvable."
MSG_NOT_APPROVED = "Le paiement n'a pas été validé. Veuillez réessayer."
MSG_DECLINED = "Le paiement a été refusé. Votre place reste réservée jusqu'à {until} : vous pouvez réessayer."
MSG_DECLINED_TARIFF = "Le paiement a été refusé : vous pouvez réessayer avec un autre moyen de paiement."
MSG_PENDING = "Votre paiement est en cours de vérification par PayPal. Vous recevrez un email dès sa validation."
MSG_ORDER_CLOSED = "Cette commande n'est plus payable."
MSG_PAID_BUT_FULL = (
    "Paiement reçu, mais la session est désormais complète : l'équipe du studio vous contacte pour le remboursement."
)
MSG_AMOUNT_CAPTURED_MISMATCH = "Montant capturé différent du montant de la commande : vérification manuelle requise."

MAX_QUANTITY = 50
RESERVATION_TYPE = "COURS"
RECEIPT_SUBJECT = "Votre reçu de paiement"


class PaymentError(Exception):
    def __init__(self, message: str, *, status_code: int = 400):
        super().__init__(message)
        self.message = message
        self.status_code = status_code


@dataclass(frozen=True)
class CaptureOutcome:
    order: PaymentOrder
    completed: bool
    message: str = ""


# --- pricing ---------------------------------------------------------------------------------------------------


MAX_AMOUNT = Decimal("99999999.99")  # what the amount column holds


def _parse_amount(value) -> Decimal | None:
    try:
        amount = Decimal(str(value).strip().replace(",", "."))
        if not amount.is_finite() or abs(amount) > MAX_AMOUNT:
            return None
        return amount.quantize(Decimal("0.01"))
    except (InvalidOperation, ValueError):
        return None


def _valid_email(value: str) -> bool:
    try:
        validate_email(value)
    except ValidationError:
        return False
    return len(value) <= 254


def _held_reservation(*, user, reservation_id: int) -> Reservation:
    """The member's reservation, with its seats still held (DECISIONS.md 13), or PaymentError."""
    reservation = Reservation.objects.select_related("session__course").filter(pk=reservation_id, user=user).first()
    if reservation is None:
        raise PaymentError(MSG_RESERVATION_NOT_FOUND, status_code=404)
    if reservation.status == ReservationStatus.CONFIRMED:
        raise PaymentError(MSG_RESERVATION_PAID)
    now = timezone.now()
    if reservation.status != ReservationStatus.HELD or (
        reservation.hold_expires_at is not None and reservation.hold_expires_at <= now
    ):
        raise PaymentError(MSG_HOLD_EXPIRED)
    return reservation


def _local(dt):
    return timezone.localtime(dt)


# --- create ----------------------------------------------------------------------------------------------------


def payment_order_create(
    *,
    user,
    amount,
    email: str,
    first_name: str,
    last_name: str,
    title: str,
    type: str,
    message: str = "",
    date: str = "",
    time: str = "",
    reservation_id: int | None = None,
    tariff_id: int | None = None,
    quantity: int | None = None,
) -> PaymentOrder:
    """Open an order at the provider for a held reservation or a tariff × quantity, priced from the database.

    The browser's `amount` is only compared with the server's price (DECISIONS.md 12): a mismatch is refused.
    """
    browser_amount = _parse_amount(amount) if amount not in (None, "") else None
    required = [email, first_name, last_name, title, type]
    if browser_amount is None or not all(str(v or "").strip() for v in required):
        raise PaymentError(MSG_INCOMPLETE)
    if bool(reservation_id) == bool(tariff_id):
        raise PaymentError(MSG_INCOMPLETE)
    if not _valid_email(email.strip()):
        raise PaymentError(MSG_EMAIL_INVALID)

    reservation = tariff = None
    if reservation_id:
        reservation = _held_reservation(user=user, reservation_id=reservation_id)
        server_amount = reservation.total_amount
        start = _local(reservation.session.start)
        order_title = reservation.session.course.title
        order_type = RESERVATION_TYPE
        order_date = start.date().isoformat()
        order_time = start.strftime("%H:%M")
        order_quantity = reservation.participants
        description = f"{order_title} – {order_date} {order_time} – {reservation.participants} participant(s)"
    else:
        try:
            order_quantity = int(quantity if quantity is not None else 1)
        except (TypeError, ValueError):
            raise PaymentError(MSG_QUANTITY.format(max=MAX_QUANTITY)) from None
        if not 1 <= order_quantity <= MAX_QUANTITY:
            raise PaymentError(MSG_QUANTITY.format(max=MAX_QUANTITY))
        tariff = Tariff.objects.filter(pk=tariff_id).first()
        if tariff is None:
            raise PaymentError(MSG_TARIFF_NOT_FOUND, status_code=404)
        if tariff.is_party:
            raise PaymentError(MSG_TARIFF_NOT_ORDERABLE)
        server_amount = (tariff.price * order_quantity).quantize(Decimal("0.01"))
        order_title = tariff.title
        order_type = tariff.type.upper()
        order_date = (date or "").strip()[:40] or _local(timezone.now()).date().isoformat()
        order_time = (time or "").strip()[:40] or DEFAULT_TIME
        description = f"{order_title} × {order_quantity}"

    if browser_amount != server_amount:
        raise PaymentError(MSG_AMOUNT_MISMATCH)

    provider = get_provider()
    reference = uuid.uuid4().hex
    try:
        provider_order = provider.create_order(
            amount=server_amount,
            currency=CURRENCY_EUR,
            description=description,
            reference=reference,
            request_id=f"create-{reference}",
        )
    except ProviderError as exc:
        logger.warning("Payment provider refused create-order: %s (%s)", exc.message, exc.issue)
        raise PaymentError(MSG_PROVIDER_DOWN, status_code=502) from exc

    return PaymentOrder.objects.create(
        order_id=provider_order.id,
        provider=provider.name,
        user=user,
        email=email.strip(),
        first_name=first_name.strip()[:150],
        last_name=last_name.strip()[:150],
        title=order_title,
        amount=server_amount,
        currency=CURRENCY_EUR,
        date=order_date,
        time=order_time,
        type=order_type,
        message=(message or "").strip(),
        reservation=reservation,
        tariff=tariff,
        quantity=order_quantity,
        status=PaymentStatus.CREATED,
    )


# --- capture and fulfilment ------------------------------------------------------------------------------------


def _owned_order(*, order_id: str, user) -> PaymentOrder:
    order = PaymentOrder.objects.filter(order_id=order_id).first()
    if order is None or (order.user_id != user.pk and not user.is_studio_staff):
        raise PaymentError(MSG_ORDER_NOT_FOUND, status_code=404)
    return order


def payment_order_fulfil(
    *, order_id: str, capture_id: str = "", amount: Decimal | None = None, currency: str = ""
) -> CaptureOutcome:
    """Mark the order COMPLETED once, confirm what it paid for and send one receipt. Idempotent.

    Called by the browser's capture and by PayPal's webhooks, possibly at the same moment: the row lock decides.
    """
    with transaction.atomic():
        order = PaymentOrder.objects.select_for_update().get(order_id=order_id)
        if order.status == PaymentStatus.COMPLETED:
            return CaptureOutcome(order=order, completed=True, message=order.provider_note)
        if amount is not None and (amount != order.amount or (currency and currency != order.currency)):
            order.provider_note = MSG_AMOUNT_CAPTURED_MISMATCH
            order.save(update_fields=["provider_note", "updated_at"])
            logger.error("Captured %s %s for order %s of %s", amount, currency, order_id, order.amount)
            return CaptureOutcome(order=order, completed=False, message=MSG_AMOUNT_CAPTURED_MISMATCH)
        now = timezone.now()
        order.status = PaymentStatus.COMPLETED
        order.completed_at = now
        order.receipt_sent_at = now
        if capture_id:
            order.capture_id = capture_id
        note = ""
        if order.reservation_id:
            try:
                reservation_confirm(reservation_id=order.reservation_id)
            except ReservationError as exc:
                logger.error("Order %s paid but reservation %s not confirmed: %s", order_id, order.reservation_id, exc)
                note = MSG_PAID_BUT_FULL
        if order.tariff_id:
            # Issue 10: a tariff order grants its class card or subscription, once (the order row lock above and
            # Pass.source_order's uniqueness), in this same transaction.
            pass_grant_for_order(order=order)
        order.provider_note = note
        order.save(
            update_fields=["status", "completed_at", "receipt_sent_at", "capture_id", "provider_note", "updated_at"]
        )
        transaction.on_commit(lambda: _send_receipt(order_pk=order.pk))
    return CaptureOutcome(order=order, completed=True, message=note)


def _mark(*, order_id: str, status: str, note: str = "", only_from: tuple[str, ...] | None = None) -> PaymentOrder:
    with transaction.atomic():
        order = PaymentOrder.objects.select_for_update().get(order_id=order_id)
        if only_from is None or order.status in only_from:
            order.status = status
            if note:
                order.provider_note = note
            order.save(update_fields=["status", "provider_note", "updated_at"])
        return order


OPEN_STATUSES = (PaymentStatus.CREATED, PaymentStatus.APPROVED, PaymentStatus.DECLINED)


def _declined_message(order: PaymentOrder) -> str:
    if order.reservation_id:
        reservation = Reservation.objects.only("hold_expires_at", "status").get(pk=order.reservation_id)
        if reservation.status == ReservationStatus.HELD and reservation.hold_expires_at:
            return MSG_DECLINED.format(until=_local(reservation.hold_expires_at).strftime("%H:%M"))
    return MSG_DECLINED_TARIFF


def _apply_capture(order: PaymentOrder, result: ProviderCapture) -> CaptureOutcome:
    if result.capture_status == CAPTURE_COMPLETED or (result.order_status == "COMPLETED" and not result.capture_status):
        return payment_order_fulfil(
            order_id=order.order_id, capture_id=result.capture_id, amount=result.amount, currency=result.currency
        )
    if result.capture_status in (CAPTURE_DECLINED, CAPTURE_FAILED):
        order = _mark(order_id=order.order_id, status=PaymentStatus.DECLINED, only_from=OPEN_STATUSES)
        return CaptureOutcome(order=order, completed=False, message=_declined_message(order))
    if result.capture_status == CAPTURE_PENDING:
        order = _mark(order_id=order.order_id, status=PaymentStatus.APPROVED, note=MSG_PENDING, only_from=OPEN_STATUSES)
        return CaptureOutcome(order=order, completed=False, message=MSG_PENDING)
    return CaptureOutcome(order=order, completed=False, message=MSG_NOT_APPROVED)


def payment_order_capture(*, order_id: str, user) -> CaptureOutcome:
    """Capture an approved order for its member. Capturing a paid order again answers the same success."""
    order = _owned_order(order_id=order_id, user=user)
    if order.status == PaymentStatus.COMPLETED:
        return CaptureOutcome(order=order, completed=True, message=order.provider_note)
    if order.status in (PaymentStatus.VOIDED, PaymentStatus.REFUNDED):
        raise PaymentError(MSG_ORDER_CLOSED)
    provider = get_provider()
    if provider.name != order.provider:
        raise PaymentError(MSG_ORDER_CLOSED)
    try:
        # One idempotency key per order: PayPal answers a retried capture with the first capture's result.
        result = provider.capture_order(order_id=order.order_id, request_id=f"capture-{order.order_id}")
    except ProviderError as exc:
        logger.warning("Capture of %s refused: %s (%s)", order_id, exc.message, exc.issue)
        if exc.status_code is None or exc.status_code >= 500:
            raise PaymentError(MSG_PROVIDER_DOWN, status_code=502) from exc
        return CaptureOutcome(order=order, completed=False, message=MSG_NOT_APPROVED)
    return _apply_capture(order, result)


def simulator_order_approve(*, order_id: str, user, card_declined: bool) -> None:
    """The simulator's stand-in for the buyer approving at PayPal (only when the simulator is the provider)."""
    from .providers import SimulatorProvider

    order = _owned_order(order_id=order_id, user=user)
    provider = get_provider()
    if not isinstance(provider, SimulatorProvider) or order.provider != provider.name:
        raise PaymentError(MSG_ORDER_NOT_FOUND, status_code=404)
    if order.status in (PaymentStatus.COMPLETED, PaymentStatus.VOIDED, PaymentStatus.REFUNDED):
        raise PaymentError(MSG_ORDER_CLOSED)
    try:
        provider.approve_order(order_id=order.order_id, card_declined=card_declined)
    except ProviderError as exc:
        raise PaymentError(MSG_ORDER_CLOSED) from exc
    _mark(order_id=order.order_id, status=PaymentStatus.APPROVED, only_from=OPEN_STATUSES)


def payment_order_cancel(*, order_id: str, user) -> PaymentOrder:
    """The buyer closed the payment window: an open order becomes VOIDED. The reservation keeps its hold."""
    order = _owned_order(order_id=order_id, user=user)
    return _mark(order_id=order.order_id, status=PaymentStatus.VOIDED, only_from=OPEN_STATUSES)


# --- receipt ---------------------------------------------------------------------------------------------------


def _send_receipt(*, order_pk: int) -> None:
    order = PaymentOrder.objects.select_related("reservation__session__course", "tariff").get(pk=order_pk)
    what = order.title
    if order.reservation_id:
        what = f"{order.title} – séance du {order.date} à {order.time} ({order.quantity} participant(s))"
    elif order.tariff_id:
        what = f"{order.title} × {order.quantity}"
    try:
        send_templated_email(
            to=order.email,
            subject=RECEIPT_SUBJECT,
            template="payments_receipt",
            context={"order": order, "what": what, "demo": order.provider == "simulator"},
        )
    except Exception:  # noqa: BLE001 - the payment stands even when the mail server is down
        logger.exception("Receipt e-mail for order %s could not be sent", order.order_id)


# --- webhooks --------------------------------------------------------------------------------------------------

WEBHOOK_ORDER_APPROVED = "CHECKOUT.ORDER.APPROVED"
WEBHOOK_CAPTURE_COMPLETED = "PAYMENT.CAPTURE.COMPLETED"
WEBHOOK_CAPTURE_DENIED = "PAYMENT.CAPTURE.DENIED"
WEBHOOK_CAPTURE_REFUNDED = "PAYMENT.CAPTURE.REFUNDED"
HANDLED_WEBHOOKS = (WEBHOOK_ORDER_APPROVED, WEBHOOK_CAPTURE_COMPLETED, WEBHOOK_CAPTURE_DENIED, WEBHOOK_CAPTURE_REFUNDED)


def _related_order_id(resource: dict) -> str:
    return ((resource.get("supplementary_data") or {}).get("related_ids") or {}).get("order_id", "")


def _capture_id_from_links(resource: dict) -> str:
    for link in resource.get("links") or []:
        if link.get("rel") == "up" and "/captures/" in link.get("href", ""):
            return link["href"].rstrip("/").rsplit("/", 1)[-1]
    return ""


def payment_webhook_handle(*, event: dict) -> str:
    """Apply one verified PayPal event, once per event id. Returns what was done (for logs and tests)."""
    event_id = str(event.get("id") or "")
    event_type = str(event.get("event_type") or "")
    resource = event.get("resource")
    if not isinstance(resource, dict):
        resource = {}
    if not event_id:
        return "ignored"
    if PaymentWebhookEvent.objects.filter(event_id=event_id).exists():
        return "duplicate"
    if event_type not in HANDLED_WEBHOOKS:
        result = "ignored"
    else:
        result = _handle_event(event_type, resource)
    try:
        with transaction.atomic():
            PaymentWebhookEvent.objects.create(
                event_id=event_id, event_type=event_type[:80], resource_id=str(resource.get("id", ""))[:64]
            )
    except IntegrityError:
        return "duplicate"  # delivered twice at once: the handlers above are idempotent
    return result


def _handle_event(event_type: str, resource: dict) -> str:
    if event_type == WEBHOOK_ORDER_APPROVED:
        order = PaymentOrder.objects.filter(order_id=resource.get("id", "")).first()
        if order is None:
            return "unknown order"
        _mark(order_id=order.order_id, status=PaymentStatus.APPROVED, only_from=(PaymentStatus.CREATED,))
        # The buyer approved but the browser may never come back: capture from here too (same idempotency key).
        provider = get_provider()
        try:
            result = provider.capture_order(order_id=order.order_id, request_id=f"capture-{order.order_id}")
        except ProviderError as exc:
            logger.warning("Webhook capture of %s failed: %s", order.order_id, exc.message)
            return "approved"
        return "completed" if _apply_capture(order, result).completed else "approved"

    if event_type == WEBHOOK_CAPTURE_COMPLETED:
        order = PaymentOrder.objects.filter(order_id=_related_order_id(resource)).first()
        if order is None:
            return "unknown order"
        money = resource.get("amount") or {}
        amount = None
        if money.get("value") is not None:
            amount = _parse_amount(money.get("value")) or Decimal("-1")  # unreadable: never equals the price
        outcome = payment_order_fulfil(
            order_id=order.order_id,
            capture_id=str(resource.get("id", "")),
            amount=amount,
            currency=money.get("currency_code", ""),
        )
        return "completed" if outcome.completed else "mismatch"

    if event_type == WEBHOOK_CAPTURE_DENIED:
        order = PaymentOrder.objects.filter(order_id=_related_order_id(resource)).first()
        if order is None:
            return "unknown order"
        _mark(order_id=order.order_id, status=PaymentStatus.DECLINED, only_from=OPEN_STATUSES)
        return "declined"

    # PAYMENT.CAPTURE.REFUNDED: the resource is the refund; its "up" link names the capture.
    order_id = _related_order_id(resource)
    capture_id = _capture_id_from_links(resource)
    order = (
        PaymentOrder.objects.filter(order_id=order_id).first()
        if order_id
        else PaymentOrder.objects.filter(capture_id=capture_id).exclude(capture_id="").first()
    )
    if order is None:
        return "unknown order"
    with transaction.atomic():
        order = _mark(order_id=order.order_id, status=PaymentStatus.REFUNDED, note="Remboursée via PayPal.")
        bookings_release_for_refund(order=order)
    return "refunded"


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
    order.save()
    return order


def payment_order_staff_delete(*, order_id: str) -> None:
    deleted, _ = PaymentOrder.objects.filter(order_id=order_id).delete()
    if not deleted:
        raise PaymentError(MSG_ORDER_NOT_FOUND, status_code=404)
