"""Profile and avatar edits, role changes, and the confirmed e-mail change (docs/decisions.md 11, 32)."""

import io
import uuid

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from PIL import Image, ImageOps, UnidentifiedImageError

from accounts.services.errors import AccountError
from studio.emails import send_templated_email
from studio.ratelimit import recipient_quota_take

from ..company import COMPANY_MAX_LENGTHS, CompanyError, company_cleaned
from ..models import AccountToken, Role, TokenPurpose, User
from .common import (
    DEFAULT_COUNTRY,
    _absolute,
    _check_email,
    _check_phone,
    _check_postal_code,
    normalize_email,
    normalize_phone,
)
from .staff import (
    user_can_change_email,
    user_edit_refusal,
)
from .tokens import EMAIL_CHANGE_LINK_LIFETIME, account_token_create, account_token_find

MSG_PROFILE_UPDATED = "Profil mis à jour avec succès."
MSG_EMAIL_CHANGE_PENDING = (
    "Un lien de confirmation a été envoyé à la nouvelle adresse : l'email changera quand il aura été suivi."
)
MSG_EMAIL_CHANGED = "Votre nouvelle adresse email est confirmée. Utilisez-la désormais pour vous connecter."
SUBJECT_EMAIL_CHANGE_CONFIRM = "Confirmez votre nouvelle adresse email"
SUBJECT_EMAIL_CHANGE_NOTICE = "Changement de l'adresse email de votre compte"

AVATAR_FORMATS = {"JPEG", "PNG", "GIF", "WEBP"}
AVATAR_SIZE_PX = 400
AVATAR_MAX_PIXELS = 40_000_000  # refuse decompression bombs before decoding
PROFILE_TEXT_FIELDS = {"first_name": 150, "last_name": 150, "address": 255, "city": 120, "country": 120}


def avatar_process(upload) -> ContentFile:
    """Check an uploaded avatar by its content (fully decoded) and return it resized, as WebP."""
    max_bytes = settings.MAX_AVATAR_UPLOAD_BYTES
    if upload.size > max_bytes:
        raise AccountError.of("avatar_too_large", field="avatar", max_mb=max_bytes // (1024 * 1024))
    try:
        upload.seek(0)
        with Image.open(upload) as probe:
            if probe.format not in AVATAR_FORMATS:
                raise AccountError.of("avatar_invalid", field="avatar")
            width, height = probe.size
            if width * height > AVATAR_MAX_PIXELS:
                raise AccountError.of("avatar_invalid", field="avatar")
            probe.load()  # a full decode: a truncated or forged file fails here
            image = ImageOps.exif_transpose(probe)
            image = image.convert("RGBA" if "A" in image.getbands() or "transparency" in probe.info else "RGB")
    except AccountError:
        raise
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError, SyntaxError):
        raise AccountError.of("avatar_invalid", field="avatar") from None
    image = ImageOps.fit(image, (AVATAR_SIZE_PX, AVATAR_SIZE_PX), Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    image.save(buffer, format="WEBP", quality=85)
    return ContentFile(buffer.getvalue(), name=f"{uuid.uuid4().hex}.webp")


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
    member's e-mail or changes a role (docs/decisions.md 11, 32). A new e-mail takes effect once confirmed at the new
    address; the old one is told (`email_change_request`)."""
    refusal = user_edit_refusal(actor=actor, target=user)
    if refusal is not None:
        raise refusal
    changes: dict = {}
    for field, max_length in PROFILE_TEXT_FIELDS.items():
        if field in data:
            changes[field] = (data.get(field) or "").strip()
            if len(changes[field]) > max_length:
                raise AccountError.of("text_too_long", field=field, max_length=max_length)
    if ("first_name" in changes and not changes["first_name"]) or ("last_name" in changes and not changes["last_name"]):
        raise AccountError.of("names_required")
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
                raise AccountError.of("staff_email_forbidden", field="email")
            if len(email) > 254:
                raise AccountError.of("text_too_long", field="email", max_length=254)
            _check_email(email)
            if User.objects.filter(email__iexact=email).exclude(pk=user.pk).exists():
                raise AccountError.of("email_taken", field="email")
            new_email = email
    if "role" in data and data.get("role") not in (None, "") and data.get("role") != user.role:
        role = data.get("role")
        if not actor.is_admin:
            raise AccountError.of("role_change_forbidden", field="role")
        if role not in Role.values:
            raise AccountError.of("role_invalid", field="role")
        changes["role"] = role
    try:
        changes.update(company_cleaned(data, current={field: getattr(user, field) for field in COMPANY_MAX_LENGTHS}))
    except CompanyError as error:  # the profile's own refusal, which its page shows beside the field
        raise AccountError(error.message, code=error.code, field=error.field) from None
    new_avatar = avatar_process(avatar) if avatar else None

    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if changes.get("role") and locked.role == Role.ADMIN:
            # Row-locking every admin keeps two admins from demoting each other at once.
            admins = list(User.objects.select_for_update().filter(role=Role.ADMIN, is_active=True).values_list("pk"))
            if len(admins) <= 1:
                raise AccountError.of("last_admin", field="role")
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
            raise AccountError.of("email_taken", field="email") from None
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
            raise AccountError.of("invalid_link")
        user = User.objects.select_for_update().get(pk=found.user_id)
        if not user.pending_email:
            raise AccountError.of("invalid_link")
        if User.objects.filter(email__iexact=user.pending_email).exclude(pk=user.pk).exists():
            raise AccountError.of("email_taken")
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
            raise AccountError.of("email_taken") from None
    return user
