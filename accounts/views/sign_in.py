"""Sign-in, registration and password pages. Each is a real HTML form that works without JavaScript, calling the
same services as the API; a small script per page adds live feedback and the timed redirects (to / 1.5 s after
registering, to /login 3 s after a confirmed e-mail and 2 s after a new password)."""

from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from studio.cache import cache_public_page
from studio.ratelimit import client_ip, rate_limited_page

from ..services.authentication import MSG_LOGGED_OUT, session_login, user_authenticate, user_logout
from ..services.common import DEFAULT_COUNTRY, PASSWORD_MIN_LENGTH
from ..services.errors import (
    MSG_CGU_REQUIRED,
    MSG_CONFIRM_LINK_INVALID,
    MSG_EMAIL_INVALID,
    MSG_FORGOT_EMAIL_REQUIRED,
    MSG_LOGIN_BLANK,
    MSG_PASSWORD_TOO_SHORT,
    MSG_PASSWORDS_DIFFER,
    MSG_PHONE_INVALID,
    MSG_POSTAL_CODE_INVALID,
    MSG_REQUIRED_FIELDS,
    MSG_RESET_LINK_INVALID,
    AccountError,
)
from ..services.passwords import (
    MSG_FORGOT_SENT,
    MSG_PASSWORD_RESET,
    password_reset_confirm,
    password_reset_request,
    reset_link_is_valid,
)
from ..services.registration import (
    MSG_CONFIRMATION_RESENT,
    MSG_EMAIL_CONFIRMED,
    MSG_REGISTERED,
    email_confirm,
    email_confirmation_resend,
    user_register,
)
from .common import page

# Client-side messages (the browser maps API statuses to these); tests import them from here.
MSG_LOGIN_OTHER_ERROR = "Erreur lors de la connexion. Veuillez réessayer plus tard."
MSG_LOGIN_NETWORK = "Problème réseau. Veuillez vérifier votre connexion."
MSG_CONFIRM_OTHER_ERROR = "Une erreur est survenue. Réessayez plus tard."
MSG_CONFIRM_LOADING = "Validation de votre adresse email en cours…"
MSG_FORGOT_400 = "Email invalide."
MSG_FORGOT_403 = "Accès interdit."
MSG_FORGOT_404 = "Aucun compte associé à cet email."
MSG_FORGOT_500 = "Erreur serveur. Réessayez plus tard."
MSG_FORGOT_TIMEOUT = "Temps d'attente dépassé."
MSG_FORGOT_NETWORK = "Erreur réseau. Vérifiez votre connexion."
MSG_FORGOT_OTHER = "Une erreur est survenue."
MSG_RESET_404 = "Utilisateur introuvable."
MSG_RESET_500 = "Erreur serveur. Réessayez plus tard."
MSG_RESET_OTHER = "Une erreur inconnue est survenue."
MSG_RESET_NETWORK = "Problème de connexion au serveur."
MSG_REGISTER_OTHER_ERROR = "Erreur lors de l'inscription. Veuillez réessayer."

# After a confirmed e-mail or a new password the page goes to /login (after 3 s and 2 s), saying so
# politely, with a button to stay (a visitor who reads slowly) and the "Se connecter" link kept.
MSG_REDIRECT_TO_LOGIN = "Redirection vers la page de connexion dans {seconds} secondes."
MSG_STAY_ON_PAGE = "Rester sur cette page"
MSG_REDIRECT_CANCELLED = "Redirection annulée : le lien « Se connecter » vous y mène quand vous voulez."

REGISTER_REDIRECT_MS = 1500
CONFIRM_REDIRECT_MS = 3000
RESET_REDIRECT_MS = 2000
FORGOT_TIMEOUT_MS = 10_000
GENERATED_PASSWORD_LENGTH = 12
GENERATED_PASSWORD_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*"

REGISTER_FIELDS = ("last_name", "first_name", "phone", "email", "address", "postal_code", "city", "country")


def _safe_next(request) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        if target.startswith("/") and not target.startswith("//"):
            return target
    return ""


