"""The confirmation of a changed e-mail address (the profile page itself, which shows what the other apps hold of the
member, is the top layer's: project/pages/profile.py)."""

from django.views.decorators.http import require_http_methods

from ..services.errors import MSG_CONFIRM_LINK_INVALID, AccountError
from ..services.profile import MSG_EMAIL_CHANGED, email_change_confirm, email_change_link_is_valid
from .common import page

# --- A changed e-mail, confirmed at the new address (docs/decisions.md 32) --------------------------------------


@require_http_methods(["GET", "POST"])
def confirm_new_email_page(request, token):
    """GET shows a button (a mail scanner that follows links changes nothing); the POST confirms."""
    context = {"token": token, "state": "pending"}
    status = 200
    if request.method == "POST":
        try:
            email_change_confirm(token=token)
        except AccountError as error:
            context.update(state="error", message=error.message)
            status = error.status
        else:
            context.update(state="success", message=MSG_EMAIL_CHANGED)
    elif not email_change_link_is_valid(token=token):
        context.update(state="error", message=MSG_CONFIRM_LINK_INVALID)
        status = 400
    return page(request, "accounts/confirm_new_email.html", "Nouvelle adresse email", context, status)
