"""Background work of accounts (DECISIONS.md 41)."""

from django.tasks import task

from . import services


@task
def password_reset_mail_send(email: str) -> bool:
    """Look the address up and mail a reset link if it has an account (the request only queued this)."""
    return services.password_reset_mail(email=email)
