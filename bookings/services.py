"""Seat holds, reservations, passes (class cards, subscriptions), cancellations, sessions, party requests, feedback.

Every write that checks seats locks the session row first (STYLE.md 3). Lock order is always:

    session  →  pass  →  reservation

(a payment capture locks its PaymentOrder before all three). A hold, a booking paid with a pass, a confirmation and
a cancellation on the same session therefore never deadlock, and a pass's credits are read and changed only under
its row lock, so a credit is never spent twice. Staff adjustments lock the pass alone.

What is confirmed equals what was paid (issue 16): a card order for a hold is recorded under the session and
reservation locks (payments), and while one is open the hold's participants and price cannot change and no pass may
pay it (both read the reservation's open orders under the session lock). The capture confirms only a reservation
whose participants and amount are the order's (`reservation_confirm_for_payment`); otherwise payments refunds.
"""

import logging
from calendar import monthrange
from dataclasses import dataclass
from datetime import date as date_type
from datetime import datetime, timedelta
from datetime import time as time_type
from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone

from courses.models import Course, CourseSession, Level, Tariff
from studio.cache import bump_public_cache

from .models import (
    CourseFeedback,
    PartyEventType,
    PartyReservation,
    Pass,
    PassAdjustment,
    PassAdjustmentAction,
    PassKind,
    PassOrigin,
    Reservation,
    ReservationStatus,
)

logger = logging.getLogger(__name__)

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

# --- Staff session form (SPEC.md 5, 7, 8) ---
MSG_SESSION_FIELDS_REQUIRED = "Veuillez renseigner le cours, la date et le professeur."
MSG_COURSE_NOT_FOUND = "Ce cours n'existe pas."
MSG_SESSION_DATE_INVALID = "La date doit être au format AAAA-MM-JJ HH:MM:SS."
MSG_SESSION_END_BEFORE_START = "La fin de la session doit être après son début."
MSG_MAX_ATTENDEES_MIN = "Le nombre de places doit être d'au moins 1."
MSG_MAX_BELOW_TAKEN = "Impossible de descendre sous {taken} place(s) : elles sont déjà réservées."
MSG_LEVEL_INVALID = "Le niveau doit être Débutant, Intermédiaire, Avancé ou Tous niveaux."
MSG_PRICE_INVALID = "Le prix par participant doit être un montant positif."
MSG_SESSION_HAS_RESERVATIONS = (
    "Impossible de supprimer cette session : elle a déjà des réservations. Modifiez-la plutôt."
)
MSG_SESSION_ADDED = "Session ajoutée avec succès !"
MSG_SESSION_UPDATED = "Session modifiée avec succès !"
MSG_SESSION_DELETED = "Session supprimée avec succès !"

# --- EVJF/EVG (SPEC.md 2.7, 5, 8) ---
MSG_PARTY_REQUIRED = "Veuillez remplir tous les champs requis."
MSG_PARTY_LOGIN_REQUIRED = "Vous devez être connecté pour réserver."
MSG_PARTY_SUCCESS = "Réservation effectuée avec succès ! 🎉"
MSG_PARTY_EVENT_TYPE_INVALID = "Le type d'événement doit être EVJF ou EVG."
MSG_PARTY_DATE_PAST = "La date choisie est déjà passée."

# --- Feedback (SPEC.md 2.19, 5, 8) ---
MSG_FEEDBACK_REQUIRED = "Veuillez remplir tous les champs pour le feedback"
MSG_FEEDBACK_RATING_RANGE = "La note doit être comprise entre 1 et 5."
MSG_FEEDBACK_NOT_FOLLOWED = "Vous ne pouvez donner votre avis que sur un cours que vous avez suivi."
MSG_FEEDBACK_SAVED = "Feedback enregistré avec succès"


class ReservationError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class SessionError(ReservationError):
    """A staff session write refused with a French message."""


class PartyReservationError(ReservationError):
    pass


class FeedbackError(ReservationError):
    pass


def active_reservations_q(now=None, prefix: str = "") -> Q:
    """Reservations that take seats: confirmed ones and holds that have not expired.

    `prefix` lets a session query filter its related reservations (prefix="reservations__").
    """
    now = now or timezone.now()
    return Q(**{f"{prefix}status": ReservationStatus.CONFIRMED}) | Q(
        **{f"{prefix}status": ReservationStatus.HELD, f"{prefix}hold_expires_at__gt": now}
    )


def session_seats_taken(*, session: CourseSession, now=None) -> int:
    taken = session.reservations.filter(active_reservations_q(now)).aggregate(total=Sum("participants"))["total"]
    return taken or 0


def session_seats_left(*, session: CourseSession, now=None) -> int:
    return max(session.max_attendees - session_seats_taken(session=session, now=now), 0)


def reservations_release_expired(*, session_id: int | None = None, now=None) -> int:
    """Mark lapsed holds EXPIRED so their seats are free. Returns how many were released.

    Confirmed reservations are never touched: only HELD rows whose hold has passed.
    """
    now = now or timezone.now()
    qs = Reservation.objects.filter(status=ReservationStatus.HELD, hold_expires_at__lte=now)
    if session_id is not None:
        qs = qs.filter(session_id=session_id)
    return qs.update(status=ReservationStatus.EXPIRED)


