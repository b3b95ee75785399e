"""Whole-page caching for anonymous visitors, invalidated when the data a page shows changes.

Every cached entry is stored with the versions it was built under and used only while they are all current:
- the public version (VERSION_KEY), which any save or delete of a *public model* bumps. Apps register the models
  their public pages show from their AppConfig.ready() with `register_public_models(...)`: the core names no app.
- optional finer versions an entry also depends on (`depends_on`, a list of cache keys), which an app bumps with
  `bump_versions(...)` for changes that concern only some entries. The sessions feed depends on one version per week
  it covers (bookings/cache.py): a member's seat hold bumps the version of its session's week, which rebuilds the
  feeds of that week and leaves every page and the other weeks' feeds cached.
The versions live in the shared cache (Redis in production), so a change made through one worker is seen by every
worker's next request.

A hit is one cache round trip: the versions and the entry are read together (`get_many`, one MGET on
Redis). Pages are stored as their bytes and headers rather than a pickled response.

An entry also lapses with time (PUBLIC_CACHE_SECONDS, or its own timeout: the feed's 30 s, for seat holds that lapse
without a write). The first request after that claims the rebuild (`cache.add`, REBUILD_SECONDS); requests arriving
meanwhile are answered the last copy rather than all rebuilding it together. Only an entry whose versions are
current is answered that way: a change is never hidden.

A page with a form (login, contact…) is kept with a hole where each form's CSRF token goes, never with a token: a
hit fills the hole with a token of the visitor's own, as `{% csrf_token %}` would (`get_token`), and Django's CSRF
middleware sets the visitor's cookie as it does after any render (`cache_public_page(forms=True)`).

A logged-in member's calendar feed is the cached public feed with their reservations spliced in, checked against
the same versions, read when the feed is asked for.
"""

import functools
import re
import secrets
import time
from collections.abc import Callable, Iterable

from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.http import HttpResponse
from django.middleware.csrf import CsrfViewMiddleware, get_token

VERSION_KEY = "public:version"

# How long one request may take to rebuild a lapsed entry before another request claims the rebuild.
REBUILD_SECONDS = 10

# app_label.ModelName whose changes show on public pages, as registered by the apps (register_public_models).
PUBLIC_MODELS: list[str] = []


def _new_version() -> int:
    # Not 1: if the version key is ever evicted, a fresh start must not match entries built under an old version,
    # in the shared cache. Random rather than the time: two starts at the same
    # instant (a frozen clock in tests, two workers) still differ.
    return secrets.randbits(62)


def public_cache_version() -> int:
    """The public version alone (the first of an entry's versions)."""
    return cache_versions()[0]


def cache_versions(depends_on: Iterable[str] = ()) -> tuple[int, ...]:
    """The current public version followed by those of `depends_on`, each created when missing."""
    keys = [VERSION_KEY, *depends_on]
    found = cache.get_many(keys)
    missing = [key for key in keys if found.get(key) is None]
    if missing:
        for key in missing:
            cache.add(key, _new_version(), timeout=None)
        found = cache.get_many(keys)
    return tuple(found.get(key) for key in keys)


def bump_versions(*keys: str) -> None:
    """Invalidate every entry that depends on one of `keys` (and only those)."""
    for key in keys:
        try:
            cache.incr(key)
        except ValueError:
            cache.add(key, _new_version(), timeout=None)


def bump_public_cache(**_kwargs) -> None:
    """Invalidate every public entry (a public model changed)."""
    bump_versions(VERSION_KEY)


def _entry_key(name: str) -> str:
    return f"public:entry:{name}"


def _rebuilding_key(name: str) -> str:
    return f"public:rebuilding:{name}"


def _read(name: str, depends_on: Iterable[str] = ()):
    """(current versions, the entry's value or None, whether this request claimed its rebuild): one round trip to
    the cache for a fresh entry. An entry past its time is rebuilt by the first request that claims it; the others
    get its last copy meanwhile (only while its versions are current: a change is never hidden)."""
    keys = [VERSION_KEY, *depends_on]
    found = cache.get_many([*keys, _entry_key(name)])
    versions = tuple(found.get(key) for key in keys)
    if None in versions:
        return cache_versions(depends_on), None, False
    entry = found.get(_entry_key(name))
    if entry is None or len(entry) != 3 or entry[0] != versions:
        return versions, None, False
    _built_under, value, fresh_until = entry
    if time.time() < fresh_until:
        return versions, value, False
    if cache.add(_rebuilding_key(name), 1, timeout=REBUILD_SECONDS):
        return versions, None, True
    return versions, value, False


