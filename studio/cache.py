"""Whole-page caching for anonymous visitors, invalidated when staff change public data.

Public pages are cached under a version number; any save or delete of a model listed in
PUBLIC_MODELS bumps the version, so the next visitor sees fresh content.
"""

import functools

from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save

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


def public_cache_version() -> int:
    version = cache.get(VERSION_KEY)
    if version is None:
        cache.add(VERSION_KEY, 1, timeout=None)
        version = cache.get(VERSION_KEY, 1)
    return version


def bump_public_cache(**_kwargs) -> None:
    try:
        cache.incr(VERSION_KEY)
    except ValueError:
        cache.set(VERSION_KEY, 2, timeout=None)


def public_key(name: str) -> str:
    return f"public:{public_cache_version()}:{name}"


def cached_public(name: str, builder, timeout: int | None = None):
    """Cache `builder()` under `name` until public data changes."""
    key = public_key(name)
    value = cache.get(key)
    if value is None:
        value = builder()
        cache.set(key, value, timeout or settings.PUBLIC_CACHE_SECONDS)
    return value


def cache_public_page(view):
    """Serve a cached copy to anonymous GETs; skip responses that set cookies (CSRF, session)."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        cacheable = (
            request.method in ("GET", "HEAD")
            and not request.user.is_authenticated
            and not request.COOKIES.get(settings.SESSION_COOKIE_NAME)
            # A pending flash message (e.g. after logout) lives in the messages cookie: render it, don't serve a copy.
            and not request.COOKIES.get(getattr(settings, "MESSAGE_COOKIE_NAME", "messages"))
        )
        if not cacheable:
            return view(request, *args, **kwargs)
        key = public_key(f"page:{request.get_full_path()}")
        response = cache.get(key)
        if response is not None:
            return response
        response = view(request, *args, **kwargs)
        if hasattr(response, "render") and callable(response.render):
            response = response.render()
        if response.status_code == 200 and not response.cookies and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
            cache.set(key, response, settings.PUBLIC_CACHE_SECONDS)
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
