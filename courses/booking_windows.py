"""When a session opens for booking and until when it is cancelled free of charge (docs/decisions.md 44-45).

Both are read from the session's course (select_related("course")), falling back on the studio's settings, and
computed in Europe/Paris: "14 days before at 00:00" is midnight in Paris, whatever the daylight-saving time.
"""

from datetime import UTC, datetime, time, timedelta

from django.conf import settings
from django.utils import formats, timezone

from .models import MAX_FREE_CANCELLATION_HOURS

# The longest free-cancellation window a course may have.
MAX_WINDOW = timedelta(hours=MAX_FREE_CANCELLATION_HOURS)
# A window that would start before the calendar's first day (a session dated in year 1) starts on its second day,
# which every time zone can still write.
EARLIEST = datetime(1, 1, 2, tzinfo=UTC)


def _studio_opening_time() -> time:
    return time.fromisoformat(settings.BOOKING_OPENS_AT)


def session_booking_opens_at(session) -> datetime:
    """The moment booking opens: N days before the session's Paris day, at the opening time (Paris)."""
    course = session.course
    days = course.booking_opens_days_before
    if days is None:
        days = settings.BOOKING_OPENS_DAYS_BEFORE
    at = course.booking_opens_time or _studio_opening_time()
    tz = timezone.get_default_timezone()
    try:
        day = timezone.localtime(session.start, tz).date() - timedelta(days=days)
        return max(timezone.make_aware(datetime.combine(day, at), tz), EARLIEST)
    except OverflowError:
        return EARLIEST


def session_free_cancellation_until(session) -> datetime:
    """Until this moment a member cancels free of charge; later it is a late cancellation."""
    try:
        return max(session.start - timedelta(hours=session.course.free_cancellation_hours), EARLIEST)
    except OverflowError:
        return EARLIEST


def moment_text(value: datetime) -> str:
    """ "14 décembre 2026 à 00:00": a moment as the French messages, e-mails and pages write it (Paris time)."""
    local = timezone.localtime(value, timezone.get_default_timezone())
    return f"{formats.date_format(local, 'j F Y')} à {local:%H:%M}"


# docs/decisions.md 44: the popup, the confirmation, the reminder and "Mes cours" say the window in these words.
MSG_FREE_CANCELLATION_UNTIL = "Annulation gratuite jusqu'au {when}."
MSG_LATE_CANCELLATION_RULE = (
    "Après, vous pouvez encore annuler (annulation tardive) : le studio conserve votre crédit ou votre paiement, "
    "sauf si votre place est reprise avant le cours."
)


def free_cancellation_text(deadline: datetime) -> str:
    """ "Annulation gratuite jusqu'au 3 décembre 2026 à 18:30." """
    return MSG_FREE_CANCELLATION_UNTIL.format(when=moment_text(deadline))
