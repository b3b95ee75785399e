from studio.decorators import login_required_page
from studio.pages import simple_page

MSG_LOGGED_OUT = "Vous êtes déconnecté. À bientôt !"

login_page = simple_page("accounts/login.html", "Se connecter", "Connectez-vous à votre espace membre.")
register_page = simple_page("accounts/register.html", "S'inscrire", "Créez votre compte membre du studio.")
confirm_email_page = simple_page("accounts/confirm_email.html", "Validation de l'email")
forgot_password_page = simple_page("accounts/forgot_password.html", "Mot de passe oublié")
reset_password_page = simple_page("accounts/reset_password.html", "Réinitialiser le mot de passe")
profile_page = login_required_page(simple_page("accounts/profile.html", "Mon profil"))


def logout_view(request):
    """Logout from the account menu ends the session and goes to / (SPEC.md 2.3)."""
    from django.contrib import messages
    from django.contrib.auth import logout
    from django.shortcuts import redirect
    from django.views.decorators.http import require_POST

    @require_POST
    def _logout(req):
        logout(req)
        messages.success(req, MSG_LOGGED_OUT)
        return redirect("/")

    return _logout(request)
