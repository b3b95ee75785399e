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

from studio.emails import send_templated_email

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
    lifetime = CONFIRMATION_LINK_LIFETIME if purpose == TokenPurpose.CONFIRM_EMAIL else RESET_LINK_LIFETIME
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


def registration_check(data: RegistrationData) -> None:
    """SPEC.md 5's seven checks, in order: the first that fails gives its message."""
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
) -> User:
    """Create a member (always role `user`, whatever the payload says) and e-mail the confirmation link."""
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
    if User.objects.filter(email__iexact=data.email).exists():
        raise AccountError(MSG_EMAIL_TAKEN, status=409, field="email", code="email_taken")
    try:
        with transaction.atomic():
            user = User.objects.create_user(
                email=data.email,
                password=data.password,
                first_name=data.first_name[:150],
                last_name=data.last_name[:150],
                phone=data.phone,
                address=data.address[:255],
                postal_code=data.postal_code,
                city=data.city[:120],
                country=data.country[:120],
                role=Role.USER,
            )
            token = account_token_create(user=user, purpose=TokenPurpose.CONFIRM_EMAIL)
    except IntegrityError:
        raise AccountError(MSG_EMAIL_TAKEN, status=409, field="email", code="email_taken") from None
    _send_confirmation(user, token)
    return user


def _send_confirmation(user: User, token: str) -> None:
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
    """Send a new confirmation link if this e-mail has an unconfirmed account. Says nothing either way."""
    email = normalize_email(email)
    if not email:
        raise AccountError(MSG_FORGOT_EMAIL_REQUIRED, field="email")
    user = User.objects.filter(email__iexact=email, is_active=True, email_confirmed_at__isnull=True).first()
    if user is None:
        return
    # One new link a minute per account is plenty; more would let anyone flood a mailbox.
    if not cache.add(f"accounts:resend:{user.pk}", 1, timeout=60):
        return
    _send_confirmation(user, account_token_create(user=user, purpose=TokenPurpose.CONFIRM_EMAIL))


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


# --- Forgot and reset password ----------------------------------------------------------------------------


def password_reset_request(*, email: str) -> None:
    """Always the same outcome for the caller (DECISIONS.md 9); the e-mail goes only to an existing account."""
    email = normalize_email(email)
    if not email:
        raise AccountError(MSG_FORGOT_EMAIL_REQUIRED, field="email")
    try:
        validate_email(email)
    except ValidationError:
        raise AccountError(MSG_FORGOT_EMAIL_REQUIRED, field="email") from None
    user = User.objects.filter(email__iexact=email, is_active=True).first()
    if user is None:
        return
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


def _can_manage(actor: User, target: User) -> bool:
    return actor.pk == target.pk or actor.is_studio_staff


def user_update(
    *,
    actor: User,
    user: User,
    data: dict,
    avatar=None,
    remove_avatar: bool = False,
) -> User:
    """Update a profile. Fields absent from `data` stay as they are. A member edits only their own profile
    and not their e-mail or role; staff edit any profile; only an admin changes a role (DECISIONS.md 11)."""
    if not _can_manage(actor, user):
        raise AccountError(MSG_PROFILE_FORBIDDEN, status=403)
    changes: dict = {}
    for field, max_length in PROFILE_TEXT_FIELDS.items():
        if field in data:
            changes[field] = (data.get(field) or "").strip()[:max_length]
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
    if "email" in data and actor.is_studio_staff:
        email = normalize_email(data.get("email"))
        if email != user.email:
            _check_email(email)
            if User.objects.filter(email__iexact=email).exclude(pk=user.pk).exists():
                raise AccountError(MSG_EMAIL_TAKEN, status=409, field="email")
            changes["email"] = email
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
    if old_avatar_name:
        locked.avatar.storage.delete(old_avatar_name)
    return locked


def user_delete(*, actor: User, user: User) -> None:
    """Staff delete accounts; only an admin deletes an admin, and never the last one (DECISIONS.md 11)."""
    if not actor.is_studio_staff:
        raise AccountError(MSG_PROFILE_FORBIDDEN, status=403)
    if actor.pk == user.pk:
        raise AccountError(MSG_SELF_DELETE, status=400)
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.role == Role.ADMIN:
            if not actor.is_admin:
                raise AccountError(MSG_ADMIN_DELETE_FORBIDDEN, status=403)
            admins = list(User.objects.select_for_update().filter(role=Role.ADMIN, is_active=True).values_list("pk"))
            if len(admins) <= 1:
                raise AccountError(MSG_LAST_ADMIN, status=400)
        avatar_name = locked.avatar.name if locked.avatar else None
        try:
            locked.delete()
        except (ProtectedError, RestrictedError):  # PROTECT foreign keys (payments, reservations) keep history
            raise AccountError(MSG_USER_HAS_HISTORY, status=409) from None
    if avatar_name:
        locked.avatar.storage.delete(avatar_name)
