"""Request limits: a body larger than the site accepts answers 413 with a French message, as
JSON under /api/ and as a page elsewhere, before anything reads it (the CSRF check reads form bodies); a NUL
character in a page's form or query string (which PostgreSQL cannot store) answers 400; a value the database
refuses answers 400 rather than 500."""

import logging

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import DataError
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from rest_framework.renderers import JSONRenderer

from .api import MSG_INVALID, error_response
from .parsers import MSG_BODY_TOO_LARGE

logger = logging.getLogger(__name__)

MSG_FORBIDDEN_CHARACTER = "Les données envoyées contiennent un caractère interdit."
MSG_METHOD_NOT_ALLOWED = "Cette adresse ne s'ouvre pas ainsi : passez par les liens et les formulaires du site."
FORM_CONTENT_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def body_limit_for(request) -> int:
    """Form and JSON bodies: DATA_UPLOAD_MAX_MEMORY_SIZE. Multipart bodies carry files: the largest upload the
    site accepts (a video) plus the form fields' allowance."""
    content_type = request.META.get("CONTENT_TYPE", "").lower()
    if content_type.startswith("multipart/"):
        largest_file = max(
            settings.MAX_VIDEO_UPLOAD_BYTES, settings.MAX_IMAGE_UPLOAD_BYTES, settings.MAX_AVATAR_UPLOAD_BYTES
        )
        return largest_file + settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def refused_response(request, message: str, status: int, title: str):
    if request.path.startswith("/api/"):
        response = error_response(message, status)
        # Outside DRF's view machinery: render here.
        response.accepted_renderer = JSONRenderer()
        response.accepted_media_type = "application/json"
        response.renderer_context = {}
        response.render()
        return response
    return render(request, "request_refused.html", {"page_title": title, "message": message}, status=status)


def too_large_response(request):
    return refused_response(request, MSG_BODY_TOO_LARGE, 413, "Requête trop volumineuse")


def _has_nul(querydict) -> bool:
    return any("\x00" in key or any("\x00" in value for value in values) for key, values in querydict.lists())


def _page_input_has_nul(request) -> bool:
    """Query strings everywhere; form bodies on pages only (the API's serializers refuse NUL themselves, and
    its multipart uploads are parsed by DRF)."""
    if _has_nul(request.GET):
        return True
    content_type = request.META.get("CONTENT_TYPE", "").lower()
    if (
        request.method == "POST"
        and not request.path.startswith("/api/")
        and content_type.startswith(FORM_CONTENT_TYPES)
    ):
        try:
            return _has_nul(request.POST)
        except MultiPartParserError:
            return False  # the view's own parsing answers it
    return False


class RequestSizeLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > body_limit_for(request):
            return too_large_response(request)
        if _page_input_has_nul(request):
            return refused_response(request, MSG_FORBIDDEN_CHARACTER, 400, "Données refusées")
        return self.get_response(request)

    def process_exception(self, request, exception):
        # A body without Content-Length (chunked) that turns out too large when a view reads it.
        if isinstance(exception, RequestDataTooBig):
            return too_large_response(request)
        if isinstance(exception, DataError):
            # A value the database cannot store that no form bounded: the visitor's input, not a server fault.
            logger.warning("Database refused a value, answered 400: %s", exception)
            return refused_response(request, MSG_INVALID, 400, "Données refusées")
        return None


class RefusedMethodPageMiddleware:
    """Django's method guards (`require_POST`, `require_http_methods`) answer 405 with an empty body. On a page
    that is a blank screen, and a document without doctype or title: it becomes the site's French page, with the
    guard's Allow header. The API keeps its own JSON answer. Innermost, so the page gets the usual headers (CSP)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 405 or request.path.startswith("/api/"):
            return response
        if response.streaming or response.content:
            return response
        page = refused_response(request, MSG_METHOD_NOT_ALLOWED, 405, "Méthode non autorisée")
        if response.has_header("Allow"):
            page["Allow"] = response["Allow"]
        return page
