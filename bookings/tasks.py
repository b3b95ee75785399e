"""Background work of bookings (docs/decisions.md 41)."""

from crontask import cron
from django.tasks import task

from .services.availability import reservations_release_expired


@cron("* * * * *")
@task
def holds_release_expired() -> int:
    """Free the seats of lapsed holds. One UPDATE guarded by the HELD status: two schedulers release each hold once."""
    return reservations_release_expired()


@task
def waitlist_offer_session(session_id: int) -> int:
    """Offer a session's freed seats to its waiting list (enqueued after a cancellation or a raise of the places)."""
    from .services.waitlist import waitlist_offer_freed_seats

    return len(waitlist_offer_freed_seats(session_id=session_id))


@cron("* * * * *")
@task
def waitlist_offers_sweep() -> int:
    """Every minute: unclaimed offers pass to the next member, seats freed by lapsed holds are offered. Each session
    is handled under its row lock: two schedulers offer each seat once (docs/decisions.md 41)."""
    from .services.waitlist import waitlist_sweep

    return waitlist_sweep()


@cron("*/5 * * * *")
@task
def reminders_send() -> int:
    """Every 5 minutes: the reminders due (24 h before a class, before the free cancellation closes), each sent once
    even when two schedulers run it (a unique row per reservation and kind, docs/decisions.md 41)."""
    from .services.reminders import reminders_send_due

    return reminders_send_due()


@task
def reservation_confirmation_send(reservation_id: int) -> None:
    """The confirmation e-mail of a reservation (templates and .ics rendered here, not in the request that
    confirmed it), recorded in the outbox; enqueued once, after the confirmation's commit."""
    from .services.reservations import reservation_confirmation_email

    reservation_confirmation_email(reservation_id=reservation_id)


@task
def reservation_cancellation_send(reservation_id: int, outcome: str) -> None:
    """The e-mail of a member's own cancellation with its calendar CANCEL, recorded in the outbox; enqueued once,
    after the cancellation's commit."""
    from .cancellation_emails import send_reservation_cancelled

    send_reservation_cancelled(reservation_id=reservation_id, outcome=outcome)
