"""One masked CSRF token a request (issue 18).

Django masks the CSRF secret anew at each `get_token` call (a random mask of 32 characters: ~30 os.urandom calls,
~35 µs), and a member's page asked for it several times: an island's view makes sure the cookie is set, the header's
logout form writes `{% csrf_token %}`, a profile section its own form. `page_token` masks once per request and per
secret (a login rotates the secret: the next call masks the new one); the `csrf` context processor below makes the
templates' `csrf_token` that same value. Any masked token of the secret is valid, so the page's forms and its
islands' API calls are accepted exactly as before.
"""

from django.middleware.csrf import get_token
from django.utils.functional import SimpleLazyObject

_ATTRIBUTE = "_studio_page_csrf_token"  # (secret, masked token)


def page_token(request) -> str:
    """`get_token(request)`, masked once per request and secret."""
    kept = getattr(request, _ATTRIBUTE, None)
    secret = request.META.get("CSRF_COOKIE")
    if kept is not None and secret is not None and kept[0] == secret:
        return kept[1]
    token = get_token(request)
    setattr(request, _ATTRIBUTE, (request.META.get("CSRF_COOKIE"), token))
    return token


def csrf(request) -> dict:
    """Context processor, after Django's own `csrf`: the templates' `csrf_token` is `page_token`'s."""
    return {"csrf_token": SimpleLazyObject(lambda: page_token(request))}
