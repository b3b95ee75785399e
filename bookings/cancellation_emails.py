"""The e-mails of a cancelled booking: the member's own cancellation, a class the studio cancelled (the reason, what
happens to the payment), the members waiting for a place in it, and a late cancellation made good (the seat was taken
again, docs/decisions.md 44). A cancelled booking's e-mail carries an iCalendar
CANCEL (RFC 5546) of the very event the confirmation's .ics added (same UID, a higher SEQUENCE), so that calendar apps
remove it; both are built by bookings/ics.py."""

from django.utils import timezone

from studio.emails import send_templated_email

from .ics import CANCEL, ics_attachment, reservation_cancel_ics
from .models import PassKind, Reservation
from .models_operations import LateCancellation, WaitlistEntry

SUBJECT_CLASS_CANCELLED = "Cours annulé : {title} du {date}"
SUBJECT_RESERVATION_CANCELLED = "Réservation annulée : {title} du {date}"
SUBJECT_LATE_CANCELLATION_RETURNED = "Place reprise : votre crédit pour {title} du {date} vous est rendu"
PAYMENT_CREDITS_BACK = "Les {credits} crédit(s) utilisé(s) sont rendus sur votre {title}."
PAYMENT_SUBSCRIPTION = "Votre abonnement reste valable pour un autre cours."
PAYMENT_REFUNDED = "Votre paiement de {amount} € vous est remboursé intégralement sur votre moyen de paiement."
PAYMENT_NOTHING = "Aucun paiement n'avait été enregistré pour cette réservation."
# A walk-in paid at the desk (docs/decisions.md 38): no card was charged, the studio gives the money back at the desk.
PAYMENT_AT_DESK = "Vous aviez réglé {amount} € à l'accueil : le studio vous les rembourse à l'accueil."


def _payment_line(reservation: Reservation) -> str:
    pass_obj = reservation.paid_with_pass
    if pass_obj is not None:
        if pass_obj.kind == PassKind.CARD and reservation.credits_spent:
            return PAYMENT_CREDITS_BACK.format(credits=reservation.credits_spent, title=pass_obj.title)
        return PAYMENT_SUBSCRIPTION
    attendance = getattr(reservation, "attendance", None)
    if attendance is not None and attendance.paid_at_desk and reservation.total_amount > 0:
        return PAYMENT_AT_DESK.format(amount=f"{reservation.total_amount:.2f}".replace(".", ","))
    if reservation.total_amount > 0:
        return PAYMENT_REFUNDED.format(amount=f"{reservation.total_amount:.2f}".replace(".", ","))
    return PAYMENT_NOTHING


def _cancel_attachment(reservation: Reservation, *, reason: str = "") -> tuple[str, str, str]:
    start = timezone.localtime(reservation.session.start)
    return ics_attachment(
        f"annulation-{start:%Y-%m-%d}.ics", reservation_cancel_ics(reservation, reason=reason), method=CANCEL
    )


def _send_about_class(*, to: str, session, subject: str, template: str, context: dict, **options) -> None:
    """An e-mail about one class: the subject names its course and day; the template gets the session and its Paris
    start and end besides `context`."""
    start = timezone.localtime(session.start)
    send_templated_email(
        to=to,
        subject=subject.format(title=session.course.title, date=f"{start:%d/%m/%Y}"),
        template=template,
        context={"session": session, "start": start, "end": timezone.localtime(session.end), **context},
        **options,
    )


def send_class_cancelled(*, reservation_id: int) -> None:
    reservation = Reservation.objects.select_related(
        "session__course", "session__instructor", "user", "paid_with_pass", "attendance"
    ).get(pk=reservation_id)
    _send_about_class(
        to=reservation.email or reservation.user.email,
        session=reservation.session,
        subject=SUBJECT_CLASS_CANCELLED,
        template="bookings_class_cancelled",
        context={"reservation": reservation, "payment_line": _payment_line(reservation)},
        attachments=[_cancel_attachment(reservation, reason=reservation.session.cancellation_reason)],
    )


def send_reservation_cancelled(*, reservation_id: int, outcome: str) -> None:
    """The member cancelled their own booking: what happened to what they paid (`outcome`, the message the site
    showed them) and the calendar CANCEL. Nothing for an account being closed (the member asked to hear no more)."""
    reservation = Reservation.objects.select_related("session__course", "session__instructor", "user").get(
        pk=reservation_id
    )
    if not reservation.user.is_active:
        return
    _send_about_class(
        to=reservation.email or reservation.user.email,
        session=reservation.session,
        subject=SUBJECT_RESERVATION_CANCELLED,
        template="bookings_reservation_cancelled",
        context={"reservation": reservation, "outcome": outcome},
        attachments=[_cancel_attachment(reservation)],
    )


def send_waitlist_class_cancelled(*, entry_id: int) -> None:
    """A member waiting for a place (or offered one) in a class the studio cancelled: the class will not happen and
    they are no longer on its waiting list."""
    entry = WaitlistEntry.objects.select_related("session__course", "session__instructor", "user").get(pk=entry_id)
    _send_about_class(
        to=entry.user.email,
        session=entry.session,
        subject=SUBJECT_CLASS_CANCELLED,
        template="bookings_waitlist_class_cancelled",
        context={"entry": entry},
        topic="waitlist",
        topic_id=entry.pk,
    )


def send_late_cancellation_returned(*, late_cancellation_id: int, outcome: str, class_cancelled: bool = False) -> None:
    """What a late cancellation had kept comes back (`outcome`, in words): the seat was taken again before the class,
    or the studio cancelled the class."""
    late = LateCancellation.objects.select_related("reservation__user", "session__course").get(pk=late_cancellation_id)
    reservation = late.reservation
    if not reservation.user.is_active:
        return
    _send_about_class(
        to=reservation.email or reservation.user.email,
        session=late.session,
        subject=SUBJECT_LATE_CANCELLATION_RETURNED,
        template="bookings_late_cancellation_returned",
        context={"reservation": reservation, "outcome": outcome, "class_cancelled": class_cancelled},
    )