def _redirect_messages(delay_ms: int) -> dict:
    return {
        "redirecting": MSG_REDIRECT_TO_LOGIN.format(seconds=delay_ms // 1000),
        "stay": MSG_STAY_ON_PAGE,
        "stayed": MSG_REDIRECT_CANCELLED,
    }


@cache_public_page(forms=True)
@require_http_methods(["GET", "POST"])
def login_page(request):
    if request.user.is_authenticated:
        return redirect("/")
    next_url = _safe_next(request)
    context = {
        "next": next_url,
        "email": "",
        "remember": False,
        "props": {
            "next": next_url or "/",
            "messages": {
                "blank": MSG_LOGIN_BLANK,
                "other": MSG_LOGIN_OTHER_ERROR,
                "network": MSG_LOGIN_NETWORK,
                "resent": MSG_CONFIRMATION_RESENT,
            },
        },
    }
    status = 200
    if request.method == "POST":
        email = request.POST.get("email", "")
        remember = bool(request.POST.get("remember"))
        context.update(email=email.strip(), remember=remember)
        try:
            user = user_authenticate(email=email, password=request.POST.get("password", ""), ip=client_ip(request))
        except AccountError as error:
            context.update(error=error.message, unconfirmed=error.code == "email_not_confirmed")
            status = error.status
        else:
            session_login(request=request, user=user, remember=remember)
            return HttpResponseRedirect(next_url or "/")
    return page(
        request, "accounts/login.html", "Se connecter", context, status, "Connectez-vous à votre espace membre."
    )


@require_POST
@rate_limited_page("resend")
def resend_confirmation_page(request):
    try:
        email_confirmation_resend(email=request.POST.get("email", ""))
    except AccountError as error:
        messages.error(request, error.message)
    else:
        messages.info(request, MSG_CONFIRMATION_RESENT)
    return redirect("login")


@require_POST
def logout_view(request):
    """Logout from the account menu ends the session and goes to /."""
    user_logout(request=request)
    messages.success(request, MSG_LOGGED_OUT)
    return redirect("/")


# --- Registration and e-mail confirmation ---------------------------------------------------------------------


def _register_messages():
    return {
        "required": MSG_REQUIRED_FIELDS,
        "phone": MSG_PHONE_INVALID,
        "email": MSG_EMAIL_INVALID,
        "postalCode": MSG_POSTAL_CODE_INVALID,
        "passwordShort": MSG_PASSWORD_TOO_SHORT,
        "passwordsDiffer": MSG_PASSWORDS_DIFFER,
        "cgu": MSG_CGU_REQUIRED,
        "success": MSG_REGISTERED,
        "other": MSG_REGISTER_OTHER_ERROR,
        "network": MSG_LOGIN_NETWORK,
    }


@cache_public_page(forms=True)
@require_http_methods(["GET", "POST"])
@rate_limited_page("register")
def register_page(request):
    if request.user.is_authenticated:
        return redirect("/")
    values = {field: "" for field in REGISTER_FIELDS}
    values["country"] = DEFAULT_COUNTRY
    context = {
        "values": values,
        "props": {
            "messages": _register_messages(),
            "redirectMs": REGISTER_REDIRECT_MS,
            "passwordLength": GENERATED_PASSWORD_LENGTH,
            "passwordAlphabet": GENERATED_PASSWORD_ALPHABET,
            "minPasswordLength": PASSWORD_MIN_LENGTH,
        },
    }
    status = 200
    if request.method == "POST":
        post = request.POST
        values.update({field: post.get(field, "").strip() for field in REGISTER_FIELDS})
        context["accept_cgu"] = bool(post.get("acceptCGU"))
        try:
            user_register(
                **{field: post.get(field, "") for field in REGISTER_FIELDS},
                password=post.get("password", ""),
                confirm_password=post.get("confirmPassword", ""),
                accept_cgu=post.get("acceptCGU", ""),
            )
        except AccountError as error:
            context.update(error=error.message, error_field=error.field)
            status = error.status
        else:
            messages.success(request, MSG_REGISTERED)
            return redirect("/")
    return page(
        request, "accounts/register.html", "S'inscrire", context, status, "Créez votre compte membre du studio."
    )


@require_http_methods(["GET", "POST"])
def confirm_email_page(request, token):
    """With JavaScript the page calls GET /api/users/validate-email/<token> once; without, a button posts here."""
    context = {
        "token": token,
        "state": "pending",
        "props": {
            "token": token,
            "redirectMs": CONFIRM_REDIRECT_MS,
            "messages": {
                "loading": MSG_CONFIRM_LOADING,
                "success": MSG_EMAIL_CONFIRMED,
                "invalid": MSG_CONFIRM_LINK_INVALID,
                "other": MSG_CONFIRM_OTHER_ERROR,
                **_redirect_messages(CONFIRM_REDIRECT_MS),
            },
        },
    }
    status = 200
    if request.method == "POST":
        try:
            email_confirm(token=token)
        except AccountError as error:
            context.update(state="error", message=error.message)
            status = error.status
        else:
            context.update(state="success", message=MSG_EMAIL_CONFIRMED)
    return page(request, "accounts/confirm_email.html", "Validation de l'email", context, status)


# --- Forgot and reset password ----------------------------------------------------------------------------


@cache_public_page(forms=True)
@require_http_methods(["GET", "POST"])
@rate_limited_page("forgot_password")
def forgot_password_page(request):
    context = {
        "email": "",
        "props": {
            "timeoutMs": FORGOT_TIMEOUT_MS,
            "messages": {
                "required": MSG_FORGOT_EMAIL_REQUIRED,
                "sent": MSG_FORGOT_SENT,
                "400": MSG_FORGOT_400,
                "403": MSG_FORGOT_403,
                "404": MSG_FORGOT_404,
                "500": MSG_FORGOT_500,
                "timeout": MSG_FORGOT_TIMEOUT,
                "network": MSG_FORGOT_NETWORK,
                "other": MSG_FORGOT_OTHER,
            },
        },
    }
    status = 200
    if request.method == "POST":
        email = request.POST.get("email", "")
        context["email"] = email.strip()
        try:
            password_reset_request(email=email)
        except AccountError as error:
            context["error"] = error.message
            status = error.status
        else:
            context.update(sent=MSG_FORGOT_SENT, email="")
    return page(request, "accounts/forgot_password.html", "Mot de passe oublié", context, status)


@require_http_methods(["GET", "POST"])
def reset_password_page(request, token):
    context = {
        "valid": reset_link_is_valid(token=token),
        "invalid_message": MSG_RESET_LINK_INVALID,
        "props": {
            "token": token,
            "redirectMs": RESET_REDIRECT_MS,
            "minPasswordLength": PASSWORD_MIN_LENGTH,
            "messages": {
                "passwordsDiffer": MSG_PASSWORDS_DIFFER,
                "passwordShort": MSG_PASSWORD_TOO_SHORT,
                "success": MSG_PASSWORD_RESET,
                "400": MSG_RESET_LINK_INVALID,
                "404": MSG_RESET_404,
                "500": MSG_RESET_500,
                "other": MSG_RESET_OTHER,
                "network": MSG_RESET_NETWORK,
                **_redirect_messages(RESET_REDIRECT_MS),
            },
        },
    }
    status = 200
    if request.method == "POST" and context["valid"]:
        try:
            password_reset_confirm(
                token=token,
                new_password=request.POST.get("newPassword", ""),
                confirm_password=request.POST.get("confirmPassword", ""),
            )
        except AccountError as error:
            context["error"] = error.message
            context["valid"] = error.code != "invalid_reset_link"
            status = error.status
        else:
            messages.success(request, MSG_PASSWORD_RESET)
            return redirect("login")
    elif request.method == "POST":
        status = 400
    return page(request, "accounts/reset_password.html", "Réinitialiser le mot de passe", context, status)
