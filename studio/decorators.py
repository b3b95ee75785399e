"""Page guards: members must log in; the back office is for admins and supervisors."""

import functools

from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect
from django.utils.functional import SimpleLazyObject


def _logged_in(request) -> bool:
    """Whether the visitor is logged in; if so, `request.user` becomes the user itself instead of
    AuthenticationMiddleware's lazy wrapper (evaluated by this very check), so the view, the context processors and
    the templates read its attributes directly rather than through the wrapper's proxy, which costs
    a lookup at every attribute."""
    user = request.user
    if not user.is_authenticated:
        return False
    if type(user) is SimpleLazyObject:
        request.user = user._wrapped
    return True


def login_required_page(view):
    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if not _logged_in(request):
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapper


def staff_required_page(view):
    """A visitor goes to /login?next=...; a logged-in member who is not staff goes to /."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if not _logged_in(request):
            return redirect_to_login(request.get_full_path())
        if not request.user.is_studio_staff:
            return redirect("/")
        return view(request, *args, **kwargs)

    return wrapper
