"""What the payment services share: PaymentError, CaptureOutcome, the members' messages, amount and e-mail
checks, the state change of one order under its row lock (`_mark`), and what its reservation is told of it
(`reservation_payment_follow`)."""

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from bookings.models import PaymentPending
from bookings.services.payment_state import reservation_payment_pending_set
from studio.errors import BAD_GATEWAY, CONFLICT, NOT_FOUND, ApplicationError
from studio.terms import terms_version

from ..models import PaymentOrder, PaymentStatus
from .locking import lock_payment_order

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
# A simulated card or wallet the bank declined, or whose 3-D Secure challenge is unanswered or refused
# (payments/simulator.py).
MSG_BANK_DECLINED = "Paiement refusé par votre banque. Aucun montant n'a été débité."
MSG_BANK_DECLINED_HOLD = MSG_BANK_DECLINED + " Votre place reste réservée jusqu'à {until} : vous pouvez réessayer."
MSG_AUTHENTICATION_PENDING = (
    "Votre banque demande une authentification 3-D Secure : validez-la avant de payer. Aucun montant n'a été débité."
)
MSG_AUTHENTICATION_REFUSED = "Authentification refusée par votre banque. Aucun montant n'a été débité."
MSG_NO_CHALLENGE = "Aucune authentification 3-D Secure n'est attendue pour ce paiement."
MSG_PENDING = "Votre paiement est en cours de vérification par PayPal. Vous recevrez un email dès sa validation."
MSG_ORDER_CLOSED = "Cette commande n'est plus payable."
MSG_ORDER_NOT_CANCELLABLE = "Ce paiement est déjà terminé : il ne peut plus être annulé ici."
MSG_AMOUNT_CAPTURED_MISMATCH = "Montant capturé différent du montant de la commande : vérification manuelle requise."
# Money captured for nothing in return goes back (docs/decisions.md 14). {reason} says why, {amount} is in French
# ("25,00").
MSG_REFUNDED = (
    "{reason} Votre paiement de {amount} € vous est remboursé automatiquement : le remboursement apparaîtra sous "
    "quelques jours sur votre moyen de paiement."
)
MSG_REFUND_PENDING = (
    "{reason} Votre paiement de {amount} € va vous être remboursé automatiquement : le remboursement est en cours."
)
MSG_ORDER_WAS_CANCELLED = "Ce paiement avait été annulé."
MSG_RESERVATION_CHANGED = "La réservation a changé pendant la préparation du paiement. Rechargez la page et réessayez."
MSG_PROVIDER_NOT_OFFERED = "Ce moyen de paiement n'est pas proposé."
MSG_ORDER_LIVE_TAKEN = "Cette réservation a déjà une commande en cours ou payée : une seule à la fois."
# Staff edits (payments/services/staff.py).
MSG_REQUIRED_FIELDS = "⚠️ Veuillez remplir tous les champs obligatoires !"
MSG_ORDER_ID_TAKEN = "Une commande avec cet identifiant existe déjà."
MSG_AMOUNT_INVALID = "Le montant doit être un nombre positif."
MSG_STATUS_INVALID = "Statut de paiement inconnu."
MSG_PAID_NOT_DELETED = (
    "Un paiement encaissé ne se supprime pas : changez son statut (« Annulée » ou « Remboursée ») et indiquez la "
    "raison dans le message."
)


