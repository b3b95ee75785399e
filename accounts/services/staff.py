"""Who may edit or delete whom, and staff deleting accounts (docs/decisions.md 11, 32)."""

from django.db import transaction
from django.db.models import ProtectedError, RestrictedError

from accounts.services.errors import AccountError

from ..models import Role, User
from .authentication import user_refresh_tokens_revoke

MSG_USER_DELETED = "Utilisateur supprimé."


def user_edit_refusal(*, actor: User, target: User) -> AccountError | None:
    """Who may edit whom (docs/decisions.md 11, 32): oneself; staff edit members; only an admin edits a staff account.
    The reason for a refusal, or None. The profile page and the dashboard ask this too, to offer only what the
    server accepts."""
    if actor.pk == target.pk:
        return None
    if not actor.is_studio_staff:
        return AccountError.of("profile_forbidden")
    if actor.is_admin or target.role == Role.USER:
        return None
    if target.role == Role.ADMIN:
        return AccountError.of("admin_edit_forbidden")
    return AccountError.of("staff_edit_forbidden")


def user_can_edit(*, actor: User, target: User) -> bool:
    return user_edit_refusal(actor=actor, target=target) is None


def user_can_change_email(*, actor: User, target: User) -> bool:
    """Staff change a member's e-mail; only an admin changes a staff member's, their own included."""
    if not actor.is_studio_staff or not user_can_edit(actor=actor, target=target):
        return False
    return actor.is_admin or target.role == Role.USER


def user_delete(*, actor: User, user: User) -> None:
    """Staff delete accounts; only an admin deletes an admin, and never the last one (docs/decisions.md 11)."""
    if not actor.is_studio_staff:
        raise AccountError.of("profile_forbidden")
    if actor.pk == user.pk:
        raise AccountError.of("self_delete")
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.role in (Role.SUPERVISOR, Role.INSTRUCTOR) and not actor.is_admin:
            raise AccountError.of("staff_edit_forbidden")
        if locked.role == Role.ADMIN:
            if not actor.is_admin:
                raise AccountError.of("admin_delete_forbidden")
            admins = list(User.objects.select_for_update().filter(role=Role.ADMIN, is_active=True).values_list("pk"))
            if len(admins) <= 1:
                raise AccountError.of("last_admin")
        avatar_name = locked.avatar.name if locked.avatar else None
        # Before the row goes: the tokens' link to the user is set to NULL with it.
        user_refresh_tokens_revoke(user_id=locked.pk)
        try:
            locked.delete()
        except (ProtectedError, RestrictedError):  # PROTECT foreign keys (payments, reservations) keep history
            raise AccountError.of("user_has_history") from None
    if avatar_name:
        locked.avatar.storage.delete(avatar_name)
