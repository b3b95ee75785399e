"""Body size limit (issue 16, item 6): a body larger than the site accepts answers 413 with a French message, as
JSON under /api/ and as a page elsewhere, before anything reads it (the CSRF check reads form bodies)."""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.shortcuts import render

from .api import MSG_BODY_TOO_LARGE, error_response


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


def too_large_response(request):
    if request.path.startswith("/api/"):
        response = error_response(MSG_BODY_TOO_LARGE, 413)
        # Outside DRF's view machinery: render here.
        from rest_framework.renderers import JSONRenderer

        response.accepted_renderer = JSONRenderer()
        response.accepted_media_type = "application/json"
        response.renderer_context = {}
        response.render()
        return response
    return render(
        request,
        "request_refused.html",
        {"page_title": "Requête trop volumineuse", "message": MSG_BODY_TOO_LARGE},
        status=413,
    )


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
        return self.get_response(request)

    def process_exception(self, request, exception):
        # A body without Content-Length (chunked) that turns out too large when a view reads it.
        if isinstance(exception, RequestDataTooBig):
            return too_large_response(request)
        return None
