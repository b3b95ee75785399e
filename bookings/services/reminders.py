"""Reminder e-mails (issue 21, DECISIONS.md 29) and the member's booking preferences.

Two reminders per confirmed booking, each switchable on the profile (`BookingPreferences`):
  - the day before: sent from 24 hours before the class (course, time, instructor, address, how and until when to
    cancel), to a booking made before that moment (a later booking just got its confirmation);
  - the end of the free cancellation: sent REMINDER_BEFORE_DEADLINE_HOURS before the cancellation deadline
    (`cancellation_deadline`), to a booking made before that moment.
None for a cancelled booking or a class the studio cancelled. Each is sent once: a `ReservationReminder` row per
reservation and kind (unique), inserted in the transaction that records the e-mail in the outbox, so two schedulers
running the job at once send it once.
"""

import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from courses.models import SessionStatus
from studio.prepared import PreparedQuery

from ..models import BookingPreferences, ReminderKind, Reservation, ReservationReminder, ReservationStatus
from .cancellation import cancellation_deadline

logger = logging.getLogger(__name__)

REMINDER_BEFORE_CLASS_HOURS = 24
REMINDER_BEFORE_DEADLINE_HOURS = 2
MSG_PREFERENCES_SAVED = "Vos préférences de rappel sont enregistrées."


def booking_preferences_get(*, user) -> BookingPreferences:
    """The member's preferences (the defaults, unsaved, when they never changed them)."""
    return BookingPreferences.objects.filter(user=user).first() or BookingPreferences(user=user)


_REMINDER_FLAGS = ("remind_day_before", "remind_cancellation_deadline")
_PREFERENCES_FLAGS = PreparedQuery(
    lambda user_id: BookingPreferences.objects.filter(user_id=user_id).order_by().values_list(*_REMINDER_FLAGS),
    user_id="int",
)


def booking_preferences_flags(*, user_id: int) -> dict[str, bool]:
    """The two reminder switches as the profile shows them (the defaults without a row): one prepared query."""
    for row in _PREFERENCES_FLAGS.rows(user_id=user_id, limit=1):
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
        moment = timedelta(hours=settings.CANCELLATION_WINDOW_HOURS + REMINDER_BEFORE_DEADLINE_HOURS)
        deadline = timedelta(hours=settings.CANCELLATION_WINDOW_HOURS)
        qs = qs.filter(session__start__lte=now + moment, session__start__gt=now + deadline).exclude(
            user__booking_preferences__remind_cancellation_deadline=False
        )
    qs = qs.exclude(session__status=SessionStatus.CANCELLED)
    # Booked before the reminder's moment: a later booking has just had its confirmation e-mail.
    return [
        r for r in qs.select_related("session") if r.confirmed_at is None or r.confirmed_at <= r.session.start - moment
    ]


def reminders_send_due(*, now=None) -> int:
    """The scheduler's job: send every reminder due now, each once. Returns how many were sent."""
    from ..emails import send_reservation_reminder

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


def reminder_context(reservation: Reservation, *, now) -> dict:
    session = reservation.session
    deadline = cancellation_deadline(session)
    return {
        "reservation": reservation,
        "session": session,
        "start": timezone.localtime(session.start),
        "end": timezone.localtime(session.end),
        "deadline": timezone.localtime(deadline),
        "can_still_cancel": now < deadline,
        "cancellation_hours": settings.CANCELLATION_WINDOW_HOURS,
    }
