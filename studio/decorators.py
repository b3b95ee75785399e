"""Page guards: members must log in; the back office is for admins and supervisors."""

import functools

from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect


def login_required_page(view):
    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapper


def staff_required_page(view):
    """A visitor goes to /login?next=...; a logged-in member who is not staff goes to / (SPEC.md 2.1)."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.is_studio_staff:
            return redirect("/")
        return view(request, *args, **kwargs)

    return wrapper
