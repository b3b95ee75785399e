"""The page of "Supprimer mon compte": what deletion does, the password to confirm it; without JavaScript."""

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from .services import MSG_ACCOUNT_DELETED, AccountDeletionError, account_delete_by_member


@login_required(login_url="/login")
@require_http_methods(["GET", "POST"])
def delete_account_page(request):
    error = ""
    if request.method == "POST":
        try:
            account_delete_by_member(user=request.user, password=request.POST.get("password", "")[:128])
        except AccountDeletionError as exc:
            error = exc.message
        else:
            logout(request)
            messages.success(request, MSG_ACCOUNT_DELETED)
            return redirect("/")
    status = 400 if error else 200
    return render(request, "privacy/delete_account.html", {"error": error}, status=status)
