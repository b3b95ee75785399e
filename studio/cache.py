"""Whole-page caching for anonymous visitors, invalidated when staff change public data.

Public pages are cached with the version number they were built under; any save or delete of a model listed in
PUBLIC_MODELS bumps the version, so the next visitor sees fresh content. The version lives in the shared cache
(Redis in production), so a change made through one worker is seen by every worker's next request.

A hit is one cache round trip (issue 18): the version and the entry are read together (`get_many`, one MGET on
Redis), and the entry is used only if it was built under the current version. Pages are stored as their bytes and
headers rather than a pickled response.
"""

import functools
import time

from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.http import HttpResponse

VERSION_KEY = "public:version"

# app_label.ModelName whose changes show on public pages. Apps may append to this list.
PUBLIC_MODELS = [
    "courses.Course",
    "courses.CourseSession",
    "courses.Tariff",
    "courses.Testimonial",
    "courses.Instructor",
    "bookings.Reservation",
    "media_library.Media",
    "media_library.SliderImage",
    "media_library.SlideshowImage",
]


def _new_version() -> int:
    # Not 1: if the version key is ever evicted, a fresh start must not match entries built under an old version.
    return time.time_ns() // 1000


def public_cache_version() -> int:
    version = cache.get(VERSION_KEY)
    if version is None:
        cache.add(VERSION_KEY, _new_version(), timeout=None)
        version = cache.get(VERSION_KEY)
    return version


def bump_public_cache(**_kwargs) -> None:
    try:
        cache.incr(VERSION_KEY)
    except ValueError:
        cache.add(VERSION_KEY, _new_version(), timeout=None)


def _entry_key(name: str) -> str:
    return f"public:entry:{name}"


def _read(name: str):
    """(current version, the entry's value or None): one round trip to the cache."""
    found = cache.get_many([VERSION_KEY, _entry_key(name)])
    version = found.get(VERSION_KEY)
    if version is None:
        return public_cache_version(), None
    entry = found.get(_entry_key(name))
    if entry is not None and entry[0] == version:
        return version, entry[1]
    return version, None


def _write(name: str, version: int, value, timeout: int | None) -> None:
    cache.set(_entry_key(name), (version, value), timeout or settings.PUBLIC_CACHE_SECONDS)


def cached_public(name: str, builder, timeout: int | None = None):
    """Cache `builder()` under `name` until public data changes."""
    version, value = _read(name)
    if value is None:
        value = builder()
        _write(name, version, value, timeout)
    return value


# Paths whose views are decorated with cache_public_page, learnt from their answers: the middleware looks only
# these up, so other requests cost no cache round trip.
_PUBLIC_PATHS: set[str] = set()


def _anonymous_get(request) -> bool:
    return (
        request.method in ("GET", "HEAD")
        and not request.COOKIES.get(settings.SESSION_COOKIE_NAME)
        # A pending flash message (e.g. after logout) lives in the messages cookie: render it, don't serve a copy.
        and not request.COOKIES.get(getattr(settings, "MESSAGE_COOKIE_NAME", "messages"))
        and "HTTP_AUTHORIZATION" not in request.META
    )


def _page_name(request) -> str:
    return f"page:{request.get_full_path()}"


class PublicPageCacheMiddleware:
    """Answer anonymous visitors' cached public pages right after whitenoise, before sessions, CSRF, authentication
    and the view; store each public page with the headers it has after every middleware (frame and content security
    policies included), so that a hit answers exactly what the first visitor got. Pages are marked for storage by
    `cache_public_page`; the version check is the same as every other public entry's."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path in _PUBLIC_PATHS and _anonymous_get(request):
            request.get_host()  # the host check CommonMiddleware would do: a bad Host header still answers 400
            _version, page = _read(_page_name(request))
            if page is not None:
                status, content, headers = page
                return HttpResponse(content, status=status, headers=headers)
        response = self.get_response(request)
        marked = getattr(response, "_public_page", None)
        if marked is not None and response.status_code == 200 and not response.cookies:
            name, version, timeout = marked
            _write(name, version, (response.status_code, response.content, list(response.items())), timeout)
        return response


def mark_public_answer(request, response, *, version: int, timeout: int | None = None):
    """Let PublicPageCacheMiddleware keep this answer for visitors (an API's public GET), under `version`: the
    public version read *before* the answer's data was, so that a change made meanwhile is never hidden."""
    if _anonymous_get(request) and response.status_code == 200 and not response.cookies:
        _PUBLIC_PATHS.add(request.path)
        response._public_page = (_page_name(request), version, timeout)
    return response


def cache_public_page(view):
    """Serve a cached copy to anonymous GETs; skip responses that set cookies (CSRF, session). The copy is stored by
    PublicPageCacheMiddleware once every middleware has answered."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if not (_anonymous_get(request) and not request.user.is_authenticated):
            return view(request, *args, **kwargs)
        _PUBLIC_PATHS.add(request.path)  # from now on this worker's middleware answers hits on this path
        name = _page_name(request)
        version, page = _read(name)
        if page is not None:
            status, content, headers = page
            return HttpResponse(content, status=status, headers=headers)
        response = view(request, *args, **kwargs)
        if hasattr(response, "render") and callable(response.render):
            response = response.render()
        if response.status_code == 200 and not response.cookies and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
            response._public_page = (name, version, None)
        return response

    return wrapper


def connect_invalidation():
    for label in PUBLIC_MODELS:
        try:
            model = apps.get_model(label)
        except LookupError:
            continue  # the app has not defined that model yet
        post_save.connect(bump_public_cache, sender=model, dispatch_uid=f"public-cache-save-{label}")
        post_delete.connect(bump_public_cache, sender=model, dispatch_uid=f"public-cache-delete-{label}")