def _parse_participants(value) -> int:
    """SPEC.md 5: participants min 1; a non-numeric value falls back to 1."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return 1
    except OverflowError:  # a JSON number such as 1e400 is read as infinity: more than any session holds
        return 2**31


def _check_seats(*, session: CourseSession, existing: Reservation | None, participants: int, now) -> None:
    """Under the session lock: the seats left (plus the member's own live reservation) must fit `participants`."""
    seats_left = session_seats_left(session=session, now=now) + (existing.participants if existing else 0)
    if seats_left <= 0:
        raise ReservationError(MSG_SESSION_FULL)
    if participants > seats_left:
        raise ReservationError(MSG_NOT_ENOUGH_SEATS.format(seats=seats_left))


def _checked_request_on_locked_session(*, session_id, participants, first_name, last_name, email, now):
    """The checks every reservation request passes, in SPEC.md's order, then the session row locked (first lock).

    Returns the cleaned names, e-mail and participant count, and the locked session.
    """
    first_name, last_name, email = (first_name or "").strip(), (last_name or "").strip(), (email or "").strip()
    if not (first_name and last_name and email):
        raise ReservationError(MSG_RESERVATION_REQUIRED)
    participants = _parse_participants(participants)
    if participants < 1:
        raise ReservationError(MSG_PARTICIPANTS_MIN)
    session = CourseSession.objects.select_for_update().filter(pk=_as_id(session_id) or 0).first()
    if session is None:
        raise ReservationError(MSG_SESSION_NOT_FOUND)
    if session.start <= now:
        raise ReservationError(MSG_SESSION_PAST)
    return first_name, last_name, email, participants, session


def _payment_open_on(reservation: Reservation | None) -> bool:
    """Whether a card payment order is being paid for this hold (read under the session lock, which order creation
    takes too, so none can appear meanwhile)."""
    return reservation is not None and reservation.payment_orders.filter(status__in=OPEN_PAYMENT_STATUSES).exists()


def _member_hold_with_seats_checked(*, session: CourseSession, user, participants: int, now) -> Reservation | None:
    """Under the session lock: free lapsed holds, refuse a second confirmed reservation, check the seats.

    Returns the member's unpaid hold on this session, which the caller updates instead of creating another.
    """
    reservations_release_expired(session_id=session.pk, now=now)
    existing = (
        session.reservations.select_for_update()
        .filter(user=user, status__in=[ReservationStatus.HELD, ReservationStatus.CONFIRMED])
        .first()
    )
    if existing is not None and existing.status == ReservationStatus.CONFIRMED:
        raise ReservationError(MSG_ALREADY_RESERVED)
    _check_seats(session=session, existing=existing, participants=participants, now=now)
    return existing


def _reservation_details(session, participants, first_name, last_name, email, message) -> dict:
    return {
        "participants": participants,
        "unit_price": session.price_per_participant,
        "first_name": first_name,
        "last_name": last_name,
        "email": email,
        "message": message or "",
    }


def _reservation_save(*, existing: Reservation | None, session, user, fields: dict) -> Reservation:
    if existing is None:
        return Reservation.objects.create(session=session, user=user, **fields)
    for name, value in fields.items():
        setattr(existing, name, value)
    existing.save(update_fields=list(fields))
    return existing


@transaction.atomic
def reservation_hold(
    *,
    user,
    session_id: int,
    participants: int,
    first_name: str,
    last_name: str,
    email: str,
    message: str = "",
    expected_total: Decimal | None = None,
) -> Reservation:
    """Hold `participants` seats on a session for SEAT_HOLD_MINUTES, or raise ReservationError.

    A member who already holds (unpaid) seats on the session gets that same reservation back, updated and with a
    fresh hold, so closing the popup and trying again works. A confirmed reservation is refused as a duplicate.
    `expected_total`, when the browser sends one, must equal the server's price (DECISIONS.md 12).
    """
    now = timezone.now()
    first_name, last_name, email, participants, session = _checked_request_on_locked_session(
        session_id=session_id,
        participants=participants,
        first_name=first_name,
        last_name=last_name,
        email=email,
        now=now,
    )
    if expected_total is not None:
        expected = (session.price_per_participant * participants).quantize(Decimal("0.01"))
        if Decimal(expected_total).quantize(Decimal("0.01")) != expected:
            raise ReservationError(MSG_AMOUNT_MISMATCH.format(expected=expected))
    existing = _member_hold_with_seats_checked(session=session, user=user, participants=participants, now=now)
    fields = {
        **_reservation_details(session, participants, first_name, last_name, email, message),
        "status": ReservationStatus.HELD,
        "hold_expires_at": now + timedelta(minutes=settings.SEAT_HOLD_MINUTES),
    }
    if _payment_open_on(existing):
        # An order prices this hold: its seats and price stay what the order pays (issue 16).
        if participants != existing.participants:
            raise ReservationError(MSG_PARTICIPANTS_LOCKED_BY_PAYMENT.format(participants=existing.participants))
        fields["unit_price"] = existing.unit_price
    return _reservation_save(existing=existing, session=session, user=user, fields=fields)


@transaction.atomic
def reservation_confirm(*, reservation_id: int) -> Reservation:
    """Confirm a held reservation. Idempotent: confirming a confirmed reservation returns it unchanged.

    A hold that lapsed is confirmed only if its seats are still free. The French confirmation e-mail with its
    .ics goes out once, after the commit of the transition.
    """
    session_id = Reservation.objects.filter(pk=reservation_id).values_list("session_id", flat=True).first()
    if session_id is None:
        raise ReservationError(MSG_RESERVATION_NOT_FOUND)
    session = CourseSession.objects.select_for_update().get(pk=session_id)
    reservation = Reservation.objects.select_for_update().get(pk=reservation_id)
    if reservation.status == ReservationStatus.CONFIRMED:
        return reservation
    now = timezone.now()
    hold_lapsed = reservation.status != ReservationStatus.HELD or (
        reservation.hold_expires_at is not None and reservation.hold_expires_at <= now
    )
    if hold_lapsed:
        if (
            Reservation.objects.filter(session=session, user_id=reservation.user_id)
            .exclude(pk=reservation.pk)
            .filter(active_reservations_q(now))
            .exists()
        ):
            raise ReservationError(MSG_ALREADY_RESERVED)
        if session_seats_taken(session=session, now=now) + reservation.participants > session.max_attendees:
            raise ReservationError(MSG_HOLD_LOST)
    reservation.status = ReservationStatus.CONFIRMED
    reservation.confirmed_at = now
    reservation.hold_expires_at = None
    reservation.save(update_fields=["status", "confirmed_at", "hold_expires_at"])
    transaction.on_commit(lambda: _send_reservation_confirmation(reservation.pk))
    return reservation


@transaction.atomic
def reservation_confirm_for_payment(*, reservation_id: int, participants: int, amount: Decimal) -> Reservation:
    """Confirm the reservation a captured card payment paid for, only if the payment is exactly what it costs.

    Called by payments inside the capture, under the PaymentOrder's row lock (then session → reservation, the
    module's lock order). Raises ReservationError, confirming nothing, when the reservation is already confirmed
    (by another payment or a pass), was cancelled, no longer has the participants and amount the order paid for, or
    lost its seats after its hold lapsed: the caller refunds.
    """
    session_id = Reservation.objects.filter(pk=reservation_id).values_list("session_id", flat=True).first()
    if session_id is None:
        raise ReservationError(MSG_RESERVATION_NOT_FOUND)
    CourseSession.objects.select_for_update().get(pk=session_id)
    reservation = Reservation.objects.select_for_update().get(pk=reservation_id)
    if reservation.status == ReservationStatus.CONFIRMED or reservation.paid_with_pass_id:
        raise ReservationError(MSG_RESERVATION_ALREADY_PAID)
    if reservation.status == ReservationStatus.CANCELLED:
        raise ReservationError(MSG_RESERVATION_WAS_CANCELLED)
    if reservation.participants != participants or reservation.total_amount != amount:
        raise ReservationError(MSG_PAYMENT_DOES_NOT_MATCH)
    return reservation_confirm(reservation_id=reservation_id)


def _send_reservation_confirmation(reservation_id: int) -> None:
    from .emails import send_reservation_confirmation

    try:
        send_reservation_confirmation(reservation_id=reservation_id)
    except Exception:  # the reservation stands even if the mail server is down
        logger.exception("Reservation confirmation e-mail failed for reservation %s", reservation_id)


# --- Passes: class cards and subscriptions (issue 10) ---

MSG_PASS_NOT_FOUND = "Cette carte ou cet abonnement est introuvable."
MSG_PASS_EXPIRED = "Cette carte ou cet abonnement n'est plus valable : il a expiré le {date}."
MSG_PASS_NOT_VALID_ON_SESSION = (
    "Cette carte ou cet abonnement n'est pas valable le jour de cette session (valable du {start} au {end})."
)
MSG_PASS_NO_CREDITS = "Cette carte n'a plus de crédit."
MSG_PASS_NOT_ENOUGH_CREDITS = (
    "Il ne reste que {credits} crédit(s) sur cette carte : réservez pour moins de participants "
    "ou payez par carte bancaire."
)
MSG_PASS_SUBSCRIPTION_ALONE = (
    "Un abonnement ne couvre que vous : réservez pour 1 participant ou payez par carte bancaire."
)
MSG_BOOKED_WITH_PASS = "✅ Réservation confirmée avec votre {title}."

# Cancellation (settings.CANCELLATION_WINDOW_HOURS before the session; no automatic refund of card payments).
MSG_CANCEL_TOO_LATE = (
    "Annulation impossible : les réservations s'annulent au plus tard {hours} heures avant le début du cours."
)
MSG_CANCEL_NOT_CONFIRMED = "Seule une réservation confirmée peut être annulée."
MSG_CANCELLED_CREDITS_RETURNED = "Réservation annulée : {credits} crédit(s) rendu(s) sur votre {title}."
MSG_CANCELLED_SUBSCRIPTION = "Réservation annulée : votre place est libérée."
MSG_CANCELLED_CREDIT_PASS = (
    "Réservation annulée : {credits} crédit(s) valable(s) jusqu'au {date} ajouté(s) à vos cartes "
    "(pas de remboursement automatique)."
)
CANCELLATION_CREDIT_TITLE = "Avoir d'annulation"
CANCELLATION_CREDIT_MONTHS = 6  # a reservation paid by card and cancelled in time becomes credits valid 6 months

# Staff (dashboard): grant, add credits, extend; each change logged with its reason.
MSG_REASON_REQUIRED = "Indiquez la raison de la modification."
MSG_CREDITS_INVALID = "Le nombre de crédits doit être un nombre entier."
MSG_CREDITS_BELOW_ZERO = "Impossible de retirer plus de crédits qu'il n'en reste ({credits})."
MSG_SUBSCRIPTION_HAS_NO_CREDITS = "Un abonnement est illimité : il n'a pas de crédits."
MSG_DATE_INVALID = "La date doit être au format AAAA-MM-JJ."
MSG_END_BEFORE_START = "La date de fin doit être après la date de début ({date})."
MSG_NOTHING_TO_CHANGE = "Indiquez des crédits à ajouter ou à retirer, ou une nouvelle date de fin."
MSG_MEMBER_NOT_FOUND = "Aucun membre n'a cet email."
MSG_TARIFF_NOT_FOUND = "Ce tarif est introuvable."
MSG_TARIFF_GRANTS_NOTHING = "Ce tarif n'accorde ni carte de cours ni abonnement."
MSG_KIND_INVALID = "Choisissez une carte de cours ou un abonnement."
MSG_GRANT_CREDITS_MIN = "Une carte de cours doit compter au moins 1 crédit."
MSG_PASS_GRANTED = "Carte attribuée avec succès !"
MSG_PASS_UPDATED = "Carte mise à jour avec succès !"

MAX_STAFF_CREDITS = 1000


def _as_id(value) -> int | None:
    """A primary key from the outside world, or None (never a value the database would refuse)."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return number if 0 < number < 2**31 else None


def add_months(day: date_type, months: int) -> date_type:
    """The same day `months` later, clamped to the month's last day (31 Jan + 1 month = 28/29 Feb)."""
    month_index = day.month - 1 + months
    year, month = day.year + month_index // 12, month_index % 12 + 1
    return day.replace(year=year, month=month, day=min(day.day, monthrange(year, month)[1]))


def _fr_date(day: date_type) -> str:
    return day.strftime("%d/%m/%Y")


def pass_check_usable(*, pass_obj: Pass, session: CourseSession, participants: int, today: date_type) -> int:
    """The credits a booking of `participants` on `session` costs with this pass, or ReservationError.

    A card costs one credit per participant; a subscription covers the member alone and costs nothing.
    The pass must be valid on the session's (Paris) day and not expired today.
    """
    if pass_obj.expires_on < today:
        raise ReservationError(MSG_PASS_EXPIRED.format(date=_fr_date(pass_obj.expires_on)))
    session_day = timezone.localtime(session.start).date()
    if not pass_obj.starts_on <= session_day <= pass_obj.expires_on:
        raise ReservationError(
            MSG_PASS_NOT_VALID_ON_SESSION.format(start=_fr_date(pass_obj.starts_on), end=_fr_date(pass_obj.expires_on))
        )
    if pass_obj.kind == PassKind.SUBSCRIPTION:
        if participants != 1:
            raise ReservationError(MSG_PASS_SUBSCRIPTION_ALONE)
        return 0
    if pass_obj.credits_left <= 0:
        raise ReservationError(MSG_PASS_NO_CREDITS)
    if participants > pass_obj.credits_left:
        raise ReservationError(MSG_PASS_NOT_ENOUGH_CREDITS.format(credits=pass_obj.credits_left))
    return participants


@transaction.atomic
def reservation_book_with_pass(
    *,
    user,
    session_id: int,
    pass_id: int,
    participants: int,
    first_name: str,
    last_name: str,
    email: str,
    message: str = "",
) -> Reservation:
    """Reserve seats paid with the member's class card or subscription: confirmed at once, no card payment.

    Locks the session, then the pass, then the member's reservation (the module's lock order): two bookings racing
    for the last credit or the last seat give one reservation. A live hold of the member on the session (a card
    payment not finished) is turned into this booking.
    """
    now = timezone.now()
    first_name, last_name, email, participants, session = _checked_request_on_locked_session(
        session_id=session_id,
        participants=participants,
        first_name=first_name,
        last_name=last_name,
        email=email,
        now=now,
    )
    pass_obj = Pass.objects.select_for_update().filter(pk=_as_id(pass_id) or 0, member=user).first()
    if pass_obj is None:
        raise ReservationError(MSG_PASS_NOT_FOUND)
    credits = pass_check_usable(
        pass_obj=pass_obj, session=session, participants=participants, today=timezone.localdate(now)
    )
    existing = _member_hold_with_seats_checked(session=session, user=user, participants=participants, now=now)
    if _payment_open_on(existing):
        raise ReservationError(MSG_CARD_PAYMENT_IN_PROGRESS)  # card or pass, never both (issue 16)
    fields = {
        **_reservation_details(session, participants, first_name, last_name, email, message),
        "status": ReservationStatus.CONFIRMED,
        "hold_expires_at": None,
        "confirmed_at": now,
        "paid_with_pass": pass_obj,
        "credits_spent": credits,
    }
    reservation = _reservation_save(existing=existing, session=session, user=user, fields=fields)
    if credits:
        pass_obj.credits_left -= credits
        pass_obj.save(update_fields=["credits_left"])
    PassAdjustment.objects.create(
        pass_ref=pass_obj, action=PassAdjustmentAction.SPEND, credits_delta=-credits, reservation=reservation
    )
    transaction.on_commit(lambda: _send_reservation_confirmation(reservation.pk))
    return reservation


# A tariff priced per period ("55 € par mois", "120 € par trimestre"): until subscriptions bill each period
# (DECISIONS.md 24, issue 19), a purchase grants exactly the periods paid, never the whole commitment (issue 16).
BILLING_PERIOD_MONTHS = {"mois": 1, "trimestre": 3, "semestre": 6, "an": 12, "année": 12, "annee": 12}
# Periods shorter than a month cannot be granted in months: such a tariff is not sold online.
SHORT_BILLING_PERIODS = ("jour", "semaine", "quinzaine")


def tariff_billing_period_months(tariff: Tariff) -> int | None:
    """The months one price of the tariff pays for when it is priced per period, else None (priced once)."""
    words = (tariff.frequency or "").strip().lower().split()
    if len(words) == 2 and words[0] == "par":
        return BILLING_PERIOD_MONTHS.get(words[1])
    return None


def tariff_priced_per_short_period(tariff: Tariff) -> bool:
    words = (tariff.frequency or "").strip().lower().split()
    return len(words) == 2 and words[0] == "par" and words[1] in SHORT_BILLING_PERIODS


def pass_grant_for_order(*, order) -> Pass | None:
    """The pass a captured tariff order grants, created once (called by payments inside the capture transaction,
    under the PaymentOrder's row lock; `Pass.source_order` is unique as well).

    One pass per order: a quantity of N cards gives one card of N × the tariff's credits (valid the tariff's
    months from today); N subscriptions give one subscription of N × its period. A new subscription starts the day
    after the member's current one ends, so buying ahead never loses days.
    """
    if not order.tariff_id or not order.user_id:
        return None
    existing = Pass.objects.filter(source_order_id=order.pk).first()
    if existing is not None:
        return existing
    tariff = Tariff.objects.get(pk=order.tariff_id)
    if not tariff.grants_pass:
        return None
    quantity = max(order.quantity or 1, 1)
    today = timezone.localdate()
    months_paid = tariff.pass_validity_months
    period = tariff_billing_period_months(tariff)
    if period is not None:
        months_paid = min(period, tariff.pass_validity_months)
    if tariff.pass_unlimited:
        current_end = (
            Pass.objects.filter(member_id=order.user_id, kind=PassKind.SUBSCRIPTION, expires_on__gte=today)
            .order_by("-expires_on")
            .values_list("expires_on", flat=True)
            .first()
        )
        starts_on = current_end + timedelta(days=1) if current_end else today
        kind, credits = PassKind.SUBSCRIPTION, None
        expires_on = add_months(starts_on, months_paid * quantity) - timedelta(days=1)
    else:
        starts_on = today
        kind, credits = PassKind.CARD, tariff.pass_credits * quantity
        expires_on = add_months(starts_on, months_paid * (quantity if period is not None else 1))
    pass_obj = Pass.objects.create(
        member_id=order.user_id,
        tariff=tariff,
        kind=kind,
        origin=PassOrigin.PURCHASE,
        title=tariff.title[:150],
        credits_total=credits,
        credits_left=credits,
        starts_on=starts_on,
        expires_on=expires_on,
        source_order_id=order.pk,
    )
    PassAdjustment.objects.create(
        pass_ref=pass_obj,
        action=PassAdjustmentAction.PURCHASE,
        credits_delta=credits or 0,
        expires_on_after=expires_on,
        reason=f"Commande {order.order_id}",
    )
    return pass_obj


@dataclass(frozen=True)
class CancellationOutcome:
    reservation: Reservation
    message: str
    credit_pass: Pass | None = None


def cancellation_deadline(session: CourseSession) -> datetime:
    return session.start - timedelta(hours=settings.CANCELLATION_WINDOW_HOURS)


@transaction.atomic
def reservation_cancel(*, user, reservation_id: int) -> CancellationOutcome:
    """The member cancels a confirmed reservation up to CANCELLATION_WINDOW_HOURS before the session.

    The seats are free at once. Credits spent on a card go back to it; a subscription simply frees the place; a
    reservation paid by card becomes an 'avoir': a new class card of one credit per participant, valid
    CANCELLATION_CREDIT_MONTHS months (studios do not refund automatically).
    """
    reservation_id = _as_id(reservation_id) or 0
    session_id = Reservation.objects.filter(pk=reservation_id, user=user).values_list("session_id", flat=True).first()
    if session_id is None:
        raise ReservationError(MSG_RESERVATION_NOT_FOUND)
    session = CourseSession.objects.select_for_update().get(pk=session_id)
    # Under the session lock the reservation's pass cannot change (every writer locks the session first).
    pass_id = Reservation.objects.filter(pk=reservation_id).values_list("paid_with_pass_id", flat=True).first()
    pass_obj = Pass.objects.select_for_update().get(pk=pass_id) if pass_id else None
    reservation = Reservation.objects.select_for_update().get(pk=reservation_id)
    if reservation.status != ReservationStatus.CONFIRMED:
        raise ReservationError(MSG_CANCEL_NOT_CONFIRMED)
    now = timezone.now()
    if now > cancellation_deadline(session):
        raise ReservationError(MSG_CANCEL_TOO_LATE.format(hours=settings.CANCELLATION_WINDOW_HOURS))
    reservation.status = ReservationStatus.CANCELLED
    reservation.cancelled_at = now
    reservation.save(update_fields=["status", "cancelled_at"])
    credit_pass = None
    if pass_obj is not None:
        if pass_obj.kind == PassKind.CARD and reservation.credits_spent:
            pass_obj.credits_left += reservation.credits_spent
            pass_obj.save(update_fields=["credits_left"])
            PassAdjustment.objects.create(
                pass_ref=pass_obj,
                action=PassAdjustmentAction.RETURN,
                credits_delta=reservation.credits_spent,
                reservation=reservation,
            )
            message = MSG_CANCELLED_CREDITS_RETURNED.format(credits=reservation.credits_spent, title=pass_obj.title)
        else:
            message = MSG_CANCELLED_SUBSCRIPTION
    elif reservation.total_amount > 0:
        today = timezone.localdate(now)
        expires_on = add_months(today, CANCELLATION_CREDIT_MONTHS)
        credit_pass = Pass.objects.create(
            member_id=reservation.user_id,
            kind=PassKind.CARD,
            origin=PassOrigin.CANCELLATION,
            title=CANCELLATION_CREDIT_TITLE,
            credits_total=reservation.participants,
            credits_left=reservation.participants,
            starts_on=today,
            expires_on=expires_on,
            source_reservation=reservation,
        )
        PassAdjustment.objects.create(
            pass_ref=credit_pass,
            action=PassAdjustmentAction.CANCELLATION_CREDIT,
            credits_delta=reservation.participants,
            expires_on_after=expires_on,
            reservation=reservation,
            reason=f"Annulation de la réservation {reservation.pk}",
        )
        message = MSG_CANCELLED_CREDIT_PASS.format(credits=reservation.participants, date=_fr_date(expires_on))
    else:
        message = MSG_CANCELLED_SUBSCRIPTION
    return CancellationOutcome(reservation=reservation, message=message, credit_pass=credit_pass)


def _parse_day(value, *, required: bool) -> date_type | None:
    if value in (None, ""):
        if required:
            raise ReservationError(MSG_DATE_INVALID)
        return None
    parsed = _parse_date(str(value)[:10]) if not isinstance(value, date_type) else value
    if parsed is None:
        raise ReservationError(MSG_DATE_INVALID)
    return parsed


def _parse_credits(value, *, default: int = 0) -> int:
    if value in (None, ""):
        return default
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise ReservationError(MSG_CREDITS_INVALID) from None
    if abs(number) > MAX_STAFF_CREDITS:
        raise ReservationError(MSG_CREDITS_INVALID)
    return number


@transaction.atomic
def pass_grant(
    *,
    actor,
    member_email: str,
    reason: str,
    tariff_id=None,
    kind: str = "",
    credits=None,
    starts_on=None,
    expires_on=None,
) -> Pass:
    """Staff give a member a pass: what a tariff grants (from today), or a card/subscription set by hand."""
    from accounts.models import User

    reason = (reason or "").strip()
    if not reason:
        raise ReservationError(MSG_REASON_REQUIRED)
    member = User.objects.filter(email__iexact=(member_email or "").strip()).first() if member_email else None
    if member is None:
        raise ReservationError(MSG_MEMBER_NOT_FOUND)
    tariff = None
    if tariff_id not in (None, ""):
        tariff = Tariff.objects.filter(pk=_as_id(tariff_id) or 0).first()
        if tariff is None:
            raise ReservationError(MSG_TARIFF_NOT_FOUND)
        if not tariff.grants_pass:
            raise ReservationError(MSG_TARIFF_GRANTS_NOTHING)
    starts = _parse_day(starts_on, required=False) or timezone.localdate()
    if tariff is not None and not kind:
        kind = PassKind.SUBSCRIPTION if tariff.pass_unlimited else PassKind.CARD
    if kind not in PassKind.values:
        raise ReservationError(MSG_KIND_INVALID)
    if kind == PassKind.CARD:
        credits = _parse_credits(credits, default=tariff.pass_credits if tariff else 0)
        if credits < 1:
            raise ReservationError(MSG_GRANT_CREDITS_MIN)
    else:
        credits = None
    ends = _parse_day(expires_on, required=tariff is None)
    if ends is None:
        ends = add_months(starts, tariff.pass_validity_months)
        if kind == PassKind.SUBSCRIPTION:
            ends -= timedelta(days=1)
    if ends < starts:
        raise ReservationError(MSG_END_BEFORE_START.format(date=_fr_date(starts)))
    title = tariff.title if tariff else ("Carte de cours" if kind == PassKind.CARD else "Abonnement")
    pass_obj = Pass.objects.create(
        member=member,
        tariff=tariff,
        kind=kind,
        origin=PassOrigin.STAFF,
        title=title[:150],
        credits_total=credits,
        credits_left=credits,
        starts_on=starts,
        expires_on=ends,
    )
    PassAdjustment.objects.create(
        pass_ref=pass_obj,
        action=PassAdjustmentAction.GRANT,
        by=actor,
        credits_delta=credits or 0,
        expires_on_after=ends,
        reason=reason,
    )
    return pass_obj


@transaction.atomic
def pass_adjust(*, actor, pass_id: int, reason: str, credits_delta=None, expires_on=None) -> Pass:
    """Staff add (or remove) credits and/or move the end date, under the pass's row lock; each change is logged."""
    reason = (reason or "").strip()
    pass_obj = Pass.objects.select_for_update().filter(pk=_as_id(pass_id) or 0).first()
    if pass_obj is None:
        raise ReservationError(MSG_PASS_NOT_FOUND)
    if not reason:
        raise ReservationError(MSG_REASON_REQUIRED)
    delta = _parse_credits(credits_delta)
    new_end = _parse_day(expires_on, required=False)
    if new_end == pass_obj.expires_on:
        new_end = None
    if not delta and new_end is None:
        raise ReservationError(MSG_NOTHING_TO_CHANGE)
    if delta:
        if pass_obj.kind != PassKind.CARD:
            raise ReservationError(MSG_SUBSCRIPTION_HAS_NO_CREDITS)
        if pass_obj.credits_left + delta < 0:
            raise ReservationError(MSG_CREDITS_BELOW_ZERO.format(credits=pass_obj.credits_left))
    if new_end is not None and new_end < pass_obj.starts_on:
        raise ReservationError(MSG_END_BEFORE_START.format(date=_fr_date(pass_obj.starts_on)))
    changed = []
    if delta:
        pass_obj.credits_left += delta
        if delta > 0:
            pass_obj.credits_total += delta
        changed += ["credits_left", "credits_total"]
        PassAdjustment.objects.create(
            pass_ref=pass_obj, action=PassAdjustmentAction.CREDITS, by=actor, credits_delta=delta, reason=reason
        )
    if new_end is not None:
        PassAdjustment.objects.create(
            pass_ref=pass_obj,
            action=PassAdjustmentAction.EXTEND,
            by=actor,
            expires_on_before=pass_obj.expires_on,
            expires_on_after=new_end,
            reason=reason,
        )
        pass_obj.expires_on = new_end
        changed.append("expires_on")
    pass_obj.save(update_fields=changed)
    return pass_obj


# --- Course sessions (staff) ---


def parse_paris_datetime(value) -> datetime:
    """'YYYY-MM-DD HH:MM:SS' (SPEC.md 7) read as Europe/Paris; also accepts 'YYYY-MM-DDTHH:MM' and ISO with offset."""
    if isinstance(value, datetime):
        parsed = value
    else:
        text = str(value or "").strip()
        if not text:
            raise SessionError(MSG_SESSION_FIELDS_REQUIRED)
        try:
            parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            raise SessionError(MSG_SESSION_DATE_INVALID) from None
    if timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed, timezone.get_default_timezone())
    return parsed


