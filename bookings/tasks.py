"""The scheduled jobs of bookings (docs/decisions.md 41); each calls a service. The work queued after a commit is
defined by the service that does it (e.g. `services.reservations.reservation_confirmation_send`)."""

from crontask import cron
from django.tasks import task

from .services.availability import reservations_release_expired
from .services.reminders import reminders_send_due
from .services.substitutes import substitute_alerts_send
from .services.waitlist import waitlist_sweep


@cron("* * * * *")
@task
def holds_release_expired() -> int:
    """Free the seats of lapsed holds. One UPDATE guarded by the HELD status: two schedulers release each hold once."""
    return reservations_release_expired()


@cron("* * * * *")
@task
def waitlist_offers_sweep() -> int:
    """Every minute: unclaimed offers pass to the next member, seats freed by lapsed holds are offered. Each session
    is handled under its row lock: two schedulers offer each seat once (docs/decisions.md 41)."""
    return waitlist_sweep()


@cron("*/5 * * * *")
@task
def reminders_send() -> int:
    """Every 5 minutes: the reminders due (24 h before a class, before the free cancellation closes), each sent once
    even when two schedulers run it (a unique row per reservation and kind, docs/decisions.md 41)."""
    return reminders_send_due()


@cron("*/15 * * * *")
@task
def substitute_alerts() -> int:
    """Every 15 minutes: staff hear of each substitute request still open 48 h before its class, once per request
    even when two schedulers run it (a guarded UPDATE claims each, docs/decisions.md 41 and 52)."""
    return substitute_alerts_send()


@cron("0 8 * * *")
@task
def waitlist_quiet_hours_over() -> int:
    """At 08:00 Paris time, when the quiet hours end (docs/decisions.md 53): the automatic bookings that waited the
    night are made at once (the every-minute sweep would make them within the minute; this says when it happens)."""
    return waitlist_sweep()
