"""Account rules: registration, e-mail confirmation, login and its throttle, password reset, profile, roles.

The HTML pages and the API call these same functions, so each rule and its French message exist once.
"""

import hashlib
import io
import re
import secrets
import uuid
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError, RestrictedError
from django.urls import reverse
from django.utils import timezone
from PIL import Image, ImageOps, UnidentifiedImageError

from studio.api import MSG_TEXT_TOO_LONG
from studio.emails import send_templated_email
from studio.ratelimit import recipient_quota_take

from .models import AccountToken, Role, TokenPurpose, User

# --- Registration (SPEC.md 5, in this order) ----------------------------------------------------------------
MSG_REQUIRED_FIELDS = "❌ Tous les champs obligatoires doivent être remplis."
MSG_PHONE_INVALID = "❌ Le numéro de téléphone doit contenir 10 chiffres."
MSG_EMAIL_INVALID = "❌ L'email n'est pas valide."
MSG_POSTAL_CODE_INVALID = "❌ Le code postal doit contenir 5 chiffres."
MSG_PASSWORD_TOO_SHORT = "❌ Le mot de passe doit contenir au moins 6 caractères."
MSG_PASSWORDS_DIFFER = "❌ Les mots de passe ne correspondent pas."
MSG_CGU_REQUIRED = "❌ Vous devez accepter les conditions générales d'utilisation."
# Beyond SPEC.md: Django's common-password check, and an e-mail that already has an account.
MSG_PASSWORD_TOO_COMMON = "❌ Ce mot de passe est trop courant. Choisissez-en un autre."
MSG_EMAIL_TAKEN = "❌ Un compte existe déjà avec cet email. Connectez-vous ou utilisez « Mot de passe oublié »."
MSG_REGISTERED = "Inscription réussie ! Vérifiez votre boîte mail."
# DECISIONS.md 30: an address that already has an account is answered as a new one; its owner gets this e-mail.
SUBJECT_ACCOUNT_EXISTS = "Vous avez déjà un compte"

PASSWORD_MIN_LENGTH = 6
PHONE_RE = re.compile(r"^\d{10}$")
POSTAL_CODE_RE = re.compile(r"^\d{5}$")
DEFAULT_COUNTRY = "France"

# --- E-mail confirmation (DECISIONS.md 10) ----------------------------------------------------------------
CONFIRMATION_LINK_LIFETIME = timedelta(days=3)
MSG_CONFIRM_LINK_INVALID = "Lien de confirmation invalide ou expiré."
MSG_EMAIL_CONFIRMED = "Votre email est confirmé ! Vous pouvez maintenant vous connecter."
MSG_CONFIRMATION_RESENT = (
    "Si un compte en attente de confirmation existe pour cet email, un nouveau lien vient d'être envoyé."
)
SUBJECT_CONFIRM = "Confirmez votre adresse email"

# --- Login (SPEC.md 5, DECISIONS.md 8) --------------------------------------------------------------------
MSG_LOGIN_BLANK = "Veuillez remplir tous les champs."
MSG_LOGIN_FAILED = "Email ou mot de passe incorrect."
MSG_EMAIL_NOT_CONFIRMED = (
    "Votre email n'est pas encore confirmé. Cliquez sur le lien reçu par email, ou demandez-en un nouveau."
)
MSG_LOGIN_THROTTLED = (
    "Trop de tentatives de connexion échouées. Pour votre sécurité, réessayez dans 15 minutes "
    "ou réinitialisez votre mot de passe."
)
LOGIN_MAX_FAILURES = 5
LOGIN_LOCKOUT = timedelta(minutes=15)
REMEMBER_ME_SECONDS = 7 * 24 * 3600
MSG_LOGGED_OUT = "Vous êtes déconnecté. À bientôt !"

# --- Forgot and reset password (SPEC.md 5, DECISIONS.md 9) -------------------------------------------------
MSG_FORGOT_EMAIL_REQUIRED = "❌ Veuillez entrer un email valide."
MSG_FORGOT_SENT = "Si un compte existe pour cet email, un lien de réinitialisation vient d'être envoyé."
MSG_RESET_LINK_INVALID = "Lien invalide ou expiré."
MSG_PASSWORD_RESET = "Votre mot de passe a été réinitialisé. Vous pouvez vous connecter."
RESET_LINK_LIFETIME = timedelta(hours=1)
SUBJECT_RESET = "Réinitialisation de votre mot de passe"

