"""Shared by the bookings services: their error classes with the French messages keyed by code, id parsing.

A service raises `ReservationError.of("session_full")`: the text comes from the class's `messages` table and the HTTP
status from its `statuses` table (studio/errors.py), so no API chooses a status by reading a message.
"""

from calendar import monthrange
from datetime import date as date_type
from datetime import timedelta

from studio.errors import CONFLICT, NOT_FOUND, ApplicationError

# --- Reservation rules: the calendar popup's checks and French messages; price and seats (docs/decisions.md 12-13) ---
MSG_SESSION_PAST = "Erreur - La date et l'heure sélectionnées sont déjà passées."
MSG_SESSION_FULL = "Cette session est complète."
MSG_NOT_ENOUGH_SEATS = "Il ne reste que {seats} place(s) pour cette session."
MSG_ALREADY_RESERVED = "Vous avez déjà une réservation pour cette session."
MSG_SESSION_NOT_FOUND = "Cette session n'existe pas."
MSG_COURSE_NOT_FOUND = "Ce cours n'existe pas."  # a course named by a member's feedback
MSG_HOLD_LOST = "Le délai de réservation est dépassé et la session est désormais complète."
MSG_RESERVATION_NOT_FOUND = "Cette réservation n'existe pas."
MSG_RESERVATION_REQUIRED = "❌ Veuillez renseigner tous les champs obligatoires."
MSG_PARTICIPANTS_MIN = "Le nombre de participants doit être au moins 1."
MSG_PARTICIPANTS_INVALID = "Le nombre de participants doit être un nombre entier entre 1 et {max}."
MSG_AMOUNT_MISMATCH = "Le montant ne correspond pas au tarif de la session : {expected} €."
MSG_RESERVATION_SENT = "✅ Réservation envoyée avec succès !"

# --- What is confirmed equals what was paid (docs/decisions.md 14) ---
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


class ReservationError(ApplicationError):
    """A refused booking action (seats, holds, passes, cancellation, feedback, parties).

    `messages`/`statuses`: the member reservation rules by code (the passes, parties and feedback modules may add
    their own codes here). 404 for what does not exist, 409 for a conflict with seats, payments or state.
    """

    messages = {
        "session_past": MSG_SESSION_PAST,
        "session_full": MSG_SESSION_FULL,
        "not_enough_seats": MSG_NOT_ENOUGH_SEATS,
        "already_reserved": MSG_ALREADY_RESERVED,
        "session_not_found": MSG_SESSION_NOT_FOUND,
        "hold_lost": MSG_HOLD_LOST,
        "reservation_not_found": MSG_RESERVATION_NOT_FOUND,
        "reservation_required": MSG_RESERVATION_REQUIRED,
        "participants_min": MSG_PARTICIPANTS_MIN,
        "amount_mismatch": MSG_AMOUNT_MISMATCH,
        "participants_locked_by_payment": MSG_PARTICIPANTS_LOCKED_BY_PAYMENT,
        "card_payment_in_progress": MSG_CARD_PAYMENT_IN_PROGRESS,
        "payment_does_not_match": MSG_PAYMENT_DOES_NOT_MATCH,
        "reservation_already_paid": MSG_RESERVATION_ALREADY_PAID,
        "reservation_was_cancelled": MSG_RESERVATION_WAS_CANCELLED,
    }
    statuses = {
        # The calendar, not the request, refuses these: the session has started, the reservation is no longer
        # confirmed, the class has started (codes of cancellation.py).
        "session_past": CONFLICT,
        "cancel_not_confirmed": CONFLICT,
        "cancel_session_started": CONFLICT,
        "session_full": CONFLICT,
        "not_enough_seats": CONFLICT,
        "amount_mismatch": CONFLICT,  # a well-formed amount that is not the session's price as it stands
        "already_reserved": CONFLICT,
        "session_not_found": NOT_FOUND,
        "hold_lost": CONFLICT,
        "reservation_not_found": NOT_FOUND,
        "participants_locked_by_payment": CONFLICT,
        "card_payment_in_progress": CONFLICT,
        "payment_does_not_match": CONFLICT,
        "reservation_already_paid": CONFLICT,
        "reservation_was_cancelled": CONFLICT,
    }


class SessionError(ReservationError):
    """A session staff ask about that does not exist (404). The staff's writes of a session refuse with courses'
    SessionWriteError (courses/services/sessions.py)."""

    messages = {"session_not_found": MSG_SESSION_NOT_FOUND}
    statuses = {"session_not_found": NOT_FOUND}


class FeedbackError(ReservationError):
    pass


def add_months(day: date_type, months: int) -> date_type:
    """The same day `months` later, clamped to the month's last day (31 Jan + 1 month = 28/29 Feb)."""
    month_index = day.month - 1 + months
    year, month = day.year + month_index // 12, month_index % 12 + 1
    return day.replace(year=year, month=month, day=min(day.day, monthrange(year, month)[1]))


def _fr_date(day: date_type) -> str:
    return day.strftime("%d/%m/%Y")


def _as_id(value) -> int | None:
    """A primary key from the outside world, or None (never a value the database would refuse)."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return number if 0 < number < 2**31 else None


# A waiting list's offers stop this long before the class, and no one joins it later (docs/decisions.md 28).
WAITLIST_OFFER_STOP_HOURS = 1


def session_full(session, now) -> ReservationError:
    """A full class's refusal, saying whether its waiting list still takes members (`waitlist_open`): the calendar
    then offers the list at once instead of a dead end."""
    error = ReservationError.of("session_full")
    error.extra["waitlist_open"] = session.start - timedelta(hours=WAITLIST_OFFER_STOP_HOURS) > now
    return error
