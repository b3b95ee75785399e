"""Quiet hours (docs/decisions.md 53): between 22:00 and 08:00 Paris time nothing is pushed and no automatic booking
is made; what would have happened waits for 08:00 (`settings.QUIET_HOURS`, None: no quiet hours)."""

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone

PARIS = ZoneInfo("Europe/Paris")


def in_quiet_hours(now: datetime | None = None) -> bool:
    if not settings.QUIET_HOURS:
        return False
    start, end = (time(*hm) for hm in settings.QUIET_HOURS)
    local = (now or timezone.now()).astimezone(PARIS).time()
    return local >= start or local < end


def quiet_hours_end(now: datetime | None = None) -> datetime:
    """The next end of the quiet hours (08:00 Paris) at or after `now`: when the waiting work resumes."""
    end = time(*settings.QUIET_HOURS[1])
    local = (now or timezone.now()).astimezone(PARIS)
    day = local.date() if local.time() < end else local.date() + timedelta(days=1)
    return datetime.combine(day, end, tzinfo=PARIS)
