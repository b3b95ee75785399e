"""Forgot and reset password (docs/decisions.md 9)."""

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.tasks import task
from django.urls import reverse
from django.utils import timezone

from accounts.services.errors import AccountError
from studio.emails import send_templated_email
from studio.queue import enqueue_after_commit
from studio.ratelimit import recipient_quota_take

from ..models import AccountToken, TokenPurpose, User
from .authentication import user_refresh_tokens_revoke
from .common import _absolute, _check_password, normalize_email
from .tokens import RESET_LINK_LIFETIME, account_token_create, account_token_find

MSG_FORGOT_SENT = "Si un compte existe pour cet email, un lien de réinitialisation vient d'être envoyé."
MSG_PASSWORD_RESET = "Votre mot de passe a été réinitialisé. Vous pouvez vous connecter."
SUBJECT_RESET = "Réinitialisation de votre mot de passe"


def password_reset_request(*, email: str) -> None:
    """Always the same outcome for the caller (docs/decisions.md 9); the e-mail goes only to an existing account.

    The request does the same work whoever the address belongs to: it queues the job, and the worker looks the
    address up (`password_reset_mail_send`). Timing the answer tells nothing. The job is queued outside any
    transaction, so at once (studio.queue)."""
    email = normalize_email(email)
    if not email or len(email) > 254:
        raise AccountError.of("email_required", field="email")
    try:
        validate_email(email)
    except ValidationError:
        raise AccountError.of("email_required", field="email") from None
    enqueue_after_commit(password_reset_mail_send, email=email)


def password_reset_mail(*, email: str) -> bool:
    """The worker's half of a reset request: a link to the account with this address, if there is one and the
    address has not had its hourly share of e-mails."""
    user = User.objects.filter(email__iexact=email, is_active=True).first()
    if user is None or not recipient_quota_take(user.email):
        return False
    token = account_token_create(user=user, purpose=TokenPurpose.RESET_PASSWORD)
    send_templated_email(
        to=user.email,
        subject=SUBJECT_RESET,
        template="accounts_reset_password",
        context={
            "user": user,
            "link": _absolute(reverse("reset-password", args=[token])),
            "minutes": int(RESET_LINK_LIFETIME.total_seconds() // 60),
        },
    )
    return True


@task
def password_reset_mail_send(email: str) -> bool:
    """Look the address up and mail a reset link if it has an account (the request only queued this)."""
    return password_reset_mail(email=email)


def reset_link_is_valid(*, token: str) -> bool:
    return account_token_find(token=token, purpose=TokenPurpose.RESET_PASSWORD) is not None


def password_reset_confirm(*, token: str, new_password: str, confirm_password: str | None = None) -> User:
    """Set a new password through a reset link. The link is spent only when the password is accepted."""
    new_password = new_password or ""
    with transaction.atomic():
        found = account_token_find(token=token, purpose=TokenPurpose.RESET_PASSWORD, lock=True)
        if found is None:
            raise AccountError.of("invalid_reset_link")
        user = found.user
        if confirm_password is not None and new_password != confirm_password:
            raise AccountError.of("passwords_differ", field="confirmPassword")
        _check_password(new_password, user=user, field="newPassword")
        now = timezone.now()
        user.set_password(new_password)
        fields = ["password"]
        if user.email_confirmed_at is None:  # following the e-mailed link proves the address
            user.email_confirmed_at = now
            fields.append("email_confirmed_at")
        user.save(update_fields=fields)
        AccountToken.objects.filter(user=user, purpose=TokenPurpose.RESET_PASSWORD, used_at__isnull=True).update(
            used_at=now
        )
        # Every login made with the old password ends: refresh tokens here; browser sessions through Django's
        # session auth hash, which changed with the password.
        user_refresh_tokens_revoke(user_id=user.pk)
    return user
