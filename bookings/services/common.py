"""Shared by the bookings services: their error classes, the reservation-rule messages, id parsing."""

from studio.errors import ApplicationError

# --- Reservation rules (SPEC.md 2.9, 5, 8; DECISIONS.md 12-13) ---
MSG_SESSION_PAST = "Erreur - La date et l'heure sélectionnées sont déjà passées."
MSG_SESSION_FULL = "Cette session est complète."
MSG_NOT_ENOUGH_SEATS = "Il ne reste que {seats} place(s) pour cette session."
MSG_ALREADY_RESERVED = "Vous avez déjà une réservation pour cette session."
MSG_SESSION_NOT_FOUND = "Cette session n'existe pas."
MSG_HOLD_LOST = "Le délai de réservation est dépassé et la session est désormais complète."
MSG_RESERVATION_NOT_FOUND = "Cette réservation n'existe pas."
MSG_RESERVATION_REQUIRED = "❌ Veuillez renseigner tous les champs obligatoires."
MSG_PARTICIPANTS_MIN = "Le nombre de participants doit être au moins 1."
MSG_AMOUNT_MISMATCH = "Le montant ne correspond pas au tarif de la session : {expected} €."
MSG_RESERVATION_SENT = "✅ Réservation envoyée avec succès !"

# --- What is confirmed equals what was paid (issue 16) ---
MSG_PARTICIPANTS_LOCKED_BY_PAYMENT = (
    "Un paiement est déjà en cours pour cette réservation de {participants} participant(s) : le nombre de "
    "participants ne peut plus changer. Terminez ou annulez ce paiement, puis réservez à nouveau."
)
MSG_CARD_PAYMENT_IN_PROGRESS = (
    "Un paiement par carte bancaire est déjà en cours pour cette réservation : terminez-le, ou annulez-le dans la "
    "fenêtre de paiement, avant de payer avec votre carte ou votre abonnement."
)
MSG_PAYMENT_DOES_NOT_MATCH = "La réservation a changé depuis l'ouverture du paiement (participants ou montant)."
MSG_RESERVATION_ALREADY_PAID = "Cette réservation était déjà payée."
MSG_RESERVATION_WAS_CANCELLED = "Cette réservation a été annulée."
# A reservation's orders (payments.PaymentOrder, reverse relation `payment_orders`) still being paid: while one is,
# the reservation's seats and price are frozen and no pass may pay it. Statuses named here to keep bookings free of
# an import from payments (STYLE.md: dependencies point one way).
OPEN_PAYMENT_STATUSES = ("CREATED", "APPROVED", "DECLINED")


class ReservationError(ApplicationError):
    """A refused booking action (seats, holds, passes, cancellation, feedback, parties)."""


class SessionError(ReservationError):
    """A staff session write refused with a French message."""


class PartyReservationError(ReservationError):
    pass


class FeedbackError(ReservationError):
    pass


def _as_id(value) -> int | None:
    """A primary key from the outside world, or None (never a value the database would refuse)."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return number if 0 < number < 2**31 else None
