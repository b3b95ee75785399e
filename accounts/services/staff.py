"""Who may edit or delete whom, and staff deleting accounts (SPEC.md 8, DECISIONS.md 11, 32)."""

from django.db import transaction
from django.db.models import ProtectedError, RestrictedError

from ..models import Role, User
from .authentication import user_refresh_tokens_revoke
from .common import AccountError

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
