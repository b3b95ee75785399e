"""Passes (class cards and subscriptions): booking with a pass, granting one for an order."""

from datetime import date as date_type
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from courses.models import CourseSession, Tariff
from studio.errors import CONFLICT, NOT_FOUND
from studio.queue import enqueue_after_commit
from waivers.services import declaration_require

from ..models import (
    Pass,
    PassAdjustment,
    PassAdjustmentAction,
    PassKind,
    PassOrigin,
    Reservation,
    ReservationStatus,
)
from .common import MSG_CARD_PAYMENT_IN_PROGRESS, ReservationError, _as_id, _fr_date, add_months
from .late_cancellation import late_cancellations_settle_after_commit
from .locking import (
    checked_request_on_locked_session,
    lock_pass,
    member_hold_with_seats_checked,
    payment_open_on,
)
from .pass_rules import PassRuleError, pass_check_rules, pass_rules_from_tariff
from .reservations import _reservation_details, _reservation_save, reservation_confirmation_send

# --- Passes: class cards and subscriptions ---

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


class PassError(ReservationError):
    """A pass refused for a booking: `PassError.of(code, **params)` reads the French text and HTTP status from the
    tables (400 unless listed in `statuses`); the staff changes add their codes in pass_admin.PassAdminError."""

    default_code = "pass_invalid"
    messages = {
        "pass_not_found": MSG_PASS_NOT_FOUND,
        "pass_expired": MSG_PASS_EXPIRED,
        "pass_not_valid_on_session": MSG_PASS_NOT_VALID_ON_SESSION,
        "pass_no_credits": MSG_PASS_NO_CREDITS,
        "pass_not_enough_credits": MSG_PASS_NOT_ENOUGH_CREDITS,
        "pass_subscription_alone": MSG_PASS_SUBSCRIPTION_ALONE,
    }
    # The pass as it stands (its dates, its credits, a subscription's single seat) refuses the booking, not the
    # request's shape: a conflict (409), as schemathesis expects of a schema-valid request.
    statuses = {
        "pass_not_found": NOT_FOUND,
        "pass_expired": CONFLICT,
        "pass_not_valid_on_session": CONFLICT,
        "pass_no_credits": CONFLICT,
        "pass_not_enough_credits": CONFLICT,
        "pass_subscription_alone": CONFLICT,
    }


def pass_check_usable(*, pass_obj: Pass, session: CourseSession, participants: int, today: date_type) -> int:
    """The credits a booking of `participants` on `session` costs with this pass, or PassError.

    A card costs one credit per participant; a subscription covers the member alone and costs nothing.
    The pass must be valid on the session's (Paris) day and not expired today.
    """
    if pass_obj.expires_on < today:
        raise PassError.of("pass_expired", date=_fr_date(pass_obj.expires_on))
    session_day = timezone.localtime(session.start).date()
    if not pass_obj.starts_on <= session_day <= pass_obj.expires_on:
        raise PassError.of(
            "pass_not_valid_on_session", start=_fr_date(pass_obj.starts_on), end=_fr_date(pass_obj.expires_on)
        )
    if pass_obj.kind == PassKind.SUBSCRIPTION:
        if participants != 1:
            raise PassError.of("pass_subscription_alone", field="participants")
        return 0
    if pass_obj.credits_left <= 0:
        raise PassError.of("pass_no_credits")
    if participants > pass_obj.credits_left:
        raise PassError.of("pass_not_enough_credits", field="participants", credits=pass_obj.credits_left)
    return participants


PASS_REFUSALS = (PassError, PassRuleError)


def pass_check_booking(*, pass_obj: Pass, session: CourseSession, participants: int, today: date_type) -> int:
    """What every path that books with a pass checks (a direct booking, a waiting-list join with automatic booking,
    the automatic booking when a seat frees, a walk-in), under the pass's row lock taken by the caller: the plan's
    rules (unpaid for 7 days, frozen, weekly cap: PassRuleError), then the pass's dates and credits (PassError).
    Returns the credits the booking costs."""
    pass_check_rules(pass_obj=pass_obj, session=session, today=today)
    return pass_check_usable(pass_obj=pass_obj, session=session, participants=participants, today=today)


def pass_spend(*, pass_obj: Pass, reservation: Reservation, credits: int) -> None:
    """Under the pass's row lock: take the booking's credits off the card (none for a subscription) with the ledger's
    line. Every path that books with a pass spends through here (a member's booking, a walk-in, staff booking on a
    member's behalf)."""
    if credits:
        pass_obj.credits_left -= credits
        pass_obj.save(update_fields=["credits_left"])
    PassAdjustment.objects.create(
        pass_ref=pass_obj, action=PassAdjustmentAction.SPEND, credits_delta=-credits, reservation=reservation
    )


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
    declaration_require(member=user)  # the health questionnaire and documents first (docs/decisions.md 48)
    now = timezone.now()
    first_name, last_name, email, participants, session = checked_request_on_locked_session(
        session_id=session_id,
        participants=participants,
        first_name=first_name,
        last_name=last_name,
        email=email,
        now=now,
    )
    pass_obj = lock_pass(_as_id(pass_id) or 0, member=user)
    if pass_obj is None:
        raise PassError.of("pass_not_found", field="pass_id")
    credits = pass_check_booking(
        pass_obj=pass_obj, session=session, participants=participants, today=timezone.localdate(now)
    )
    existing = member_hold_with_seats_checked(session=session, user=user, participants=participants, now=now)
    if payment_open_on(existing):
        # card or pass, never both: what is confirmed equals what was paid (docs/decisions.md 14)
        raise ReservationError(MSG_CARD_PAYMENT_IN_PROGRESS, code="card_payment_in_progress", status=CONFLICT)
    fields = {
        **_reservation_details(session, participants, first_name, last_name, email, message),
        "status": ReservationStatus.CONFIRMED,
        "hold_expires_at": None,
        "confirmed_at": now,
        "paid_with_pass": pass_obj,
        "credits_spent": credits,
    }
    reservation = _reservation_save(existing=existing, session=session, user=user, fields=fields)
    pass_spend(pass_obj=pass_obj, reservation=reservation, credits=credits)
    late_cancellations_settle_after_commit(session=session, now=now)
    enqueue_after_commit(reservation_confirmation_send, reservation_id=reservation.pk)
    return reservation


# A tariff priced per period ("55 € par mois", "120 € par trimestre"): a purchase grants exactly the periods paid,
# never the whole commitment; each later period extends the pass once it is paid (docs/decisions.md 24).
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
    under the PaymentOrder's row lock; `PaymentOrder.granted_pass` is unique as well). The caller records the pass
    on the order: bookings never writes a payments row.

    One pass per order: a quantity of N cards gives one card of N × the tariff's credits (valid the tariff's
    months from today); N subscriptions give one subscription of N × its period. A new subscription starts the day
    after the member's current one ends, so buying ahead never loses days.
    """
    if not order.tariff_id or not order.user_id:
        return None
    if order.granted_pass_id:
        return Pass.objects.get(pk=order.granted_pass_id)
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
    )
    pass_rules_from_tariff(pass_obj=pass_obj, tariff=tariff)
    PassAdjustment.objects.create(
        pass_ref=pass_obj,
        action=PassAdjustmentAction.PURCHASE,
        credits_delta=credits or 0,
        expires_on_after=expires_on,
        reason=f"Commande {order.order_id}",
    )
    return pass_obj