# --- Profile and roles (SPEC.md 8, DECISIONS.md 11) -------------------------------------------------------
MSG_PROFILE_UPDATED = "Profil mis à jour avec succès."
MSG_NAMES_REQUIRED = "❌ Le prénom et le nom sont obligatoires."
MSG_AVATAR_INVALID = "Seules les images JPEG, PNG, GIF ou WebP sont acceptées pour l'avatar."
MSG_AVATAR_TOO_LARGE = "L'avatar ne doit pas dépasser {max_mb} Mo."
MSG_ROLE_CHANGE_FORBIDDEN = "Seul un administrateur peut modifier le rôle d'un compte."
MSG_ROLE_INVALID = "Rôle inconnu."
MSG_ADMIN_DELETE_FORBIDDEN = "Seul un administrateur peut supprimer un compte administrateur."
MSG_LAST_ADMIN = "Impossible : ce compte est le dernier administrateur du studio."
MSG_SELF_DELETE = "Vous ne pouvez pas supprimer votre propre compte depuis le tableau de bord."
MSG_USER_DELETED = "Utilisateur supprimé."
MSG_USER_HAS_HISTORY = "Ce compte a des réservations ou des paiements : il ne peut pas être supprimé."
MSG_PROFILE_FORBIDDEN = "Vous n'avez pas accès à ce profil."
# DECISIONS.md 32.
MSG_ADMIN_EDIT_FORBIDDEN = "Seul un administrateur peut modifier un compte administrateur."
MSG_STAFF_EDIT_FORBIDDEN = "Un superviseur ne peut modifier que les comptes des membres."
MSG_STAFF_EMAIL_FORBIDDEN = "Seul un administrateur peut changer l'email d'un membre de l'équipe."
MSG_EMAIL_CHANGE_PENDING = (
    "Un lien de confirmation a été envoyé à la nouvelle adresse : l'email changera quand il aura été suivi."
)
MSG_EMAIL_CHANGED = "Votre nouvelle adresse email est confirmée. Utilisez-la désormais pour vous connecter."
SUBJECT_EMAIL_CHANGE_CONFIRM = "Confirmez votre nouvelle adresse email"
SUBJECT_EMAIL_CHANGE_NOTICE = "Changement de l'adresse email de votre compte"
EMAIL_CHANGE_LINK_LIFETIME = timedelta(days=3)

AVATAR_FORMATS = {"JPEG", "PNG", "GIF", "WEBP"}
AVATAR_SIZE_PX = 400
AVATAR_MAX_PIXELS = 40_000_000  # refuse decompression bombs before decoding