def _session_fields(*, course_id, start, instructor, level, max_attendees, details, end, price_per_participant) -> dict:
    instructor = (instructor or "").strip()
    if not course_id or not start or not instructor:
        raise SessionError(MSG_SESSION_FIELDS_REQUIRED)
    try:
        course = Course.objects.get(pk=int(course_id))
    except (Course.DoesNotExist, TypeError, ValueError):
        raise SessionError(MSG_COURSE_NOT_FOUND) from None
    start = parse_paris_datetime(start)
    end = parse_paris_datetime(end) if end else start + timedelta(minutes=course.duration or 60)
    if end <= start:
        raise SessionError(MSG_SESSION_END_BEFORE_START)
    level = (level or "").strip()
    if level and level not in Level.values:
        raise SessionError(MSG_LEVEL_INVALID)
    if max_attendees in (None, ""):
        max_attendees = 10
    try:
        max_attendees = int(max_attendees)
    except (TypeError, ValueError):
        raise SessionError(MSG_MAX_ATTENDEES_MIN) from None
    if max_attendees < 1:
        raise SessionError(MSG_MAX_ATTENDEES_MIN)
    fields = {
        "course": course,
        "start": start,
        "end": end,
        "instructor": instructor[:150],
        "level": level,
        "max_attendees": max_attendees,
        "details": details or "",
    }
    if price_per_participant not in (None, ""):
        try:
            price = Decimal(str(price_per_participant)).quantize(Decimal("0.01"))
        except (InvalidOperation, ValueError):
            raise SessionError(MSG_PRICE_INVALID) from None
        if price < 0:
            raise SessionError(MSG_PRICE_INVALID)
        fields["price_per_participant"] = price
    return fields


