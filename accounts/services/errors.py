"""The refused account actions: `AccountError` and its French texts, keyed by a stable code.

Callers import the texts from here (`from accounts.services.errors import MSG_LOGIN_FAILED`); the table here is the
one place that says which code answers which text and which HTTP status."""

from studio.errors import CONFLICT, FORBIDDEN, TOO_MANY_REQUESTS, ApplicationError
from studio.parsers import MSG_TEXT_TOO_LONG

UNAUTHORIZED = 401

# Field checks shared by registration, password reset and profile edits.
MSG_PHONE_INVALID = "❌ Le numéro de téléphone doit contenir 10 chiffres."
MSG_EMAIL_INVALID = "❌ L'email n'est pas valide."
MSG_POSTAL_CODE_INVALID = "❌ Le code postal doit contenir 5 chiffres."
MSG_PASSWORD_TOO_SHORT = "❌ Le mot de passe doit contenir au moins 6 caractères."
MSG_PASSWORDS_DIFFER = "❌ Les mots de passe ne correspondent pas."
MSG_PASSWORD_TOO_COMMON = "❌ Ce mot de passe est trop courant. Choisissez-en un autre."

# Registration and e-mail confirmation (docs/decisions.md 10).
MSG_REQUIRED_FIELDS = "❌ Tous les champs obligatoires doivent être remplis."
MSG_CGU_REQUIRED = "❌ Vous devez accepter les conditions générales d'utilisation."
# A profile's new e-mail that already has an account (registering with one answers as a new account does:
# docs/decisions.md 30).
MSG_EMAIL_TAKEN = "❌ Un compte existe déjà avec cet email. Connectez-vous ou utilisez « Mot de passe oublié »."
MSG_CONFIRM_LINK_INVALID = "Lien de confirmation invalide ou expiré."

# Login (docs/decisions.md 8).
MSG_LOGIN_BLANK = "Veuillez remplir tous les champs."
MSG_LOGIN_FAILED = "Email ou mot de passe incorrect."
MSG_EMAIL_NOT_CONFIRMED = (
    "Votre email n'est pas encore confirmé. Cliquez sur le lien reçu par email, ou demandez-en un nouveau."
)
MSG_LOGIN_THROTTLED = (
    "Trop de tentatives de connexion échouées. Pour votre sécurité, réessayez dans 15 minutes "
    "ou réinitialisez votre mot de passe."
)

# Forgotten password.
MSG_FORGOT_EMAIL_REQUIRED = "❌ Veuillez entrer un email valide."
MSG_RESET_LINK_INVALID = "Lien invalide ou expiré."

# Profile edits (docs/decisions.md 32).
MSG_NAMES_REQUIRED = "❌ Le prénom et le nom sont obligatoires."
MSG_AVATAR_INVALID = "Seules les images JPEG, PNG, GIF ou WebP sont acceptées pour l'avatar."
MSG_AVATAR_TOO_LARGE = "L'avatar ne doit pas dépasser {max_mb} Mo."

# Staff rights over accounts (docs/decisions.md 4, 11 and 32).
MSG_ROLE_CHANGE_FORBIDDEN = "Seul un administrateur peut modifier le rôle d'un compte."
MSG_ROLE_INVALID = "Rôle inconnu."
MSG_ADMIN_DELETE_FORBIDDEN = "Seul un administrateur peut supprimer un compte administrateur."
MSG_LAST_ADMIN = "Impossible : ce compte est le dernier administrateur du studio."
MSG_SELF_DELETE = "Vous ne pouvez pas supprimer votre propre compte depuis le tableau de bord."
MSG_USER_HAS_HISTORY = "Ce compte a des réservations ou des paiements : il ne peut pas être supprimé."
MSG_PROFILE_FORBIDDEN = "Vous n'avez pas accès à ce profil."
MSG_USER_NOT_FOUND = "Utilisateur introuvable."
MSG_ADMIN_EDIT_FORBIDDEN = "Seul un administrateur peut modifier un compte administrateur."
MSG_STAFF_EDIT_FORBIDDEN = "Un superviseur ne peut modifier que les comptes des membres."
MSG_STAFF_EMAIL_FORBIDDEN = "Seul un administrateur peut changer l'email d'un membre de l'équipe."

