"""The e-mail of a class the studio cancelled (issue 20): the reason, what happens to the payment, and an iCalendar
CANCEL (RFC 5546) of the very event the confirmation's .ics added (same UID, a higher SEQUENCE), so that calendar
apps remove it. Built with the `icalendar` library."""

from datetime import UTC

from django.conf import settings
from django.utils import timezone
from icalendar import Calendar, Event

from studio.emails import send_templated_email

from .models import PassKind, Reservation

SUBJECT_CLASS_CANCELLED = "Cours annulé : {title} du {date}"
PAYMENT_CREDITS_BACK = "Les {credits} crédit(s) utilisé(s) sont rendus sur votre {title}."
PAYMENT_SUBSCRIPTION = "Votre abonnement reste valable pour un autre cours."
PAYMENT_REFUNDED = "Votre paiement de {amount} € vous est remboursé intégralement sur votre moyen de paiement."
PAYMENT_NOTHING = "Aucun paiement n'avait été enregistré pour cette réservation."
# A walk-in paid at the desk (DECISIONS.md 38): no card was charged, the studio gives the money back at the desk.
PAYMENT_AT_DESK = "Vous aviez réglé {amount} € à l'accueil : le studio vous les rembourse à l'accueil."


def _host() -> str:
    return settings.SITE_URL.split("://")[-1].split("/")[0]


def reservation_cancel_ics(reservation: Reservation) -> bytes:
    """METHOD:CANCEL of the event `reservation_ics` published (UID `reservation-<id>@<host>`)."""
    session = reservation.session
    calendar = Calendar()
    calendar.add("prodid", f"-//{settings.STUDIO['name']}//Réservations//FR")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "CANCEL")
    event = Event()
    event.add("uid", f"reservation-{reservation.pk}@{_host()}")
    event.add("dtstamp", timezone.now().astimezone(UTC))
    event.add("dtstart", session.start.astimezone(UTC))
    event.add("dtend", session.end.astimezone(UTC))
    event.add("sequence", 1)
    event.add("status", "CANCELLED")
    event.add("summary", f"Annulé : {session.course.title}")
    event.add("description", session.cancellation_reason)
    calendar.add_component(event)
    return calendar.to_ical()


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


def send_class_cancelled(*, reservation_id: int) -> None:
    reservation = Reservation.objects.select_related(
        "session__course", "session__instructor", "user", "paid_with_pass", "attendance"
    ).get(pk=reservation_id)
    session = reservation.session
    start = timezone.localtime(session.start)
    send_templated_email(
        to=reservation.email or reservation.user.email,
        subject=SUBJECT_CLASS_CANCELLED.format(title=session.course.title, date=f"{start:%d/%m/%Y}"),
        template="bookings_class_cancelled",
        context={
            "reservation": reservation,
            "session": session,
            "start": start,
            "end": timezone.localtime(session.end),
            "payment_line": _payment_line(reservation),
        },
        attachments=[(f"annulation-{start:%Y-%m-%d}.ics", reservation_cancel_ics(reservation), "text/calendar")],
    )