@transaction.atomic
def course_session_create(
    *,
    course_id: int,
    start,
    instructor: str,
    level: str = "",
    max_attendees: int | None = 10,
    details: str = "",
    end=None,
    price_per_participant=None,
) -> CourseSession:
    fields = _session_fields(
        course_id=course_id,
        start=start,
        instructor=instructor,
        level=level,
        max_attendees=max_attendees,
        details=details,
        end=end,
        price_per_participant=price_per_participant,
    )
    session = CourseSession.objects.create(**fields)
    bump_public_cache()
    return session


@transaction.atomic
def course_session_update(
    *,
    session_id: int,
    course_id: int,
    start,
    instructor: str,
    level: str = "",
    max_attendees: int | None = 10,
    details: str | None = None,
    end=None,
    price_per_participant=None,
) -> CourseSession:
    """Change a session. Places cannot drop below the seats already taken (checked under the session lock)."""
    try:
        session = CourseSession.objects.select_for_update().get(pk=session_id)
    except CourseSession.DoesNotExist:
        raise SessionError(MSG_SESSION_NOT_FOUND) from None
    fields = _session_fields(
        course_id=course_id,
        start=start,
        instructor=instructor,
        level=level,
        max_attendees=max_attendees,
        details=session.details if details is None else details,
        end=end,
        price_per_participant=price_per_participant,
    )
    taken = session_seats_taken(session=session)
    if fields["max_attendees"] < taken:
        raise SessionError(MSG_MAX_BELOW_TAKEN.format(taken=taken))
    for name, value in fields.items():
        setattr(session, name, value)
    session.save()
    bump_public_cache()
    return session


