"""Registration and e-mail confirmation (docs/decisions.md 10)."""

from dataclasses import dataclass

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.tasks import task
from django.urls import reverse
from django.utils import timezone

from accounts.services.errors import AccountError
from studio.emails import send_templated_email
from studio.queue import enqueue_after_commit
from studio.ratelimit import recipient_quota_take

from ..models import Role, TokenPurpose, User
from .common import (
    DEFAULT_COUNTRY,
    _absolute,
    _check_email,
    _check_lengths,
    _check_password,
    _check_phone,
    _check_postal_code,
    _truthy,
    normalize_email,
    normalize_phone,
)
from .tokens import CONFIRMATION_LINK_LIFETIME, account_token_create, account_token_find

# --- Registration: the form's checks, in the order its messages come ----------------------------------------
# Beyond the form's seven checks, a common password is refused too (.common).
MSG_REGISTERED = "Inscription réussie ! Vérifiez votre boîte mail."
# docs/decisions.md 30: an address that already has an account is answered as a new one; its owner gets this e-mail.
SUBJECT_ACCOUNT_EXISTS = "Vous avez déjà un compte"

# --- E-mail confirmation (docs/decisions.md 10) -----------------------------------------------------------
MSG_EMAIL_CONFIRMED = "Votre email est confirmé ! Vous pouvez maintenant vous connecter."
MSG_CONFIRMATION_RESENT = (
    "Si un compte en attente de confirmation existe pour cet email, un nouveau lien vient d'être envoyé."
)
SUBJECT_CONFIRM = "Confirmez votre adresse email"


@dataclass(frozen=True)
class RegistrationData:
    last_name: str
    first_name: str
    phone: str
    email: str
    address: str
    postal_code: str
    city: str
    country: str
    password: str
    confirm_password: str
    accept_cgu: bool


# Text bounded by the model's columns: too long is refused, never cut or left to the database.
REGISTRATION_MAX_LENGTHS = {
    "last_name": 150,
    "first_name": 150,
    "email": 254,
    "address": 255,
    "city": 120,
    "country": 120,
    "password": 4096,
    "confirm_password": 4096,
}


def registration_check(data: RegistrationData) -> None:
    """The registration form's seven checks, in order: the first that fails gives its message (after the length
    bounds)."""
    _check_lengths(data.__dict__, REGISTRATION_MAX_LENGTHS)
    if not (data.last_name and data.first_name and data.email and data.password):
        raise AccountError.of("required_fields")
    _check_phone(data.phone)
    _check_email(data.email)
    _check_postal_code(data.postal_code)
    _check_password(data.password)
    if data.password != data.confirm_password:
        raise AccountError.of("passwords_differ", field="confirmPassword")
    if not data.accept_cgu:
        raise AccountError.of("cgu_required", field="acceptCGU")


def user_register(
    *,
    last_name: str,
    first_name: str,
    email: str,
    password: str,
    confirm_password: str,
    accept_cgu: bool | str,
    phone: str = "",
    address: str = "",
    postal_code: str = "",
    city: str = "",
    country: str = "",
) -> User | None:
    """Create a member (always role `user`, whatever the payload says) and e-mail the confirmation link.

    An address that already has an account gets the same outcome for the caller (None instead of the new user,
    which callers do not show): its owner is e-mailed that the account exists, with links to log in and to reset
    the password (docs/decisions.md 30)."""
    data = RegistrationData(
        last_name=(last_name or "").strip(),
        first_name=(first_name or "").strip(),
        phone=normalize_phone(phone),
        email=normalize_email(email),
        address=(address or "").strip(),
        postal_code=(postal_code or "").strip(),
        city=(city or "").strip(),
        country=(country or "").strip() or DEFAULT_COUNTRY,
        password=password or "",
        confirm_password=confirm_password or "",
        accept_cgu=_truthy(accept_cgu),
    )
    registration_check(data)
    existing = User.objects.filter(email__iexact=data.email).first()
    if existing is not None:
        _send_account_exists(existing)
        return None
    try:
        with transaction.atomic():
            user = User.objects.create_user(
                email=data.email,
                password=data.password,
                first_name=data.first_name,
                last_name=data.last_name,
                phone=data.phone,
                address=data.address,
                postal_code=data.postal_code,
                city=data.city,
                country=data.country,
                role=Role.USER,
            )
            token = account_token_create(user=user, purpose=TokenPurpose.CONFIRM_EMAIL)
    except IntegrityError:  # the same address registered at the same moment
        existing = User.objects.filter(email__iexact=data.email).first()
        if existing is not None:
            _send_account_exists(existing)
        return None
    _send_confirmation(user, token)
    return user


def _send_account_exists(user: User) -> None:
    if not recipient_quota_take(user.email):
        return
    send_templated_email(
        to=user.email,
        subject=SUBJECT_ACCOUNT_EXISTS,
        template="accounts_account_exists",
        context={
            "user": user,
            "login_link": _absolute(reverse("login")),
            "reset_link": _absolute(reverse("forgot-password")),
        },
    )


def _send_confirmation(user: User, token: str) -> None:
    if not recipient_quota_take(user.email):
        return
    send_templated_email(
        to=user.email,
        subject=SUBJECT_CONFIRM,
        template="accounts_confirm_email",
        context={
            "user": user,
            "link": _absolute(reverse("confirm-email", args=[token])),
            "days": CONFIRMATION_LINK_LIFETIME.days,
        },
    )


def email_confirm(*, token: str) -> User:
    """Confirm the e-mail behind a confirmation link; the link then stops working."""
    with transaction.atomic():
        found = account_token_find(token=token, purpose=TokenPurpose.CONFIRM_EMAIL, lock=True)
        if found is None:
            raise AccountError.of("invalid_link")
        now = timezone.now()
        found.used_at = now
        found.save(update_fields=["used_at"])
        user = found.user
        if user.email_confirmed_at is None:
            user.email_confirmed_at = now
            user.save(update_fields=["email_confirmed_at"])
    return user


def email_confirmation_resend(*, email: str) -> None:
    """Send a new confirmation link if this e-mail has an unconfirmed account. Says nothing either way, and does
    the same work either way in the request: it queues the job (`confirmation_resend_send`)."""
    email = normalize_email(email)
    if not email or len(email) > 254:
        raise AccountError.of("email_required", field="email")
    enqueue_after_commit(confirmation_resend_send, email=email)


def confirmation_resend(*, email: str) -> bool:
    """The worker's half of a resend request."""
    user = User.objects.filter(email__iexact=email, is_active=True, email_confirmed_at__isnull=True).first()
    if user is None:
        return False
    # One new link a minute per account is plenty; more would let anyone flood a mailbox.
    if not cache.add(f"accounts:resend:{user.pk}", 1, timeout=60):
        return False
    _send_confirmation(user, account_token_create(user=user, purpose=TokenPurpose.CONFIRM_EMAIL))
    return True


@task
def confirmation_resend_send(email: str) -> bool:
    """Mail a new confirmation link if the address has an account waiting for one."""
    return confirmation_resend(email=email)