def _write(name: str, versions: tuple, value, timeout: int | None) -> None:
    timeout = timeout or settings.PUBLIC_CACHE_SECONDS
    # Kept twice its time, so that a lapsed entry can still answer while one request rebuilds it.
    cache.set(_entry_key(name), (versions, value, time.time() + timeout), timeout * 2)
    cache.delete(_rebuilding_key(name))


def _abandon(name: str) -> None:
    """A claimed rebuild that stored nothing: the next request claims it again."""
    cache.delete(_rebuilding_key(name))


def cached_public(name: str, builder, timeout: int | None = None, depends_on: Iterable[str] = ()):
    """Cache `builder()` under `name` until public data, or one of the versions `depends_on`, changes."""
    depends_on = list(depends_on)
    versions, value, claimed = _read(name, depends_on)
    if value is None:
        try:
            value = builder()
        except BaseException:
            if claimed:
                _abandon(name)
            raise
        _write(name, versions, value, timeout)
    return value


# Paths whose views are decorated with cache_public_page (or whose API marks its answer), learnt from their answers:
# the middleware looks only these up, so other requests cost no cache round trip. The value gives the finer version
# keys an answer on that path depends on, from the request (None: the public version only; the function returns None
# when it cannot tell, e.g. a malformed query, and the view answers).
DependsOn = Callable[[object], list[str] | None]
_PUBLIC_PATHS: dict[str, DependsOn | None] = {}


def _anonymous_get(request) -> bool:
    return (
        request.method in ("GET", "HEAD")
        and not request.COOKIES.get(settings.SESSION_COOKIE_NAME)
        # A pending flash message (e.g. after logout) lives in the messages cookie: render it, don't serve a copy.
        and not request.COOKIES.get(getattr(settings, "MESSAGE_COOKIE_NAME", "messages"))
        and "HTTP_AUTHORIZATION" not in request.META
    )


# Pages that show one of a few versions according to the request (cache_public_page's `variant`), by path.
_VARIANTS: dict[str, Callable[[object], str]] = {}


def _page_name(request) -> str:
    variant = _VARIANTS.get(request.path)
    return f"page:{request.get_full_path()}" + (f"#{variant(request)}" if variant is not None else "")


# The value of every form's token in a stored page; the hit puts the visitor's own in its place.
TOKEN_HOLE = b"csrf-token-hole"
_TOKEN_FIELD = re.compile(rb'(<input type="hidden" name="csrfmiddlewaretoken" value=")[^"]*(")')


def _with_token_holes(content: bytes) -> bytes:
    return _TOKEN_FIELD.sub(rb"\g<1>" + TOKEN_HOLE + rb"\g<2>", content)


def _answer(request, page, csrf: CsrfViewMiddleware | None = None) -> HttpResponse:
    """A stored page as this visitor's answer. A page with token holes gets the visitor's token (their cookie's
    secret when they have one); `csrf` is Django's CSRF middleware when the hit is answered before it ran."""
    status, content, headers, *holes = page
    if holes and holes[0]:
        if csrf is not None:
            csrf.process_request(request)  # reads the visitor's CSRF cookie, as the middleware does first
        content = content.replace(TOKEN_HOLE, get_token(request).encode())
    response = HttpResponse(content, status=status, headers=headers)
    if holes and holes[0] and csrf is not None:
        response = csrf.process_response(request, response)  # the cookie for a new visitor, and Vary: Cookie
    return response