@transaction.atomic
def course_session_delete(*, session_id: int) -> None:
    """Delete a session that nobody ever reserved; reservations are booking records and are kept."""
    try:
        session = CourseSession.objects.select_for_update().get(pk=session_id)
    except CourseSession.DoesNotExist:
        raise SessionError(MSG_SESSION_NOT_FOUND) from None
    if session.reservations.exists():
        raise SessionError(MSG_SESSION_HAS_RESERVATIONS)
    session.delete()
    bump_public_cache()


# --- EVJF / EVG ---


def _parse_date(value) -> date_type | None:
    if isinstance(value, date_type):
        return value
    try:
        return date_type.fromisoformat(str(value).strip())
    except ValueError:
        return None


def _parse_time(value) -> time_type | None:
    if isinstance(value, time_type):
        return value
    try:
        return time_type.fromisoformat(str(value).strip())
    except ValueError:
        return None


@transaction.atomic
def party_reservation_create(
    *,
    user,
    event_type: str = PartyEventType.EVJF,
    date,
    time,
    participants,
    email: str,
    message: str = "",
    first_name: str = "",
    last_name: str = "",
    title: str = "",
) -> PartyReservation:
    """Store an EVJF/EVG request and e-mail it to the studio and the member (after commit)."""
    if user is None or not user.is_authenticated:
        raise PartyReservationError(MSG_PARTY_LOGIN_REQUIRED)
    email = (email or "").strip()
    if not (date and time and email) or participants in (None, ""):
        raise PartyReservationError(MSG_PARTY_REQUIRED)
    event_type = (event_type or PartyEventType.EVJF).strip().upper()
    if event_type not in PartyEventType.values:
        raise PartyReservationError(MSG_PARTY_EVENT_TYPE_INVALID)
    parsed_date, parsed_time = _parse_date(date), _parse_time(time)
    if parsed_date is None or parsed_time is None:
        raise PartyReservationError(MSG_PARTY_REQUIRED)
    if parsed_date < timezone.localdate():
        raise PartyReservationError(MSG_PARTY_DATE_PAST)
    try:
        participants = int(participants)
    except (TypeError, ValueError):
        raise PartyReservationError(MSG_PARTICIPANTS_MIN) from None
    if participants < 1:
        raise PartyReservationError(MSG_PARTICIPANTS_MIN)
    party = PartyReservation.objects.create(
        user=user,
        event_type=event_type,
        date=parsed_date,
        time=parsed_time,
        participants=participants,
        email=email,
        first_name=(first_name or user.first_name or "").strip(),
        last_name=(last_name or user.last_name or "").strip(),
        title=(title or "").strip()[:200],
        message=message or "",
    )
    transaction.on_commit(lambda: _send_party_emails(party.pk))
    return party