# A client created at the desk (docs/decisions.md 50): staff only, so the account already there is named.
MSG_CLIENT_CREATE_FORBIDDEN = "Seule l'équipe du studio peut créer le compte d'un client."
MSG_CLIENT_EMAIL_TAKEN = (
    "Un compte existe déjà avec cet e-mail : {name} ({email}). Retrouvez-le dans la liste des utilisateurs."
)

NOT_FOUND = 404


class AccountError(ApplicationError):
    """A refused account action: a French message, a code, the HTTP status the API answers, the field at fault."""

    default_code = "invalid"
    messages = {
        "phone_invalid": MSG_PHONE_INVALID,
        "email_invalid": MSG_EMAIL_INVALID,
        "postal_code_invalid": MSG_POSTAL_CODE_INVALID,
        "password_too_short": MSG_PASSWORD_TOO_SHORT,
        "password_too_common": MSG_PASSWORD_TOO_COMMON,
        "passwords_differ": MSG_PASSWORDS_DIFFER,
        "text_too_long": MSG_TEXT_TOO_LONG,
        "required_fields": MSG_REQUIRED_FIELDS,
        "cgu_required": MSG_CGU_REQUIRED,
        "email_taken": MSG_EMAIL_TAKEN,
        "invalid_link": MSG_CONFIRM_LINK_INVALID,
        "blank": MSG_LOGIN_BLANK,
        "invalid_credentials": MSG_LOGIN_FAILED,
        "email_not_confirmed": MSG_EMAIL_NOT_CONFIRMED,
        "throttled": MSG_LOGIN_THROTTLED,
        "email_required": MSG_FORGOT_EMAIL_REQUIRED,
        "invalid_reset_link": MSG_RESET_LINK_INVALID,
        "names_required": MSG_NAMES_REQUIRED,
        "avatar_invalid": MSG_AVATAR_INVALID,
        "avatar_too_large": MSG_AVATAR_TOO_LARGE,
        "role_change_forbidden": MSG_ROLE_CHANGE_FORBIDDEN,
        "role_invalid": MSG_ROLE_INVALID,
        "admin_delete_forbidden": MSG_ADMIN_DELETE_FORBIDDEN,
        "last_admin": MSG_LAST_ADMIN,
        "self_delete": MSG_SELF_DELETE,
        "user_has_history": MSG_USER_HAS_HISTORY,
        "profile_forbidden": MSG_PROFILE_FORBIDDEN,
        "user_not_found": MSG_USER_NOT_FOUND,
        "admin_edit_forbidden": MSG_ADMIN_EDIT_FORBIDDEN,
        "staff_edit_forbidden": MSG_STAFF_EDIT_FORBIDDEN,
        "staff_email_forbidden": MSG_STAFF_EMAIL_FORBIDDEN,
        "client_create_forbidden": MSG_CLIENT_CREATE_FORBIDDEN,
        "client_email_taken": MSG_CLIENT_EMAIL_TAKEN,
    }
    statuses = {
        "email_taken": CONFLICT,
        "invalid_credentials": UNAUTHORIZED,
        "email_not_confirmed": FORBIDDEN,
        "throttled": TOO_MANY_REQUESTS,
        "role_change_forbidden": FORBIDDEN,
        "admin_delete_forbidden": FORBIDDEN,
        # The studio's state refuses it (docs/decisions.md 11): 409; deleting oneself is not the actor's to do: 403.
        "last_admin": CONFLICT,
        "self_delete": FORBIDDEN,
        "user_has_history": CONFLICT,
        "profile_forbidden": FORBIDDEN,
        "user_not_found": NOT_FOUND,
        "admin_edit_forbidden": FORBIDDEN,
        "staff_edit_forbidden": FORBIDDEN,
        "staff_email_forbidden": FORBIDDEN,
        "client_create_forbidden": FORBIDDEN,
        "client_email_taken": CONFLICT,
    }

    def __init__(
        self, message: str, status: int | None = None, field: str | None = None, code: str | None = None, **kwargs
    ):
        super().__init__(message, status=status, field=field, code=code, **kwargs)
