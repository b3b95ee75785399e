"""One masked CSRF token a request, masked with one read of the system's randomness (issue 18).

Django masks the CSRF secret anew at each `get_token` call, and a member's page asked for it several times: an
island's view makes sure the cookie is set, the header's logout form writes `{% csrf_token %}`, a profile section its
own form. `page_token` masks once per request and per secret (a login rotates the secret: the next call masks the
new one); the `csrf` context processor below makes the templates' `csrf_token` that same value. Any masked token of
the secret is valid, so the page's forms and its islands' API calls are accepted exactly as before.

Django draws the mask's 32 characters one at a time from `SystemRandom` (32 `os.urandom` calls, ~35 µs a page).
`_mask` draws them from one `os.urandom` read, by rejection (a byte is kept below 248 = 4 × 62, then taken modulo
62), so each character is as uniform and unpredictable as Django's: the token has Django's form (mask + secret
shifted by the mask) and Django's middleware unmasks it.
"""

import os

from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH, rotate_token
from django.utils.functional import SimpleLazyObject

_ATTRIBUTE = "_studio_page_csrf_token"  # (secret, masked token)
_SIZE = len(CSRF_ALLOWED_CHARS)
_INDEX = {char: i for i, char in enumerate(CSRF_ALLOWED_CHARS)}
_BELOW = 256 - 256 % _SIZE  # bytes from here up would make the low characters likelier


def _random_indexes(count: int) -> list[int]:
    """`count` indexes into CSRF_ALLOWED_CHARS, uniform, from the operating system's randomness."""
    drawn: list[int] = []
    while len(drawn) < count:  # one read almost always: 64 bytes hold fewer than 32 kept ones once in ~10^20
        drawn.extend(byte % _SIZE for byte in os.urandom(2 * count) if byte < _BELOW)
    return drawn[:count]


def _mask(secret: str) -> str:
    """Django's `_mask_cipher_secret(secret)`: a new random mask, then the secret shifted by it."""
    mask = _random_indexes(CSRF_SECRET_LENGTH)
    cipher = "".join(
        CSRF_ALLOWED_CHARS[(_INDEX[char] + shift) % _SIZE] for char, shift in zip(secret, mask, strict=True)
    )
    return "".join(CSRF_ALLOWED_CHARS[i] for i in mask) + cipher


def page_token(request) -> str:
    """`get_token(request)`, masked once per request and secret."""
    kept = getattr(request, _ATTRIBUTE, None)
    secret = request.META.get("CSRF_COOKIE")
    if kept is not None and secret is not None and kept[0] == secret:
        return kept[1]
    # What `get_token` does before masking: use the secret (and renew its cookie), or make one.
    if secret is None:
        rotate_token(request)
        secret = request.META["CSRF_COOKIE"]
    else:
        request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    token = _mask(secret)
    setattr(request, _ATTRIBUTE, (secret, token))
    return token


def csrf(request) -> dict:
    """Context processor, after Django's own `csrf`: the templates' `csrf_token` is `page_token`'s."""
    return {"csrf_token": SimpleLazyObject(lambda: page_token(request))}
