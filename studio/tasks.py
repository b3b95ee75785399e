"""Background work of the core (DECISIONS.md 41): sending the outbox, and retrying what did not leave."""

from crontask import cron
from django.tasks import task

from . import emails


@task
def outgoing_email_send(email_id: int) -> str:
    return emails.email_deliver(email_id=email_id)


@cron("* * * * *")
@task
def outgoing_emails_retry() -> int:
    return emails.emails_retry_due()
