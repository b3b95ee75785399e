"""Quiet hours (docs/decisions.md 53): between 22:00 and 08:00 Paris time nothing is pushed and no automatic booking
is made; what would have happened waits for 08:00."""

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone

PARIS = ZoneInfo("Europe/Paris")
QUIET_FROM = time(22, 0)
QUIET_UNTIL = time(8, 0)


def in_quiet_hours(now: datetime | None = None) -> bool:
    local = (now or timezone.now()).astimezone(PARIS).time()
    return local >= QUIET_FROM or local < QUIET_UNTIL


def quiet_hours_end(now: datetime | None = None) -> datetime:
    """The next 08:00 Paris time at or after `now` (the moment the waiting work resumes)."""
    local = (now or timezone.now()).astimezone(PARIS)
    day = local.date() if local.time() < QUIET_UNTIL else local.date() + timedelta(days=1)
    return datetime.combine(day, QUIET_UNTIL, tzinfo=PARIS)