class PublicPageCacheMiddleware:
    """Answer anonymous visitors' cached public pages right after whitenoise, before sessions, CSRF, authentication
    and the view; store each public page with the headers it has after every middleware (frame and content security
    policies included), so that a hit answers exactly what the first visitor got. Pages are marked for storage by
    `cache_public_page`; the version check is the same as every other public entry's."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.csrf = CsrfViewMiddleware(get_response)

    def __call__(self, request):
        if request.path in _PUBLIC_PATHS and _anonymous_get(request):
            request.get_host()  # the host check CommonMiddleware would do: a bad Host header still answers 400
            depends_on = _PUBLIC_PATHS[request.path]
            keys = depends_on(request) if depends_on is not None else []
            if keys is not None:
                name = _page_name(request)
                versions, page, claimed = _read(name, keys)
                if page is not None:
                    return _answer(request, page, self.csrf)
                # The view's decorator takes this lookup's outcome rather than reading the entry again.
                request._public_lookup = (versions, claimed)
        try:
            return self._store(request, self.get_response(request))
        finally:
            # A rebuild this request claimed (here or in the view's decorator) and did not store: free the claim.
            lookup = getattr(request, "_public_lookup", None)
            if lookup is not None and lookup[1] and not getattr(request, "_public_stored", False):
                _abandon(_page_name(request))

    def _store(self, request, response):
        marked = getattr(response, "_public_page", None)
        if marked is not None and response.status_code == 200:
            name, versions, timeout, *forms = marked
            forms = bool(forms and forms[0])
            # A page's own cookies make it someone's; a form page's CSRF cookie is the one the hit sets again.
            cookies = set(response.cookies) - ({settings.CSRF_COOKIE_NAME} if forms else set())
            if not cookies:
                content = _with_token_holes(response.content) if forms else response.content
                _write(name, versions, (response.status_code, content, list(response.items()), forms), timeout)
                request._public_stored = True
        return response


def mark_public_answer(
    request, response, *, version: int | tuple, timeout: int | None = None, depends_on: DependsOn | None = None
):
    """Let PublicPageCacheMiddleware keep this answer for visitors (an API's public GET), under `version`: the
    versions read *before* the answer's data was (`cache_versions(keys)`, or `public_cache_version()` when the answer
    depends on public data only), so that a change made meanwhile is never hidden. `depends_on(request)` gives the
    same keys back from a later request, for the middleware's check."""
    if _anonymous_get(request) and response.status_code == 200 and not response.cookies:
        _PUBLIC_PATHS[request.path] = depends_on
        versions = version if isinstance(version, tuple) else (version,)
        response._public_page = (_page_name(request), versions, timeout)
    return response


def cache_public_page(view=None, *, forms: bool = False, variant: Callable[[object], str] | None = None):
    """Serve a cached copy to anonymous GETs; skip responses that set cookies (session, or CSRF unless `forms`). The
    copy is stored by PublicPageCacheMiddleware once every middleware has answered. `forms=True`: the page's forms
    carry CSRF tokens, stored as holes that each hit fills with the visitor's own (see the module's docstring); the
    page must show nothing else of the visitor's. `variant(request)`: for a page that shows one of a few versions
    according to the request (e.g. where "Annuler" leads), the version, kept apart under its own name; the view must
    derive what varies from the same function."""
    if view is None:
        return functools.partial(cache_public_page, forms=forms, variant=variant)

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if not (_anonymous_get(request) and not request.user.is_authenticated):
            return view(request, *args, **kwargs)
        if variant is not None:
            _VARIANTS[request.path] = variant
        _PUBLIC_PATHS.setdefault(request.path, None)  # from now on this worker's middleware answers hits on this path
        name = _page_name(request)
        lookup = getattr(request, "_public_lookup", None)  # the middleware's, when it looked this page up
        if lookup is not None:
            versions, page = lookup[0], None
        else:
            versions, page, claimed = _read(name)
            request._public_lookup = (versions, claimed)
        if page is not None:
            return _answer(request, page)  # inside the middleware: Django's CSRF middleware sets the cookie
        response = view(request, *args, **kwargs)
        if hasattr(response, "render") and callable(response.render):
            response = response.render()
        if response.status_code == 200 and not response.cookies:
            if forms or not request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
                response._public_page = (name, versions, None, forms)
        return response

    return wrapper


def register_public_models(*models) -> None:
    """Called by an app from its AppConfig.ready(): a save or delete of any of `models` (classes or
    "app_label.ModelName") invalidates every public page."""
    for model in models:
        if isinstance(model, str):
            model = apps.get_model(model)
        label = model._meta.label
        if label not in PUBLIC_MODELS:
            PUBLIC_MODELS.append(label)
        post_save.connect(bump_public_cache, sender=model, dispatch_uid=f"public-cache-save-{label}")
        post_delete.connect(bump_public_cache, sender=model, dispatch_uid=f"public-cache-delete-{label}")
