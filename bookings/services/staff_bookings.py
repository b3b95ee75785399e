"""Staff booking and cancelling on a member's behalf (docs/decisions.md 50), from the front desk.

A booking on behalf goes through the member's own path: the session locked first, then the pass, then the member's
reservation (locking.py), the seats counted by `member_hold_with_seats_checked`, every pass rule by
`pass_choose_for_member` (validity, weekly cap, future-bookings cap, courses covered, credits). Only the booking
window is a member rule staff are not held to (docs/decisions.md 45). Paid three ways:

- `pass`: the member's class card or subscription (the one named, else the first valid one that can pay);
- `desk`: paid now at the desk: the reservation is held here, and payments (which records the sale, above bookings)
  confirms it with the sale in the same transaction (`reservation_confirm_for_payment(at_desk=True)`);
- `due` ("à régler"): confirmed now, its payment due at the desk; a later desk sale of the reservation settles it.

A cancellation on behalf is the member's own (`reservation_cancel`): free or late by the course's window, with the
member's e-mails and credits; staff's name is kept on the reservation and in the client's history.
"""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.services.staff_actions import staff_action_record
from studio.errors import CONFLICT, NOT_FOUND
from studio.queue import enqueue_after_commit
from waivers.selectors import declaration_missing, missing_text

from ..models import DeskPayment, Reservation, ReservationStatus
from .attendance import pass_choose_for_member
from .cancellation import CancellationOutcome, reservation_cancel
from .common import MSG_CARD_PAYMENT_IN_PROGRESS, ReservationError
from .late_cancellation import late_cancellations_settle_after_commit
from .locking import checked_request_on_locked_session, member_hold_with_seats_checked, payment_open_on
from .passes import pass_spend
from .reservations import _reservation_details, _reservation_save, reservation_confirmation_send

PAID_WITH_PASS, PAID_AT_DESK, PAYMENT_DUE = "pass", "desk", "due"
PAID_WITH_CHOICES = (PAID_WITH_PASS, PAID_AT_DESK, PAYMENT_DUE)

MSG_MEMBER_NOT_FOUND = "Ce client n'existe pas."
MSG_MEMBER_CLOSED = "Ce compte est fermé (supprimé ou désactivé) : cette personne ne peut pas être inscrite."
MSG_BOOKED_ON_BEHALF = "{name} est inscrit(e) au cours « {course} » du {when} ({how})."
MSG_CANCELLED_ON_BEHALF = "Réservation de {name} annulée. {outcome}"
HOW_PAID = {
    PAID_WITH_PASS: "avec sa carte ou son abonnement",
    PAID_AT_DESK: "payé à l'accueil",
    PAYMENT_DUE: "à régler",
}


class StaffBookingError(ReservationError):
    messages = {"member_not_found": MSG_MEMBER_NOT_FOUND, "member_closed": MSG_MEMBER_CLOSED}
    statuses = {"member_not_found": NOT_FOUND, "member_closed": CONFLICT}


def staff_booking_member(member_id: int) -> User:
    """The client staff act for: existing (404) and with an open account (409)."""
    member = User.objects.filter(pk=member_id).first()
    if member is None:
        raise StaffBookingError.of("member_not_found", field="user_id")
    if not member.is_active:
        raise StaffBookingError.of("member_closed", field="user_id")
    return member


def _when(session) -> str:
    return timezone.localtime(session.start).strftime("%d/%m/%Y %H:%M")


def _name(member: User) -> str:
    return member.get_full_name().strip() or member.email


@transaction.atomic
def reservation_book_for_member(
    *, staff: User, member_id: int, session_id: int, participants: int, paid_with: str, pass_id: int | None = None
) -> Reservation:
    """Book `member_id` into a session on their behalf; see the module's docstring. A `desk` booking comes back
    HELD: the caller (payments' desk sale, in this transaction) confirms it by recording the payment."""
    member = staff_booking_member(member_id)
    now = timezone.now()
    first_name, last_name, email, participants, session = checked_request_on_locked_session(
        session_id=session_id,
        participants=participants,
        first_name=member.first_name or member.email,
        last_name=member.last_name or member.email,
        email=member.email,
        now=now,
        booking_window=False,
    )
    pass_obj, credits = None, 0
    if paid_with == PAID_WITH_PASS:
        pass_obj, credits = pass_choose_for_member(
            member=member, session=session, pass_id=pass_id, participants=participants, now=now
        )
    existing = member_hold_with_seats_checked(session=session, user=member, participants=participants, now=now)
    if payment_open_on(existing):  # the member is paying online for this class: one payment, not two
        raise ReservationError(MSG_CARD_PAYMENT_IN_PROGRESS, code="card_payment_in_progress", status=CONFLICT)
    fields = {
        **_reservation_details(session, participants, first_name, last_name, email, ""),
        "booked_by": staff,
        "paid_with_pass": pass_obj,
        "credits_spent": credits,
        "desk_payment": DeskPayment.DUE if paid_with == PAYMENT_DUE else DeskPayment.NONE,
    }
    if paid_with == PAID_AT_DESK:
        fields.update(
            status=ReservationStatus.HELD, hold_expires_at=now + timedelta(minutes=settings.SEAT_HOLD_MINUTES)
        )
    else:
        fields.update(status=ReservationStatus.CONFIRMED, hold_expires_at=None, confirmed_at=now)
    reservation = _reservation_save(existing=existing, session=session, user=member, fields=fields)
    if pass_obj is not None:
        pass_spend(pass_obj=pass_obj, reservation=reservation, credits=credits)
    if reservation.status == ReservationStatus.CONFIRMED:
        late_cancellations_settle_after_commit(session=session, now=now)
        # The member's own confirmation e-mail; a desk booking's goes with its receipt (payments).
        enqueue_after_commit(reservation_confirmation_send, reservation_id=reservation.pk)
    staff_action_record(
        member=member,
        staff=staff,
        action="booked",
        summary=f"Cours réservé : {session.course.title}, {_when(session)} ({HOW_PAID[paid_with]})",
    )
    return reservation


def booked_on_behalf_message(reservation: Reservation, paid_with: str) -> str:
    session = reservation.session
    name = f"{reservation.first_name} {reservation.last_name}".strip()
    booked = MSG_BOOKED_ON_BEHALF.format(
        name=name, course=session.course.title, when=_when(session), how=HOW_PAID[paid_with]
    )
    # Staff are not stopped by a missing health declaration: they are told, and the member completes it at the door
    # (docs/decisions.md 48).
    missing = missing_text(declaration_missing(member_id=reservation.user_id))
    return f"{booked} {missing}" if missing else booked


@transaction.atomic
def reservation_cancel_for_member(*, staff: User, reservation_id: int) -> CancellationOutcome:
    """Cancel a member's booking on their behalf under the member's rules (`reservation_cancel`: the session, pass
    and reservation locked in order; free or late; credits, 'avoir' and e-mails the member's own), then record who."""
    member = User.objects.filter(reservations__pk=reservation_id).first()
    if member is None:
        raise ReservationError.of("reservation_not_found")
    outcome = reservation_cancel(user=member, reservation_id=reservation_id)
    reservation = outcome.reservation
    reservation.cancelled_by = staff
    reservation.save(update_fields=["cancelled_by"])
    session = reservation.session
    staff_action_record(
        member=member,
        staff=staff,
        action="cancelled",
        summary=(
            f"Réservation annulée : {session.course.title}, {_when(session)}"
            + (" (annulation tardive)" if outcome.late else "")
        ),
    )
    return outcome
