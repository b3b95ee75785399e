"""Reminder e-mails (docs/decisions.md 29) and the member's booking preferences.

Two reminders per confirmed booking, each switchable on the profile (`BookingPreferences`):
  - the day before: sent from 24 hours before the class (course, time, instructor, address, how and until when to
    cancel), to a booking made before that moment (a later booking just got its confirmation);
  - the end of the free cancellation: sent REMINDER_BEFORE_DEADLINE_HOURS before the cancellation deadline
    (`cancellation_deadline`), to a booking made before that moment.
None for a cancelled booking or a class the studio cancelled. Each is sent once: a `ReservationReminder` row per
reservation and kind (unique), inserted in the transaction that records the e-mail in the outbox, so two schedulers
running the job at once send it once.

Each reminder carries a List-Unsubscribe link (RFC 2369, one click by RFC 8058): a URL signed for the member that turns
both switches off without logging in (`reminders_unsubscribe`).
"""

import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import IntegrityError, transaction
from django.utils import timezone

from courses.booking_windows import (
    MAX_WINDOW,
    MSG_LATE_CANCELLATION_RULE,
    free_cancellation_text,
    session_free_cancellation_until,
)
from courses.models import SessionStatus
from studio.day_text import day_text
from studio.emails import send_templated_email
from studio.errors import NOT_FOUND, ApplicationError

from ..models import Reservation, ReservationStatus
from ..models_operations import BookingPreferences, ReminderKind, ReservationReminder
from .cancellation import cancellation_deadline
from .phone_pushes import reminder_push

REMINDER_BEFORE_CLASS_HOURS = 24
REMINDER_BEFORE_DEADLINE_HOURS = 2
# The day-before reminder of a booking already past its free cancellation (docs/decisions.md 44).
LATE_CANCELLATION_NOTICE = (
    "L'annulation gratuite est terminée. En cas d'empêchement, annulez quand même depuis Mes cours (annulation "
    "tardive) : le studio conserve votre crédit ou votre paiement, sauf si votre place est reprise avant le cours."
)
MSG_PREFERENCES_SAVED = "Vos préférences de rappel sont enregistrées."
MSG_REMINDERS_UNSUBSCRIBED = "C'est noté : vous ne recevrez plus de rappels de cours par e-mail."
MSG_UNSUBSCRIBE_LINK_INVALID = "Ce lien de désinscription n'est pas valide."
# The class's day as the reminder names it, seen from the moment it is sent (Europe/Paris).
DAY_TODAY = "aujourd'hui"
DAY_TOMORROW = "demain"
DAY_ON = "le {date}"
_UNSUBSCRIBE_SALT = "bookings.reminders.unsubscribe"
SUBJECT_REMINDER = {
    "day_before": "Rappel : votre cours {title} {day} à {time}",
    "cancellation_deadline": "Annulation gratuite possible jusqu'à {deadline} pour votre cours {title}",
}


class ReminderError(ApplicationError):
    messages = {"unsubscribe_link_invalid": MSG_UNSUBSCRIBE_LINK_INVALID}
    statuses = {"unsubscribe_link_invalid": NOT_FOUND}


def booking_preferences_get(*, user) -> BookingPreferences:
    """The member's preferences (the defaults, unsaved, when they never changed them)."""
    return BookingPreferences.objects.filter(user=user).first() or BookingPreferences(user=user)


_REMINDER_FLAGS = ("remind_day_before", "remind_cancellation_deadline")


def booking_preferences_flags(*, user_id: int) -> dict[str, bool]:
    """The two reminder switches as the profile shows them (the defaults without a row): one query."""
    row = BookingPreferences.objects.filter(user_id=user_id).values_list(*_REMINDER_FLAGS).first()
    if row is not None:
        return dict(zip(_REMINDER_FLAGS, row, strict=True))
    return {name: BookingPreferences._meta.get_field(name).default for name in _REMINDER_FLAGS}


@transaction.atomic
def booking_preferences_update(
    *, user, remind_day_before: bool | None = None, remind_cancellation_deadline: bool | None = None
) -> BookingPreferences:
    prefs, _ = BookingPreferences.objects.select_for_update().get_or_create(user=user)
    if remind_day_before is not None:
        prefs.remind_day_before = remind_day_before
    if remind_cancellation_deadline is not None:
        prefs.remind_cancellation_deadline = remind_cancellation_deadline
    prefs.save(update_fields=["remind_day_before", "remind_cancellation_deadline"])
    return prefs


@transaction.atomic
def calendar_token_regenerate(*, user) -> BookingPreferences:
    """A new secret for the member's calendar feed: the old URL stops working at once (404)."""
    prefs, _ = BookingPreferences.objects.select_for_update().get_or_create(user=user)
    prefs.calendar_token = secrets.token_urlsafe(32)
    prefs.calendar_token_created_at = timezone.now()
    prefs.save(update_fields=["calendar_token", "calendar_token_created_at"])
    return prefs