class PaymentError(ApplicationError):
    """A refused payment step. Raise it by code (`PaymentError.of("order_closed")`): the French text and the HTTP
    status come from the tables below (404 for what does not exist, 409 for a conflict with the price, the
    reservation's or the order's state, 502 when the provider does not answer). `status_code` is kept as the name
    older callers read."""

    default_code = "payment_invalid"
    messages = {
        "incomplete": MSG_INCOMPLETE,
        "email_invalid": MSG_EMAIL_INVALID,
        "amount_mismatch": MSG_AMOUNT_MISMATCH,
        "reservation_not_found": MSG_RESERVATION_NOT_FOUND,
        "reservation_paid": MSG_RESERVATION_PAID,
        "hold_expired": MSG_HOLD_EXPIRED,
        "tariff_not_found": MSG_TARIFF_NOT_FOUND,
        "tariff_not_orderable": MSG_TARIFF_NOT_ORDERABLE,
        "quantity_invalid": MSG_QUANTITY,
        "provider_down": MSG_PROVIDER_DOWN,
        "order_not_found": MSG_ORDER_NOT_FOUND,
        "order_closed": MSG_ORDER_CLOSED,
        "order_not_cancellable": MSG_ORDER_NOT_CANCELLABLE,
        "reservation_changed": MSG_RESERVATION_CHANGED,
        "order_live_taken": MSG_ORDER_LIVE_TAKEN,
        "provider_not_offered": MSG_PROVIDER_NOT_OFFERED,
        "required_fields": MSG_REQUIRED_FIELDS,
        "order_id_taken": MSG_ORDER_ID_TAKEN,
        "amount_invalid": MSG_AMOUNT_INVALID,
        "status_invalid": MSG_STATUS_INVALID,
        "paid_not_deleted": MSG_PAID_NOT_DELETED,
        "no_challenge": MSG_NO_CHALLENGE,
    }
    statuses = {
        "amount_mismatch": CONFLICT,
        "reservation_not_found": NOT_FOUND,
        "reservation_paid": CONFLICT,
        "hold_expired": CONFLICT,
        "tariff_not_found": NOT_FOUND,
        "tariff_not_orderable": CONFLICT,
        "provider_down": BAD_GATEWAY,
        "order_not_found": NOT_FOUND,
        "order_closed": CONFLICT,
        "order_not_cancellable": CONFLICT,
        "reservation_changed": CONFLICT,
        "order_live_taken": CONFLICT,
        "order_id_taken": CONFLICT,
        "paid_not_deleted": CONFLICT,
        "no_challenge": CONFLICT,
        "provider_not_offered": CONFLICT,
    }

    def __init__(self, message: str, *, status_code: int | None = None, code: str | None = None, **kwargs):
        super().__init__(message, status=status_code or kwargs.pop("status", None), code=code, **kwargs)

    @property
    def status_code(self) -> int:
        return self.status


def terms_acceptance_fields(*, accepted: bool, immediate_start: bool = False) -> dict:
    """What an order records of the terms of sale its buyer accepted (docs/decisions.md 47): nothing when they were
    not asked (a dated class), else the version in force, when, and the immediate start asked for."""
    if not accepted:
        return {}
    return {"terms_version": terms_version(), "terms_accepted_at": timezone.now(), "immediate_start": immediate_start}


@dataclass(frozen=True)
class CaptureOutcome:
    order: PaymentOrder
    completed: bool
    message: str = ""
    refunded: bool = False  # the money came back to the buyer (or is on its way): nothing was bought
    pending: bool = False  # the provider is still processing the payment (Stripe's "processing")


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


def _local(dt):
    return timezone.localtime(dt)


def _mark(*, order_id: str, status: str, note: str = "", only_from: tuple[str, ...] | None = None) -> PaymentOrder:
    with transaction.atomic():
        order = lock_payment_order(order_id)
        if only_from is None or order.status in only_from:
            order.status = status
            if note:
                order.provider_note = note
            order.save(update_fields=["status", "provider_note", "updated_at"])
            reservation_payment_follow(order)
        return order


def _owned_order(*, order_id: str, user) -> PaymentOrder:
    order = PaymentOrder.objects.filter(order_id=order_id).first()
    if order is None or (order.user_id != user.pk and not user.is_studio_staff):
        raise PaymentError.of("order_not_found")
    return order


OPEN_STATUSES = (PaymentStatus.CREATED, PaymentStatus.APPROVED, PaymentStatus.DECLINED)


def reservation_payment_follow(order: PaymentOrder) -> None:
    """Tell bookings where the card payment of the order's reservation stands, after a change of the order's status
    under its row lock (the first lock; bookings then takes the session's, docs/architecture.md "Lock order"):
    approved when one of its orders is, open while one is still being paid, none otherwise."""
    if not order.reservation_id:
        return
    statuses = set(
        PaymentOrder.objects.filter(reservation_id=order.reservation_id, status__in=OPEN_STATUSES).values_list(
            "status", flat=True
        )
    )
    if PaymentStatus.APPROVED in statuses:
        pending = PaymentPending.APPROVED
    else:
        pending = PaymentPending.OPEN if statuses else PaymentPending.NONE
    reservation_payment_pending_set(reservation_id=order.reservation_id, pending=pending)
