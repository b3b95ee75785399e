"""Background work of accounts (docs/decisions.md 41)."""

from django.tasks import task

from .services.passwords import password_reset_mail
from .services.registration import confirmation_resend


@task
def password_reset_mail_send(email: str) -> bool:
    """Look the address up and mail a reset link if it has an account (the request only queued this)."""
    return password_reset_mail(email=email)


@task
def confirmation_resend_send(email: str) -> bool:
    """Mail a new confirmation link if the address has an account waiting for one."""
    return confirmation_resend(email=email)