class AccountError(Exception):
    """A refused account action: a French message, the HTTP status the API answers, and the field at fault."""

    def __init__(self, message: str, status: int = 400, field: str | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.field = field
        self.code = code


# --- Small shared checks --------------------------------------------------------------------------------------


def normalize_email(email: str | None) -> str:
    return (email or "").strip().lower()


def normalize_phone(phone: str | None) -> str:
    """Spaces, dots and dashes between digits are accepted: '06 12 34 56 78' is 10 digits."""
    return re.sub(r"[\s.\-]", "", phone or "")


def _check_phone(phone: str) -> None:
    if not PHONE_RE.match(phone):
        raise AccountError(MSG_PHONE_INVALID, field="phone")


def _check_email(email: str) -> None:
    try:
        validate_email(email)
    except ValidationError:
        raise AccountError(MSG_EMAIL_INVALID, field="email") from None


def _check_postal_code(postal_code: str) -> None:
    if not POSTAL_CODE_RE.match(postal_code):
        raise AccountError(MSG_POSTAL_CODE_INVALID, field="postal_code")


def _check_password(password: str, *, user: User | None = None, field: str = "password") -> None:
    if len(password) < PASSWORD_MIN_LENGTH:
        raise AccountError(MSG_PASSWORD_TOO_SHORT, field=field)
    try:
        validate_password(password, user=user)
    except ValidationError as exc:
        codes = {error.code for error in exc.error_list}
        if "password_too_short" in codes:
            raise AccountError(MSG_PASSWORD_TOO_SHORT, field=field) from None
        if "password_too_common" in codes:
            raise AccountError(MSG_PASSWORD_TOO_COMMON, field=field) from None
        raise AccountError(f"❌ {exc.messages[0]}", field=field) from None


def _truthy(value) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in {"1", "true", "on", "yes", "oui"}
    return bool(value)


# --- Single-use links -----------------------------------------------------------------------------------------


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def account_token_create(*, user: User, purpose: str) -> str:
    """Create a single-use link token and return the raw value (only its hash is stored)."""
    lifetime = {
        TokenPurpose.CONFIRM_EMAIL: CONFIRMATION_LINK_LIFETIME,
        TokenPurpose.CHANGE_EMAIL: EMAIL_CHANGE_LINK_LIFETIME,
    }.get(purpose, RESET_LINK_LIFETIME)
    raw = secrets.token_urlsafe(32)
    AccountToken.objects.create(
        user=user, purpose=purpose, token_hash=_hash_token(raw), expires_at=timezone.now() + lifetime
    )
    return raw


def account_token_find(*, token: str, purpose: str, lock: bool = False) -> AccountToken | None:
    """The usable token for this raw value, or None (unknown, used or expired)."""
    if not token or len(token) > 200:
        return None
    queryset = AccountToken.objects.select_related("user")
    if lock:
        queryset = queryset.select_for_update()
    found = queryset.filter(token_hash=_hash_token(token), purpose=purpose).first()
    if found is None or not found.is_usable or not found.user.is_active:
        return None
    return found


def _absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


# --- Registration and confirmation ------------------------------------------------------------------------


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


# Text bounded by the model's columns (issue 16): too long is refused, never cut or left to the database.
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


def _check_lengths(values: dict, max_lengths: dict) -> None:
    for field, max_length in max_lengths.items():
        if len(values.get(field) or "") > max_length:
            raise AccountError(MSG_TEXT_TOO_LONG.format(max_length=max_length), field=field)


def registration_check(data: RegistrationData) -> None:
    """SPEC.md 5's seven checks, in order: the first that fails gives its message (after the length bounds)."""
    _check_lengths(data.__dict__, REGISTRATION_MAX_LENGTHS)
    if not (data.last_name and data.first_name and data.email and data.password):
        raise AccountError(MSG_REQUIRED_FIELDS)
    _check_phone(data.phone)
    _check_email(data.email)
    _check_postal_code(data.postal_code)
    _check_password(data.password)
    if data.password != data.confirm_password:
        raise AccountError(MSG_PASSWORDS_DIFFER, field="confirmPassword")
    if not data.accept_cgu:
        raise AccountError(MSG_CGU_REQUIRED, field="acceptCGU")


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
    the password (DECISIONS.md 30)."""
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
            raise AccountError(MSG_CONFIRM_LINK_INVALID, code="invalid_link")
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
    the same work either way in the request: it queues the job (accounts.tasks.confirmation_resend_send)."""
    from .tasks import confirmation_resend_send

    email = normalize_email(email)
    if not email or len(email) > 254:
        raise AccountError(MSG_FORGOT_EMAIL_REQUIRED, field="email")
    confirmation_resend_send.enqueue(email=email)


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


# --- Login and its throttle ----------------------------------------------------------------------------------


def _throttle_key(email: str, ip: str) -> str:
    digest = hashlib.sha256(f"{email}|{ip}".encode()).hexdigest()
    return f"accounts:login-failures:{digest}"


def _throttle_state(key: str) -> dict:
    state = cache.get(key) or {"failures": 0, "locked_until": None}
    locked_until = state.get("locked_until")
    if locked_until is not None and locked_until <= timezone.now():
        return {"failures": 0, "locked_until": None}  # the cool-off is over: a fresh start
    return state


def login_is_throttled(*, email: str, ip: str) -> bool:
    state = _throttle_state(_throttle_key(normalize_email(email), ip))
    return state["locked_until"] is not None


def _login_failure_record(email: str, ip: str) -> None:
    key = _throttle_key(email, ip)
    state = _throttle_state(key)
    state["failures"] += 1
    if state["failures"] >= LOGIN_MAX_FAILURES:
        state["locked_until"] = timezone.now() + LOGIN_LOCKOUT
    # Failures older than the lock-out window are forgotten.
    cache.set(key, state, timeout=int(LOGIN_LOCKOUT.total_seconds()))


def user_authenticate(*, email: str, password: str, ip: str) -> User:
    """Check the credentials. Same answer for an unknown e-mail and a wrong password (DECISIONS.md 8);
    5 failures for one e-mail from one address lock that pair out for 15 minutes."""
    email = normalize_email(email)
    password = password or ""
    if not email or not password.strip():
        raise AccountError(MSG_LOGIN_BLANK, code="blank")
    if login_is_throttled(email=email, ip=ip):
        raise AccountError(MSG_LOGIN_THROTTLED, status=429, code="throttled")
    user = authenticate(None, email=email, password=password)
    if user is None:
        _login_failure_record(email, ip)
        raise AccountError(MSG_LOGIN_FAILED, status=401, code="invalid_credentials")
    if not user.email_confirmed:
        raise AccountError(MSG_EMAIL_NOT_CONFIRMED, status=403, code="email_not_confirmed")
    cache.delete(_throttle_key(email, ip))
    return user


def session_login(*, request, user: User, remember: bool) -> None:
    """Open the browser session: 7 days with 'Se souvenir de moi', else until the browser closes (DECISIONS.md 6)."""
    from django.contrib.auth import login

    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    request.session.set_expiry(REMEMBER_ME_SECONDS if remember else 0)


def api_tokens_for(*, user: User) -> dict:
    from rest_framework_simplejwt.tokens import RefreshToken

    refresh = RefreshToken.for_user(user)
    return {"token": str(refresh.access_token), "refresh": str(refresh)}


def refresh_token_blacklist(*, refresh: str) -> None:
    """Blacklist a refresh token at logout; an invalid or already blacklisted one is not an error."""
    from rest_framework_simplejwt.exceptions import TokenError
    from rest_framework_simplejwt.tokens import RefreshToken

    if not refresh:
        return
    try:
        RefreshToken(refresh).blacklist()
    except TokenError:
        pass


def refresh_token_user_id(*, refresh: str) -> int | None:
    """Whose refresh token this is (a valid, unexpired one), or None."""
    from rest_framework_simplejwt.exceptions import TokenError
    from rest_framework_simplejwt.settings import api_settings
    from rest_framework_simplejwt.tokens import RefreshToken

    if not refresh or len(refresh) > 4096:
        return None
    try:
        user_id = RefreshToken(refresh).payload.get(api_settings.USER_ID_CLAIM)
    except TokenError:
        return None
    try:
        return int(user_id)
    except (TypeError, ValueError):
        return None


def user_refresh_tokens_revoke(*, user_id: int) -> int:
    """Blacklist every outstanding refresh token of a user (issue 16): at logout, on a password change or reset,
    and before the account is deleted or deactivated. Returns how many were newly revoked."""
    from rest_framework_simplejwt.token_blacklist.models import BlacklistedToken, OutstandingToken

    live = OutstandingToken.objects.filter(
        user_id=user_id, expires_at__gt=timezone.now(), blacklistedtoken__isnull=True
    )
    created = BlacklistedToken.objects.bulk_create(
        [BlacklistedToken(token_id=pk) for pk in live.values_list("pk", flat=True)], ignore_conflicts=True
    )
    return len(created)


def user_logout(*, request, refresh: str = "") -> None:
    """End the browser session and every refresh token of the user (the session's, or the token's owner)."""
    from django.contrib.auth import logout

    user_id = request.user.pk if request.user.is_authenticated else refresh_token_user_id(refresh=refresh)
    refresh_token_blacklist(refresh=refresh)
    if user_id is not None:
        user_refresh_tokens_revoke(user_id=user_id)
    logout(request)


def user_deactivate(*, user: User) -> User:
    """Close an account without deleting it: it can no longer log in, and its tokens stop working at once."""
    with transaction.atomic():
        User.objects.filter(pk=user.pk).update(is_active=False)
        user_refresh_tokens_revoke(user_id=user.pk)
    user.is_active = False
    return user


# --- Forgot and reset password ----------------------------------------------------------------------------


def password_reset_request(*, email: str) -> None:
    """Always the same outcome for the caller (DECISIONS.md 9); the e-mail goes only to an existing account.

    The request does the same work whoever the address belongs to: it queues the job, and the worker looks the
    address up (accounts.tasks.password_reset_mail_send). Timing the answer tells nothing (issue 16, item 9)."""
    from .tasks import password_reset_mail_send

    email = normalize_email(email)
    if not email or len(email) > 254:
        raise AccountError(MSG_FORGOT_EMAIL_REQUIRED, field="email")
    try:
        validate_email(email)
    except ValidationError:
        raise AccountError(MSG_FORGOT_EMAIL_REQUIRED, field="email") from None
    password_reset_mail_send.enqueue(email=email)


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


def reset_link_is_valid(*, token: str) -> bool:
    return account_token_find(token=token, purpose=TokenPurpose.RESET_PASSWORD) is not None


def password_reset_confirm(*, token: str, new_password: str, confirm_password: str | None = None) -> User:
    """Set a new password through a reset link. The link is spent only when the password is accepted."""
    new_password = new_password or ""
    with transaction.atomic():
        found = account_token_find(token=token, purpose=TokenPurpose.RESET_PASSWORD, lock=True)
        if found is None:
            raise AccountError(MSG_RESET_LINK_INVALID, code="invalid_link")
        user = found.user
        if confirm_password is not None and new_password != confirm_password:
            raise AccountError(MSG_PASSWORDS_DIFFER, field="confirmPassword")
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


# --- Profile, avatar and roles ------------------------------------------------------------------------------

PROFILE_TEXT_FIELDS = {"first_name": 150, "last_name": 150, "address": 255, "city": 120, "country": 120}


def avatar_process(upload) -> ContentFile:
    """Check an uploaded avatar by its content (fully decoded) and return it resized, as WebP."""
    max_bytes = settings.MAX_AVATAR_UPLOAD_BYTES
    if upload.size > max_bytes:
        raise AccountError(MSG_AVATAR_TOO_LARGE.format(max_mb=max_bytes // (1024 * 1024)), field="avatar")
    try:
        upload.seek(0)
        with Image.open(upload) as probe:
            if probe.format not in AVATAR_FORMATS:
                raise AccountError(MSG_AVATAR_INVALID, field="avatar")
            width, height = probe.size
            if width * height > AVATAR_MAX_PIXELS:
                raise AccountError(MSG_AVATAR_INVALID, field="avatar")
            probe.load()  # a full decode: a truncated or forged file fails here
            image = ImageOps.exif_transpose(probe)
            image = image.convert("RGBA" if "A" in image.getbands() or "transparency" in probe.info else "RGB")
    except AccountError:
        raise
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError, SyntaxError):
        raise AccountError(MSG_AVATAR_INVALID, field="avatar") from None
    image = ImageOps.fit(image, (AVATAR_SIZE_PX, AVATAR_SIZE_PX), Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    image.save(buffer, format="WEBP", quality=85)
    return ContentFile(buffer.getvalue(), name=f"{uuid.uuid4().hex}.webp")


def user_edit_refusal(*, actor: User, target: User) -> AccountError | None:
    """Who may edit whom (DECISIONS.md 11, 32): oneself; staff edit members; only an admin edits a staff account.
    The reason for a refusal, or None. The profile page and the dashboard ask this too, to offer only what the
    server accepts."""
    if actor.pk == target.pk:
        return None
    if not actor.is_studio_staff:
        return AccountError(MSG_PROFILE_FORBIDDEN, status=403)
    if actor.is_admin or target.role == Role.USER:
        return None
    if target.role == Role.ADMIN:
        return AccountError(MSG_ADMIN_EDIT_FORBIDDEN, status=403)
    return AccountError(MSG_STAFF_EDIT_FORBIDDEN, status=403)


def user_can_edit(*, actor: User, target: User) -> bool:
    return user_edit_refusal(actor=actor, target=target) is None


def user_can_change_email(*, actor: User, target: User) -> bool:
    """Staff change a member's e-mail; only an admin changes a staff member's, their own included."""
    if not actor.is_studio_staff or not user_can_edit(actor=actor, target=target):
        return False
    return actor.is_admin or target.role == Role.USER


def user_update(
    *,
    actor: User,
    user: User,
    data: dict,
    avatar=None,
    remove_avatar: bool = False,
) -> User:
    """Update a profile. Fields absent from `data` stay as they are. A member edits only their own profile
    and not their e-mail or role; staff edit members; only an admin edits a staff account, changes a staff
    member's e-mail or changes a role (DECISIONS.md 11, 32). A new e-mail takes effect once confirmed at the new
    address; the old one is told (`email_change_request`)."""
    refusal = user_edit_refusal(actor=actor, target=user)
    if refusal is not None:
        raise refusal
    changes: dict = {}
    for field, max_length in PROFILE_TEXT_FIELDS.items():
        if field in data:
            changes[field] = (data.get(field) or "").strip()
            if len(changes[field]) > max_length:
                raise AccountError(MSG_TEXT_TOO_LONG.format(max_length=max_length), field=field)
    if ("first_name" in changes and not changes["first_name"]) or ("last_name" in changes and not changes["last_name"]):
        raise AccountError(MSG_NAMES_REQUIRED)
    if "country" in changes and not changes["country"]:
        changes["country"] = DEFAULT_COUNTRY
    # Checked as at registration when they change; an old account's empty value does not block other edits.
    if "phone" in data and normalize_phone(data.get("phone")) != user.phone:
        changes["phone"] = normalize_phone(data.get("phone"))
        _check_phone(changes["phone"])
    if "postal_code" in data and (data.get("postal_code") or "").strip() != user.postal_code:
        changes["postal_code"] = (data.get("postal_code") or "").strip()
        _check_postal_code(changes["postal_code"])
    new_email = None
    if "email" in data and actor.is_studio_staff:
        email = normalize_email(data.get("email"))
        if email != user.email and email != user.pending_email:
            if not user_can_change_email(actor=actor, target=user):
                raise AccountError(MSG_STAFF_EMAIL_FORBIDDEN, status=403, field="email")
            if len(email) > 254:
                raise AccountError(MSG_TEXT_TOO_LONG.format(max_length=254), field="email")
            _check_email(email)
            if User.objects.filter(email__iexact=email).exclude(pk=user.pk).exists():
                raise AccountError(MSG_EMAIL_TAKEN, status=409, field="email")
            new_email = email
    if "role" in data and data.get("role") not in (None, "") and data.get("role") != user.role:
        role = data.get("role")
        if not actor.is_admin:
            raise AccountError(MSG_ROLE_CHANGE_FORBIDDEN, status=403, field="role")
        if role not in Role.values:
            raise AccountError(MSG_ROLE_INVALID, field="role")
        changes["role"] = role
    new_avatar = avatar_process(avatar) if avatar else None

    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if changes.get("role") and locked.role == Role.ADMIN:
            # Row-locking every admin keeps two admins from demoting each other at once.
            admins = list(User.objects.select_for_update().filter(role=Role.ADMIN, is_active=True).values_list("pk"))
            if len(admins) <= 1:
                raise AccountError(MSG_LAST_ADMIN, status=400, field="role")
        for field, value in changes.items():
            setattr(locked, field, value)
        old_avatar_name = locked.avatar.name if (new_avatar or remove_avatar) and locked.avatar else None
        if new_avatar:
            locked.avatar.save(new_avatar.name, new_avatar, save=False)
        elif remove_avatar:
            locked.avatar = ""
        try:
            locked.save()
        except IntegrityError:
            raise AccountError(MSG_EMAIL_TAKEN, status=409, field="email") from None
        if new_email:
            email_change_request(user=locked, new_email=new_email)
    if old_avatar_name:
        locked.avatar.storage.delete(old_avatar_name)
    return locked


def email_change_request(*, user: User, new_email: str) -> None:
    """Record `new_email` as pending, send the confirmation link to it and tell the current address. Earlier
    pending links stop working."""
    now = timezone.now()
    with transaction.atomic():
        AccountToken.objects.filter(user=user, purpose=TokenPurpose.CHANGE_EMAIL, used_at__isnull=True).update(
            used_at=now
        )
        User.objects.filter(pk=user.pk).update(pending_email=new_email)
        user.pending_email = new_email
        token = account_token_create(user=user, purpose=TokenPurpose.CHANGE_EMAIL)
        if recipient_quota_take(new_email):
            send_templated_email(
                to=new_email,
                subject=SUBJECT_EMAIL_CHANGE_CONFIRM,
                template="accounts_email_change_confirm",
                context={
                    "user": user,
                    "new_email": new_email,
                    "link": _absolute(reverse("confirm-new-email", args=[token])),
                    "days": EMAIL_CHANGE_LINK_LIFETIME.days,
                },
            )
        if recipient_quota_take(user.email):
            send_templated_email(
                to=user.email,
                subject=SUBJECT_EMAIL_CHANGE_NOTICE,
                template="accounts_email_change_notice",
                context={"user": user, "new_email": new_email, "contact_link": _absolute("/contact")},
            )


def email_change_link_is_valid(*, token: str) -> bool:
    found = account_token_find(token=token, purpose=TokenPurpose.CHANGE_EMAIL)
    return found is not None and bool(found.user.pending_email)


def email_change_confirm(*, token: str) -> User:
    """Follow the link sent to the new address: the account's e-mail becomes it. Single use; the reset links
    sent to the old address stop working."""
    with transaction.atomic():
        found = account_token_find(token=token, purpose=TokenPurpose.CHANGE_EMAIL, lock=True)
        if found is None:
            raise AccountError(MSG_CONFIRM_LINK_INVALID, code="invalid_link")
        user = User.objects.select_for_update().get(pk=found.user_id)
        if not user.pending_email:
            raise AccountError(MSG_CONFIRM_LINK_INVALID, code="invalid_link")
        if User.objects.filter(email__iexact=user.pending_email).exclude(pk=user.pk).exists():
            raise AccountError(MSG_EMAIL_TAKEN, status=409, code="email_taken")
        now = timezone.now()
        AccountToken.objects.filter(
            user=user, purpose__in=[TokenPurpose.CHANGE_EMAIL, TokenPurpose.RESET_PASSWORD], used_at__isnull=True
        ).update(used_at=now)
        user.email, user.pending_email = user.pending_email, ""
        if user.email_confirmed_at is None:
            user.email_confirmed_at = now
        try:
            user.save(update_fields=["email", "pending_email", "email_confirmed_at"])
        except IntegrityError:
            raise AccountError(MSG_EMAIL_TAKEN, status=409, code="email_taken") from None
    return user


def user_delete(*, actor: User, user: User) -> None:
    """Staff delete accounts; only an admin deletes an admin, and never the last one (DECISIONS.md 11)."""
    if not actor.is_studio_staff:
        raise AccountError(MSG_PROFILE_FORBIDDEN, status=403)
    if actor.pk == user.pk:
        raise AccountError(MSG_SELF_DELETE, status=400)
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.role == Role.SUPERVISOR and not actor.is_admin:
            raise AccountError(MSG_STAFF_EDIT_FORBIDDEN, status=403)
        if locked.role == Role.ADMIN:
            if not actor.is_admin:
                raise AccountError(MSG_ADMIN_DELETE_FORBIDDEN, status=403)
            admins = list(User.objects.select_for_update().filter(role=Role.ADMIN, is_active=True).values_list("pk"))
            if len(admins) <= 1:
                raise AccountError(MSG_LAST_ADMIN, status=400)
        avatar_name = locked.avatar.name if locked.avatar else None
        # Before the row goes: the tokens' link to the user is set to NULL with it.
        user_refresh_tokens_revoke(user_id=locked.pk)
        try:
            locked.delete()
        except (ProtectedError, RestrictedError):  # PROTECT foreign keys (payments, reservations) keep history
            raise AccountError(MSG_USER_HAS_HISTORY, status=409) from None
    if avatar_name:
        locked.avatar.storage.delete(avatar_name)
