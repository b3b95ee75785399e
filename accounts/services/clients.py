"""Staff create a client's account at the desk (docs/decisions.md 50): the client has no password until they follow
the e-mailed link, which is a password-reset link valid a week, and the creation is a line of the client's history
with the staff member's name."""

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.services.errors import AccountError
from studio.emails import send_templated_email

from ..models import Role, TokenPurpose, User
from .common import _absolute, _check_email, _check_lengths, _check_phone, normalize_email, normalize_phone
from .staff_actions import staff_action_record
from .tokens import account_token_create

INVITATION_LINK_LIFETIME = timedelta(days=7)
SUBJECT_INVITATION = "Votre compte au studio : choisissez votre mot de passe"
CLIENT_CREATED_ACTION = "client_created"
CLIENT_CREATED_SUMMARY = "Compte créé à l'accueil"
MSG_CLIENT_CREATED = "Client créé : un e-mail pour choisir son mot de passe a été envoyé à {email}."
CLIENT_MAX_LENGTHS = {"first_name": 150, "last_name": 150, "email": 254}


def _email_taken(existing: User) -> AccountError:
    """Staff only reach this (the permission is checked first), so naming the account found helps them, and tells
    nobody else anything."""
    name = existing.get_full_name() or existing.email
    error = AccountError.of("client_email_taken", name=name, email=existing.email)
    error.extra["existing_user_id"] = existing.pk
    return error


def client_create(*, staff: User, first_name: str, last_name: str, email: str, phone: str = "") -> User:
    """A member account with no usable password, the line "Compte créé à l'accueil" in their history, and the
    invitation e-mail recorded in the outbox in the same transaction (sent by a worker after the commit)."""
    if not staff.is_studio_staff:
        raise AccountError.of("client_create_forbidden")
    first_name, last_name = (first_name or "").strip(), (last_name or "").strip()
    email, phone = normalize_email(email), normalize_phone(phone)
    _check_lengths({"first_name": first_name, "last_name": last_name, "email": email}, CLIENT_MAX_LENGTHS)
    if not (first_name and last_name):
        raise AccountError.of("names_required", field="first_name" if not first_name else "last_name")
    _check_email(email)
    if phone:
        _check_phone(phone)
    existing = User.objects.filter(email__iexact=email).first()
    if existing is not None:
        raise _email_taken(existing)
    try:
        with transaction.atomic():
            # No password: the client chooses theirs through the link (an unusable one cannot be guessed).
            client = User.objects.create_user(
                email=email, password=None, first_name=first_name, last_name=last_name, phone=phone, role=Role.USER
            )
            token = account_token_create(
                user=client, purpose=TokenPurpose.RESET_PASSWORD, lifetime=INVITATION_LINK_LIFETIME
            )
            staff_action_record(
                member=client, staff=staff, action=CLIENT_CREATED_ACTION, summary=CLIENT_CREATED_SUMMARY
            )
            send_templated_email(
                to=client.email,
                subject=SUBJECT_INVITATION,
                template="accounts_client_invitation",
                context={
                    "user": client,
                    "link": _absolute(reverse("reset-password", args=[token])),
                    "days": INVITATION_LINK_LIFETIME.days,
                },
            )
    except IntegrityError:  # the same address created at the same moment by another desk
        existing = User.objects.filter(email__iexact=email).first()
        if existing is None:
            raise
        raise _email_taken(existing) from None
    return client
