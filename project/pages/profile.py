"""A member's profile page (staff open anyone's): the account (accounts) with what the other apps show of it, the
passes, subscriptions, invoices, personal data and reminders (profile_sections.py). It gathers several apps, so it sits
in the top layer."""

from django.conf import settings
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods

from accounts.company import COMPANY_MAX_LENGTHS
from accounts.models import Role
from accounts.selectors import avatar_url, user_get
from accounts.services.errors import (
    MSG_AVATAR_INVALID,
    MSG_AVATAR_TOO_LARGE,
    MSG_NAMES_REQUIRED,
    MSG_PHONE_INVALID,
    MSG_POSTAL_CODE_INVALID,
    MSG_PROFILE_FORBIDDEN,
    AccountError,
)
from accounts.services.profile import MSG_EMAIL_CHANGE_PENDING, MSG_PROFILE_UPDATED, user_update
from accounts.services.staff import user_can_change_email, user_can_edit
from accounts.views.common import page
from studio.decorators import login_required_page

from .profile_sections import profile_sections

PROFILE_FORM_FIELDS = (
    "first_name",
    "last_name",
    "phone",
    "address",
    "postal_code",
    "city",
    "country",
    *COMPANY_MAX_LENGTHS,  # a company to invoice (docs/decisions.md 54)
)

PROFILE_SAVED_SESSION_KEY = "profile_saved_message"


@login_required_page
@require_http_methods(["GET", "POST"])
def profile_page(request, user_id=None):
    """/user/profile is one's own profile; /user/profile/<id> another's, for staff only (docs/decisions.md 4)."""
    actor = request.user
    if user_id is None or user_id == actor.pk:
        target = actor
    elif actor.is_studio_staff:
        target = user_get(user_id=user_id)
        if target is None:
            return page(request, "404.html", "Page non trouvée", {}, status=404)
    else:
        return page(request, "accounts/forbidden.html", "Accès refusé", {"message": MSG_PROFILE_FORBIDDEN}, 403)
    own = target.pk == actor.pk
    can_edit = user_can_edit(actor=actor, target=target)
    edit = request.GET.get("edit") == "1" and can_edit
    status = 200
    values = {field: getattr(target, field) for field in PROFILE_FORM_FIELDS}
    values["email"] = target.email
    values["pending_email"] = target.pending_email
    values["role"] = target.role
    context = {}
    if request.method == "POST":
        post = request.POST
        data = {field: post.get(field, "") for field in PROFILE_FORM_FIELDS if field in post}
        if user_can_change_email(actor=actor, target=target) and "email" in post:
            data["email"] = post.get("email", "")
        if "role" in post:
            data["role"] = post.get("role", "")
        try:
            user_update(
                actor=actor,
                user=target,
                data=data,
                avatar=request.FILES.get("avatar"),
                remove_avatar=bool(post.get("remove_avatar")),
            )
        except AccountError as error:
            values.update(data)
            context.update(error=error.message, error_field=error.field)
            edit = can_edit
            status = error.status
        else:
            target.refresh_from_db(fields=["pending_email"])
            email_pending = "email" in data and target.pending_email and target.pending_email != values["pending_email"]
            # Shown once in the page as a status message, near where the visitor looks, rather than a 3 s toast.
            request.session[PROFILE_SAVED_SESSION_KEY] = (
                MSG_EMAIL_CHANGE_PENDING if email_pending else MSG_PROFILE_UPDATED
            )
            return redirect(request.path)
    elif PROFILE_SAVED_SESSION_KEY in request.session:
        context["saved_message"] = request.session.pop(PROFILE_SAVED_SESSION_KEY)
    context.update(
        profile=profile_sections(request, target=target, own=own),  # what the other apps show of the member
        target=target,
        own=own,
        edit=edit,
        values=values,
        avatar_url=avatar_url(target),
        can_edit=can_edit,
        can_edit_email=user_can_change_email(actor=actor, target=target),
        can_edit_role=actor.is_admin,
        roles=Role.choices,
        props={
            "messages": {
                "phone": MSG_PHONE_INVALID,
                "postalCode": MSG_POSTAL_CODE_INVALID,
                "names": MSG_NAMES_REQUIRED,
                "avatar": MSG_AVATAR_INVALID,
                "avatarTooLarge": MSG_AVATAR_TOO_LARGE.format(max_mb=settings.MAX_AVATAR_UPLOAD_BYTES // (1024 * 1024)),
            },
            "maxAvatarBytes": settings.MAX_AVATAR_UPLOAD_BYTES,
        },
    )
    title = "Mon profil" if own else f"Profil de {target.get_full_name()}"
    return page(request, "accounts/profile.html", title, context, status)
