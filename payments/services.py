"""Payment writes: create an order priced by the server, capture it once, apply PayPal's webhooks once.

Provider calls (HTTP) run outside database transactions; every state change then happens under a row lock on the
PaymentOrder (STYLE.md 3), so two captures, or a capture and a webhook, fulfil an order exactly once
(DECISIONS.md 14).

Issue 16: a reservation has at most one live order (CREATED, APPROVED, DECLINED or COMPLETED; a database constraint),
and money captured for nothing in return (seats lost, reservation changed or paid already, order cancelled) is never
kept: the order becomes REFUND_PENDING under its lock, the provider refunds it after the commit (idempotency key
`refund-<order id>`), then REFUNDED, the member told in the answer and by e-mail.
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
from bookings.services import (
    ReservationError,
    bookings_release_for_refund,
    pass_grant_for_order,
    reservation_confirm_for_payment,
    tariff_priced_per_short_period,
)
from courses.models import CourseSession, Tariff
from studio.emails import send_templated_email

from .models import CURRENCY_EUR, DEFAULT_TIME, PaymentOrder, PaymentStatus, PaymentWebhookEvent
from .providers import (
    CAPTURE_COMPLETED,
    CAPTURE_DECLINED,
    CAPTURE_FAILED,
    CAPTURE_PENDING,
    REFUND_ACCEPTED,
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
MSG_ORDER_NOT_CANCELLABLE = "Ce paiement est déjà terminé : il ne peut plus être annulé ici."
MSG_AMOUNT_CAPTURED_MISMATCH = "Montant capturé différent du montant de la commande : vérification manuelle requise."
# Money captured for nothing in return goes back (issue 16). {reason} says why, {amount} is in French ("25,00").
MSG_REFUNDED = (
    "{reason} Votre paiement de {amount} € vous est remboursé automatiquement : le remboursement apparaîtra sous "
    "quelques jours sur votre moyen de paiement."
)
MSG_REFUND_PENDING = (
    "{reason} Votre paiement de {amount} € va vous être remboursé automatiquement : le remboursement est en cours."
)
MSG_ORDER_WAS_CANCELLED = "Ce paiement avait été annulé."
MSG_RESERVATION_CHANGED = "La réservation a changé pendant la préparation du paiement. Rechargez la page et réessayez."
MSG_ORDER_LIVE_TAKEN = "Cette réservation a déjà une commande en cours ou payée : une seule à la fois."
REFUND_SUBJECT = "Votre remboursement"

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
    refunded: bool = False  # the money came back to the buyer (or is on its way): nothing was bought


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
        if tariff.is_party or tariff.price <= 0 or (tariff.grants_pass and tariff_priced_per_short_period(tariff)):
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
    if reservation is not None:
        # One live order per reservation (issue 16): asking again answers the order being paid.
        live = reservation.payment_orders.filter(status__in=OPEN_STATUSES).order_by("-id").first()
        if live is not None:
            if live.provider == provider.name and live.amount == server_amount and live.quantity == order_quantity:
                return live
            _mark(order_id=live.order_id, status=PaymentStatus.VOIDED, only_from=OPEN_STATUSES)
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

    fields = dict(
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
    if reservation is None:
        return PaymentOrder.objects.create(**fields)
    return _reservation_order_insert(reservation=reservation, fields=fields)


def _reservation_order_insert(*, reservation: Reservation, fields: dict) -> PaymentOrder:
    """Record the order under the session and reservation locks (bookings' lock order), so the hold cannot change
    its participants or price in between, and at most one order is live (the constraint stands behind it)."""
    try:
        with transaction.atomic():
            CourseSession.objects.select_for_update().filter(pk=reservation.session_id).first()
            current = Reservation.objects.select_for_update().get(pk=reservation.pk)
            if current.status != ReservationStatus.HELD or (
                current.hold_expires_at is not None and current.hold_expires_at <= timezone.now()
            ):
                raise PaymentError(MSG_HOLD_EXPIRED)
            if current.participants != fields["quantity"] or current.total_amount != fields["amount"]:
                raise PaymentError(MSG_RESERVATION_CHANGED, status_code=409)
            live = current.payment_orders.filter(status__in=OPEN_STATUSES).order_by("-id").first()
            if live is not None:
                return live
            return PaymentOrder.objects.create(**fields)
    except IntegrityError:
        live = reservation.payment_orders.filter(status__in=OPEN_STATUSES).order_by("-id").first()
        if live is None:
            raise PaymentError(MSG_RESERVATION_PAID) from None
        return live


# --- capture and fulfilment ------------------------------------------------------------------------------------


def _owned_order(*, order_id: str, user) -> PaymentOrder:
    order = PaymentOrder.objects.filter(order_id=order_id).first()
    if order is None or (order.user_id != user.pk and not user.is_studio_staff):
        raise PaymentError(MSG_ORDER_NOT_FOUND, status_code=404)
    return order


def payment_order_fulfil(
    *, order_id: str, capture_id: str = "", amount: Decimal | None = None, currency: str = ""
) -> CaptureOutcome:
    """Money was captured for this order: confirm what it paid for and send one receipt, once. Idempotent.

    Called by the browser's capture and by PayPal's webhooks, possibly at the same moment: the row lock decides.
    What is confirmed equals what was paid (issue 16): the order must still be open and, for a reservation, the
    reservation still held, unpaid, with the participants and amount of the order and its seats. Otherwise nothing
    is confirmed and the money goes back (REFUND_PENDING, then the provider's refund after the commit).
    """
    with transaction.atomic():
        order = PaymentOrder.objects.select_for_update().get(order_id=order_id)
        if order.status == PaymentStatus.COMPLETED:
            return CaptureOutcome(order=order, completed=True, message=order.provider_note)
        if order.status in (PaymentStatus.REFUND_PENDING, PaymentStatus.REFUNDED):
            return _refund_outcome(order)
        if amount is not None and (amount != order.amount or (currency and currency != order.currency)):
            order.provider_note = MSG_AMOUNT_CAPTURED_MISMATCH
            order.save(update_fields=["provider_note", "updated_at"])
            logger.error("Captured %s %s for order %s of %s", amount, currency, order_id, order.amount)
            return CaptureOutcome(order=order, completed=False, message=MSG_AMOUNT_CAPTURED_MISMATCH)
        if capture_id:
            order.capture_id = capture_id
        refusal = ""
        if order.status == PaymentStatus.VOIDED:
            refusal = MSG_ORDER_WAS_CANCELLED
        elif order.reservation_id:
            try:
                reservation_confirm_for_payment(
                    reservation_id=order.reservation_id, participants=order.quantity, amount=order.amount
                )
            except ReservationError as exc:
                refusal = exc.message
        if refusal:
            logger.warning("Order %s captured but refused (%s): refunding", order_id, refusal)
            order.status = PaymentStatus.REFUND_PENDING
            order.provider_note = refusal
            order.save(update_fields=["status", "capture_id", "provider_note", "updated_at"])
        else:
            now = timezone.now()
            order.status = PaymentStatus.COMPLETED
            order.completed_at = now
            if order.tariff_id:
                # Issue 10: a tariff order grants its class card or subscription, once (the order row lock above
                # and Pass.source_order's uniqueness), in this same transaction.
                pass_grant_for_order(order=order)
            order.provider_note = ""
            order.save(
                update_fields=["status", "completed_at", "capture_id", "provider_note", "updated_at"]
            )
            # The receipt is recorded as sent only once its mail has left (payment_order_receipt_mark_sent).
            transaction.on_commit(lambda: _send_receipt(order_pk=order.pk))
            return CaptureOutcome(order=order, completed=True)
    return _refund_outcome(payment_order_refund(order_id=order_id))


def _euros(amount: Decimal) -> str:
    return f"{amount:.2f}".replace(".", ",")


def _refund_outcome(order: PaymentOrder) -> CaptureOutcome:
    template = MSG_REFUNDED if order.status == PaymentStatus.REFUNDED else MSG_REFUND_PENDING
    message = template.format(reason=order.provider_note, amount=_euros(order.amount)).strip()
    return CaptureOutcome(order=order, completed=False, message=message, refunded=True)


def payment_order_refund(*, order_id: str) -> PaymentOrder:
    """Give back, through the provider, the money of an order that bought nothing (REFUND_PENDING). Idempotent.

    The provider call runs outside any transaction with one idempotency key per order, so a retry (or two at once)
    refunds once; the order then becomes REFUNDED under its row lock and the member is e-mailed once. When the
    provider is unreachable the order stays REFUND_PENDING for `payment_refunds_retry`.
    """
    order = PaymentOrder.objects.get(order_id=order_id)
    if order.status != PaymentStatus.REFUND_PENDING:
        return order
    provider = get_provider()
    if provider.name != order.provider or not order.capture_id:
        logger.error(
            "Order %s must be refunded by hand (provider %s, capture %r)", order_id, order.provider, order.capture_id
        )
        return order
    try:
        refund = provider.refund_capture(capture_id=order.capture_id, request_id=f"refund-{order.order_id}")
    except ProviderError as exc:
        logger.warning("Refund of %s failed for now: %s (%s)", order_id, exc.message, exc.issue)
        return order
    if refund.status not in REFUND_ACCEPTED:
        logger.error("Refund of %s answered %s", order_id, refund.status)
        return order
    with transaction.atomic():
        order = PaymentOrder.objects.select_for_update().get(order_id=order_id)
        if order.status != PaymentStatus.REFUND_PENDING:
            return order
        order.status = PaymentStatus.REFUNDED
        order.refund_id = refund.id[:64]
        order.refunded_at = timezone.now()
        order.save(update_fields=["status", "refund_id", "refunded_at", "updated_at"])
        transaction.on_commit(lambda: _send_refund_notice(order_pk=order.pk))
    return order


def payment_refunds_retry() -> int:
    """Refund the orders still owed a refund (a provider that was down). Safe to run from several places at once.
    Returns how many were refunded."""
    done = 0
    pending = PaymentOrder.objects.filter(status=PaymentStatus.REFUND_PENDING).values_list("order_id", flat=True)
    for order_id in list(pending):
        if payment_order_refund(order_id=order_id).status == PaymentStatus.REFUNDED:
            done += 1
    return done


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
    if order.status == PaymentStatus.REFUND_PENDING:
        return _refund_outcome(payment_order_refund(order_id=order.order_id))
    if order.status == PaymentStatus.REFUNDED and order.completed_at is None and order.capture_id:
        return _refund_outcome(order)  # refunded because it bought nothing: say so again
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
    if order.status not in OPEN_STATUSES:
        raise PaymentError(MSG_ORDER_CLOSED)
    try:
        provider.approve_order(order_id=order.order_id, card_declined=card_declined)
    except ProviderError as exc:
        raise PaymentError(MSG_ORDER_CLOSED) from exc
    _mark(order_id=order.order_id, status=PaymentStatus.APPROVED, only_from=OPEN_STATUSES)


def payment_order_cancel(*, order_id: str, user) -> PaymentOrder:
    """The buyer closed the payment window: an open order becomes VOIDED. The reservation keeps its hold."""
    order = _owned_order(order_id=order_id, user=user)
    order = _mark(order_id=order.order_id, status=PaymentStatus.VOIDED, only_from=OPEN_STATUSES)
    if order.status != PaymentStatus.VOIDED:
        # Paid, refunded or being refunded: saying "cancelled" (200) would mislead a client that reads the status.
        raise PaymentError(MSG_ORDER_NOT_CANCELLABLE, status_code=409)
    return order


# --- receipt ---------------------------------------------------------------------------------------------------


def _send_receipt(*, order_pk: int) -> None:
    order = PaymentOrder.objects.select_related("reservation__session__course", "tariff").get(pk=order_pk)
    what = order.title
    if order.reservation_id:
        what = f"{order.title} – séance du {order.date} à {order.time} ({order.quantity} participant(s))"
    elif order.tariff_id:
        what = f"{order.title} × {order.quantity}"
    # Recorded in the outbox and sent by a worker (DECISIONS.md 41): the capture never waits on the mail server.
    send_templated_email(
        to=order.email,
        subject=RECEIPT_SUBJECT,
        template="payments_receipt",
        context={"order": order, "what": what, "demo": order.provider == "simulator"},
        topic=RECEIPT_EMAIL_TOPIC,
        topic_id=order.pk,
    )


RECEIPT_EMAIL_TOPIC = "payments.receipt"


def payment_order_receipt_mark_sent(*, order_pk: int, sent_at) -> None:
    """The receipt's mail has left (studio's `email_delivered`): record it once."""
    PaymentOrder.objects.filter(pk=order_pk, receipt_sent_at__isnull=True).update(receipt_sent_at=sent_at)


def _send_refund_notice(*, order_pk: int) -> None:
    order = PaymentOrder.objects.get(pk=order_pk)
    try:
        send_templated_email(
            to=order.email,
            subject=REFUND_SUBJECT,
            template="payments_refund",
            context={"order": order, "message": _refund_outcome(order).message, "demo": order.provider == "simulator"},
        )
    except Exception:  # noqa: BLE001 - the refund stands even when the mail server is down
        logger.exception("Refund e-mail for order %s could not be sent", order.order_id)


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
        order = _mark(order_id=order.order_id, status=PaymentStatus.APPROVED, only_from=(PaymentStatus.CREATED,))
        if order.status not in OPEN_STATUSES:
            return "closed"  # cancelled by the buyer, or paid already: capture nothing (issue 16)
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
        not_yet = tuple(s for s in PaymentStatus.values if s != PaymentStatus.REFUNDED)
        order = _mark(
            order_id=order.order_id, status=PaymentStatus.REFUNDED, note="Remboursée via PayPal.", only_from=not_yet
        )
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