def _due(*, kind: str, now):
    """Confirmed bookings of upcoming, not cancelled classes whose reminder of `kind` is due now and not yet sent."""
    qs = Reservation.objects.filter(status=ReservationStatus.CONFIRMED, session__start__gt=now).exclude(
        reminders__kind=kind
    )
    if kind == ReminderKind.DAY_BEFORE:
        moment = timedelta(hours=REMINDER_BEFORE_CLASS_HOURS)
        qs = qs.filter(session__start__lte=now + moment).exclude(user__booking_preferences__remind_day_before=False)
    else:
        # Each course has its own window: the classes any window may concern are read, then each row's own.
        before = timedelta(hours=REMINDER_BEFORE_DEADLINE_HOURS)
        qs = qs.filter(session__start__lte=now + MAX_WINDOW + before).exclude(
            user__booking_preferences__remind_cancellation_deadline=False
        )
    qs = qs.exclude(session__status=SessionStatus.CANCELLED).select_related("session__course")
    due = []
    for r in qs:
        if kind == ReminderKind.DAY_BEFORE:
            sent_at = r.session.start - moment
        else:
            deadline = session_free_cancellation_until(r.session)
            sent_at = deadline - before
            if not sent_at <= now < deadline:
                continue
        # Booked before the reminder's moment: a later booking has just had its confirmation e-mail.
        if r.confirmed_at is None or r.confirmed_at <= sent_at:
            due.append(r)
    return due


def reminders_send_due(*, now=None) -> int:
    """The scheduler's job: send every reminder due now, each once. Returns how many were sent."""
    now = now or timezone.now()
    sent = 0
    for kind in (ReminderKind.CANCELLATION_DEADLINE, ReminderKind.DAY_BEFORE):
        for reservation in _due(kind=kind, now=now):
            try:
                with transaction.atomic():
                    ReservationReminder.objects.create(reservation=reservation, kind=kind)
                    send_reservation_reminder(reservation_id=reservation.pk, kind=kind, now=now)
            except IntegrityError:  # another scheduler sent it
                continue
            sent += 1
    return sent


def class_day_word(start, *, now) -> str:
    """ "aujourd'hui", "demain" or "le 03/12/2026": the class's day in Europe/Paris, seen from `now` there."""
    days = (timezone.localtime(start).date() - timezone.localtime(now).date()).days
    if days == 0:
        return DAY_TODAY
    if days == 1:
        return DAY_TOMORROW
    return DAY_ON.format(date=day_text(timezone.localtime(start)))


def reminder_context(reservation: Reservation, *, now) -> dict:
    session = reservation.session
    deadline = cancellation_deadline(session)
    return {
        "reservation": reservation,
        "session": session,
        "start": timezone.localtime(session.start),
        "end": timezone.localtime(session.end),
        "day_word": class_day_word(session.start, now=now),
        "deadline": timezone.localtime(deadline),
        "can_still_cancel": now < deadline,
        "free_cancellation": free_cancellation_text(deadline),
        "late_cancellation_rule": MSG_LATE_CANCELLATION_RULE,
        "late_cancellation_notice": LATE_CANCELLATION_NOTICE,
        "unsubscribe_url": reminders_unsubscribe_url(user_id=reservation.user_id),
    }


def reminders_unsubscribe_url(*, user_id: int) -> str:
    """The member's link that turns their reminders off without logging in (List-Unsubscribe)."""
    token = signing.Signer(salt=_UNSUBSCRIBE_SALT).sign(str(user_id))
    return f"{settings.SITE_URL}/my-courses/reminders/unsubscribe/{token}"


def reminders_unsubscribe(*, token: str) -> BookingPreferences:
    """Both reminder switches off for the member the link was signed for (the profile's same switches).
    Idempotent; a forged, altered or closed account's link is refused and changes nothing."""
    try:
        user_id = int(signing.Signer(salt=_UNSUBSCRIBE_SALT).unsign(token or ""))
    except (signing.BadSignature, ValueError):
        raise ReminderError.of("unsubscribe_link_invalid") from None
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise ReminderError.of("unsubscribe_link_invalid")
    return booking_preferences_update(user=user, remind_day_before=False, remind_cancellation_deadline=False)


def send_reservation_reminder(*, reservation_id: int, kind: str, now) -> None:
    """A reminder of a booked class (docs/decisions.md 29): the day before, or before the free cancellation closes."""
    reservation = Reservation.objects.select_related("session__course", "session__instructor", "user").get(
        pk=reservation_id
    )
    context = reminder_context(reservation, now=now)
    subject = SUBJECT_REMINDER[kind].format(
        title=reservation.session.course.title,
        day=context["day_word"],
        time=f"{context['start']:%H:%M}",
        deadline=f"{context['deadline']:%H:%M}",
    )
    send_templated_email(
        to=reservation.email or reservation.user.email,
        subject=subject,
        template=f"bookings_reminder_{kind}",
        context=context,
        topic="reminder",
        topic_id=reservation.pk,
        # One click turns the reminders off (RFC 8058): the mail client POSTs to the signed URL, no login.
        headers={
            "List-Unsubscribe": f"<{context['unsubscribe_url']}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    reminder_push(user_id=reservation.user_id, text=subject)