def _send_party_emails(party_id: int) -> None:
    from .emails import send_party_reservation_emails

    try:
        send_party_reservation_emails(party_id=party_id)
    except Exception:
        logger.exception("Party reservation e-mails failed for %s", party_id)


# --- Feedback ---


@transaction.atomic
def course_feedback_save(*, user, course_id, rating, comment: str) -> CourseFeedback:
    """Create or change the member's feedback on a course they followed (a confirmed reservation on a past session)."""
    comment = (comment or "").strip()
    if rating in (None, "") or not comment or not course_id:
        raise FeedbackError(MSG_FEEDBACK_REQUIRED)
    try:
        rating = int(rating)
    except (TypeError, ValueError):
        raise FeedbackError(MSG_FEEDBACK_RATING_RANGE) from None
    if not 1 <= rating <= 5:
        raise FeedbackError(MSG_FEEDBACK_RATING_RANGE)
    try:
        course_id = int(course_id)
    except (TypeError, ValueError):
        raise FeedbackError(MSG_COURSE_NOT_FOUND) from None
    followed = Reservation.objects.filter(
        user=user,
        session__course_id=course_id,
        status=ReservationStatus.CONFIRMED,
        session__start__lte=timezone.now(),
    ).exists()
    if not followed:
        raise FeedbackError(MSG_FEEDBACK_NOT_FOLLOWED)
    # update_or_create locks the row and, on a concurrent insert, retries the read (one row per member and course).
    feedback, _ = CourseFeedback.objects.update_or_create(
        user=user, course_id=course_id, defaults={"rating": rating, "comment": comment}
    )
    return feedback


