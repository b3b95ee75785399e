"""Shared by the bookings services: their error classes with the French messages keyed by code, id parsing.

A service raises `ReservationError.of("session_full")`: the text comes from the class's `messages` table and the HTTP
status from its `statuses` table (studio/errors.py), so no API chooses a status by reading a message.
"""

from datetime import timedelta

from studio.errors import CONFLICT, NOT_FOUND, ApplicationError

# The most places a session can have (courses.CourseSession.max_attendees is a PositiveSmallIntegerField), hence the
# most participants a reservation can ask for: the API refuses more before the domain is reached.
MAX_SESSION_PLACES = 32767

# --- Reservation rules: the calendar popup's checks and French messages; price and seats (docs/decisions.md 12-13) ---
MSG_SESSION_PAST = "Erreur - La date et l'heure sélectionnées sont déjà passées."
MSG_SESSION_FULL = "Cette session est complète."
MSG_NOT_ENOUGH_SEATS = "Il ne reste que {seats} place(s) pour cette session."
MSG_ALREADY_RESERVED = "Vous avez déjà une réservation pour cette session."
MSG_SESSION_NOT_FOUND = "Cette session n'existe pas."
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
# A reservation's orders (payments.PaymentOrder, reverse relation `payment_orders`) still being paid: while one is,
# the reservation's seats and price are frozen and no pass may pay it. Statuses named here to keep bookings free of
# an import from payments (STYLE.md: dependencies point one way).
OPEN_PAYMENT_STATUSES = ("CREATED", "APPROVED", "DECLINED")


# --- Staff session form: course, date and instructor required, French messages ---
MSG_SESSION_FIELDS_REQUIRED = "Veuillez renseigner le cours, la date et le professeur."
MSG_COURSE_NOT_FOUND = "Ce cours n'existe pas."
MSG_SESSION_DATE_INVALID = "La date doit être au format AAAA-MM-JJ HH:MM:SS."
MSG_SESSION_END_BEFORE_START = "La fin de la session doit être après son début."
MSG_MAX_ATTENDEES_MIN = "Le nombre de places doit être d'au moins 1."
MSG_MAX_ATTENDEES_MAX = "Le nombre de places ne peut pas dépasser {max}."
MSG_MAX_BELOW_TAKEN = "Impossible de descendre sous {taken} place(s) : elles sont déjà réservées."
MSG_LEVEL_INVALID = "Le niveau doit être Débutant, Intermédiaire, Avancé ou Tous niveaux."
MSG_PRICE_INVALID = "Le prix par participant doit être un montant positif."
MSG_SESSION_HAS_RESERVATIONS = (
    "Impossible de supprimer cette session : elle a déjà des réservations. Pour ne pas la donner, utilisez "
    "« Annuler le cours » : les inscrits sont prévenus, remboursés ou recrédités."
)


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
        # confirmed, the cancellation window has closed (codes of cancellation.py).
        "session_past": CONFLICT,
        "cancel_not_confirmed": CONFLICT,
        "cancel_too_late": CONFLICT,
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
    """A staff session write refused with a French message."""

    messages = {
        "session_fields_required": MSG_SESSION_FIELDS_REQUIRED,
        "course_not_found": MSG_COURSE_NOT_FOUND,
        "session_date_invalid": MSG_SESSION_DATE_INVALID,
        "session_end_before_start": MSG_SESSION_END_BEFORE_START,
        "max_attendees_min": MSG_MAX_ATTENDEES_MIN,
        "max_below_taken": MSG_MAX_BELOW_TAKEN,
        "level_invalid": MSG_LEVEL_INVALID,
        "price_invalid": MSG_PRICE_INVALID,
        "session_has_reservations": MSG_SESSION_HAS_RESERVATIONS,
        "session_not_found": MSG_SESSION_NOT_FOUND,
    }
    statuses = {
        "course_not_found": NOT_FOUND,
        # Two dates that each are valid but contradict each other (a schema cannot say it): a conflict.
        "session_end_before_start": CONFLICT,
        "max_below_taken": CONFLICT,
        "session_has_reservations": CONFLICT,
        "session_not_found": NOT_FOUND,
    }


class FeedbackError(ReservationError):
    pass


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
