"""The installable site (docs/decisions.md 53): the web app manifest, the service worker served from the site's root
(a worker's scope cannot be wider than the folder it is served from, and the built file sits in /static/dist/), and
the `X-Studio-Account` header by which the worker knows whose bookings it keeps offline.

The header is an opaque hash of the account, never its id: the worker keeps one member's pages and data at a time
and empties them when an answer comes for another account or for nobody (frontend/src/sw/offline.js)."""

from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.crypto import salted_hmac
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

ACCOUNT_HEADER = "X-Studio-Account"
MSG_OFFLINE_PAGE = "Cette page n'a pas pu être chargée : votre téléphone n'a pas de réseau."
MSG_OFFLINE_KEPT = (
    "Le planning et vos cours restent consultables, tels qu'ils étaient à votre dernière visite connectée ; "
    "vous réserverez dès que le réseau revient."
)
SERVICE_WORKER = "dist/sw.js"
THEME_COLOUR = "#2b1033"
BACKGROUND_COLOUR = "#fffdfd"
# The favicon's drawing; the maskable one keeps it within the safe zone on a full plum square.
ICONS = [
    ("icon-192.png", "192x192", "any"),
    ("icon-512.png", "512x512", "any"),
    ("icon-maskable-512.png", "512x512", "maskable"),
]


def account_marker(user) -> str:
    """An opaque, stable label for `user` (empty for a visitor), that changes with the secret key."""
    if not getattr(user, "is_authenticated", False):
        return ""
    return salted_hmac("studio.pwa.account", str(user.pk)).hexdigest()[:20]


class AccountHeaderMiddleware:
    """Stamps a logged-in member's answers with their account marker (after AuthenticationMiddleware)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        marker = account_marker(getattr(request, "user", None))
        if marker:
            response[ACCOUNT_HEADER] = marker
        return response


@require_GET
@cache_control(max_age=3600, public=True)
def manifest(request):
    icons = [
        {"src": static(f"img/icons/{name}"), "sizes": sizes, "type": "image/png", "purpose": purpose}
        for name, sizes, purpose in ICONS
    ]
    data = {
        "id": "/",
        "name": settings.STUDIO["name"],
        "short_name": "Pole Danse",
        "description": "Le planning, vos réservations et vos cours, même hors connexion.",
        "lang": "fr",
        "dir": "ltr",
        "start_url": "/?source=app",
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": icons,
        "shortcuts": [
            {"name": "Planning", "url": "/courses/calendar", "icons": [icons[0]]},
            {"name": "Mes cours", "url": "/my-courses", "icons": [icons[0]]},
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


def _service_worker_path() -> Path | None:
    found = finders.find(SERVICE_WORKER)
    if found:
        return Path(found)
    if staticfiles_storage.exists(SERVICE_WORKER):
        return Path(staticfiles_storage.path(SERVICE_WORKER))
    return None


@require_GET
@cache_control(no_cache=True)
def service_worker(request):
    """The built worker; `no-cache` so that a new deployment's worker is seen at the next visit."""
    path = _service_worker_path()
    if path is None:
        raise Http404
    response = HttpResponse(path.read_bytes(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request):
    """The page the worker shows for a page it has not kept when there is no network (frontend/src/sw/offline.js).
    It names no one: the worker asks for it without cookies, and keeps it for whoever uses the phone next."""
    context = {
        "message": MSG_OFFLINE_PAGE,
        "kept": MSG_OFFLINE_KEPT,
        "theme_colour": THEME_COLOUR,
        "background_colour": BACKGROUND_COLOUR,
    }
    response = render(request, "offline.html", context)
    response["X-Robots-Tag"] = "noindex"
    return response
