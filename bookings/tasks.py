"""Background work of bookings (DECISIONS.md 41)."""

from crontask import cron
from django.tasks import task

from .services import reservations_release_expired


@cron("* * * * *")
@task
def holds_release_expired() -> int:
    """Free the seats of lapsed holds. One UPDATE guarded by the HELD status: two schedulers release each hold once."""
    return reservations_release_expired()