@transaction.atomic
def bookings_release_for_refund(*, order) -> None:
    """A refunded payment takes back what it paid for (called by payments when PayPal reports a refund).

    The reservation it paid is cancelled and its seats are free at once; the pass it granted keeps no credit and
    ends yesterday, with a ledger line. Idempotent: a second refund event changes nothing.
    """
    yesterday = timezone.localdate() - timedelta(days=1)
    # Only the payment that confirmed the reservation takes it back: an order refunded because it paid for nothing
    # (never completed, issue 16) leaves alone the reservation another payment or a pass paid for.
    if order.reservation_id and order.completed_at is not None:
        session_id = Reservation.objects.filter(pk=order.reservation_id).values_list("session_id", flat=True).first()
        CourseSession.objects.select_for_update().get(pk=session_id)
        reservation = Reservation.objects.select_for_update().get(pk=order.reservation_id)
        paid_by_this_order = not reservation.paid_with_pass_id
        if paid_by_this_order and reservation.status in (ReservationStatus.HELD, ReservationStatus.CONFIRMED):
            reservation.status = ReservationStatus.CANCELLED
            reservation.cancelled_at = timezone.now()
            reservation.save(update_fields=["status", "cancelled_at"])
    pass_obj = Pass.objects.select_for_update().filter(source_order_id=order.pk).first()
    if pass_obj is None or (pass_obj.credits_left == 0 and pass_obj.expires_on <= yesterday):
        return
    before = pass_obj.expires_on
    credits = pass_obj.credits_left
    pass_obj.credits_left = 0
    pass_obj.expires_on = yesterday
    pass_obj.starts_on = min(pass_obj.starts_on, yesterday)
    pass_obj.save(update_fields=["credits_left", "expires_on", "starts_on"])
    PassAdjustment.objects.create(
        pass_ref=pass_obj,
        action=PassAdjustmentAction.REFUND,
        credits_delta=-credits,
        expires_on_before=before,
        expires_on_after=yesterday,
        reason=f"Commande {order.order_id} remboursée",
    )
