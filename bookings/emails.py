"""The bookings e-mails: the reservation confirmation with its .ics (bookings/ics.py, the icalendar library), the
waiting list's (the reminders are built with their context, in
services/reminders.py). The services queue them in their tasks."""

from django.conf import settings
from django.utils import timezone

from courses.booking_windows import (
    MSG_LATE_CANCELLATION_RULE,
    free_cancellation_text,
    session_free_cancellation_until,
)
from studio.emails import send_templated_email

from .checkin_codes import checkin_png, reservation_checkin_code
from .ics import REQUEST, ics_attachment, reservation_request_ics
from .models import Reservation
from .models_operations import WaitlistEntry

SUBJECT_RESERVATION_CONFIRMED = "Votre réservation est confirmée"


def send_reservation_confirmation(*, reservation_id: int) -> None:
    reservation = Reservation.objects.select_related("session__course", "session__instructor", "user").get(
        pk=reservation_id
    )
    session = reservation.session
    start = timezone.localtime(session.start)
    attachments = [ics_attachment(f"cours-{start:%Y-%m-%d}.ics", reservation_request_ics(reservation), method=REQUEST)]
    # The QR to show at the door (docs/decisions.md 58): an image of an absolute URL, which mail clients show in the
    # body, and the same PNG attached for those that block remote images.
    code = reservation_checkin_code(reservation, now=timezone.now())
    if code is not None:
        attachments.append(("code-qr-reservation.png", checkin_png(code), "image/png"))
    send_templated_email(
        to=reservation.email or reservation.user.email,
        subject=SUBJECT_RESERVATION_CONFIRMED,
        template="bookings_reservation_confirmed",
        context={
            "reservation": reservation,
            "session": session,
            "start": start,
            "end": timezone.localtime(session.end),
            "free_cancellation": free_cancellation_text(session_free_cancellation_until(session)),
            "late_cancellation_rule": MSG_LATE_CANCELLATION_RULE,
            "checkin_qr_url": f"{settings.SITE_URL}/my-courses/qr/{code}.png" if code else "",
        },
        attachments=attachments,
    )


SUBJECT_WAITLIST = {
    "waitlist_offered": "Une place s'est libérée : réservez-la avant {deadline}",
    "waitlist_booked": "Liste d'attente : votre place est réservée",
    "waitlist_skipped": "Liste d'attente : votre carte ou abonnement ne permettait pas la réservation automatique",
}


def send_waitlist_email(*, kind: str, entry_id: int, reason: str = "") -> None:
    """A waiting-list e-mail: an offer with the link to pay, a booking made with the pass, or a skipped turn (with
    `reason`, the French refusal of the pass or of its plan's rules)."""
    entry = WaitlistEntry.objects.select_related(
        "session__course", "session__instructor", "user", "reservation", "pass_ref"
    ).get(pk=entry_id)
    session = entry.session
    start = timezone.localtime(session.start)
    deadline = timezone.localtime(entry.offer_expires_at) if entry.offer_expires_at else None
    send_templated_email(
        to=entry.user.email,
        subject=SUBJECT_WAITLIST[kind].format(deadline=f"{deadline:%H:%M}" if deadline else ""),
        template=f"bookings_{kind}",
        context={
            "entry": entry,
            "session": session,
            "start": start,
            "end": timezone.localtime(session.end),
            "deadline": deadline,
            "reason": reason,
            "pay_url": f"{settings.SITE_URL}/courses/calendar?date={start:%Y-%m-%d}&session={session.pk}",
        },
        topic="waitlist",
        topic_id=entry.pk,
    )
