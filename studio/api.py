"""Shared API plumbing: French error bodies, never a stack trace; the JSON parser's limits; the CSRF check for the
public writes that open or close a browser session."""

import logging

from django.core.exceptions import PermissionDenied, RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.authentication import CSRFCheck
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import ApplicationError

logger = logging.getLogger(__name__)

MSG_NOT_AUTHENTICATED = "Vous devez être connecté."
MSG_FORBIDDEN = "Vous n'avez pas accès à cette ressource."
MSG_NOT_FOUND = "Ressource introuvable."
MSG_INVALID = "Données invalides."
MSG_SERVER_ERROR = "Erreur serveur. Réessayez plus tard."
MSG_UNSUPPORTED_MEDIA_TYPE = "Format de données non pris en charge : l'API lit du JSON (et des fichiers en multipart)."
MSG_CONFLICT = "Ces données entrent en conflit avec des données existantes ou ne respectent pas les règles du studio."
# Request limits: the messages live with the parser, which DRF's settings import before this module.
from .parsers import (  # noqa: E402
    MSG_BODY_TOO_LARGE,
    MSG_CSRF_FAILED,
    MSG_RATE_LIMITED,
    MSG_TOO_MANY_FIELDS,
)


def error_response(message: str, status_code: int = status.HTTP_400_BAD_REQUEST, **extra) -> Response:
    """The error shape islands read: `error` (and `message`: clients read either)."""
    return Response({"error": message, "message": message, **extra}, status=status_code)


def _first_message(detail):
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    if isinstance(detail, dict) and detail:
        return _first_message(next(iter(detail.values())))
    return str(detail)


def exception_handler(exc, context):
    if isinstance(exc, ApplicationError):
        # Every domain's refusal: the view never catches it; its status and body come from the error.
        response = Response(exc.body(), status=exc.status)
        if exc.retry_after:
            response["Retry-After"] = str(max(int(exc.retry_after), 1))
        return response
    if isinstance(exc, RequestDataTooBig):
        return error_response(MSG_BODY_TOO_LARGE, status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        return error_response(MSG_TOO_MANY_FIELDS, status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DataError):
        # A value the database cannot store (too long, out of range) that no serializer bounded: a 400, not a 500.
        logger.warning("Database refused a value, answered 400: %s", exc)
        return error_response(MSG_INVALID, status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(exc.message_dict if hasattr(exc, "message_dict") else exc.messages)
    if isinstance(exc, Http404 | OverflowError):
        # OverflowError: an id beyond the database's integers (SQLite raises it) names nothing that exists.
        return error_response(MSG_NOT_FOUND, status.HTTP_404_NOT_FOUND)
    if isinstance(exc, PermissionDenied):
        return error_response(MSG_FORBIDDEN, status.HTTP_403_FORBIDDEN)
    if isinstance(exc, IntegrityError):
        # A database constraint caught what a service did not: refuse the request, never answer 500.
        logger.warning("Constraint violation answered 400: %s", exc)
        return error_response(MSG_CONFLICT, status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is None:
        logger.exception("Unhandled API error", exc_info=exc)
        return error_response(MSG_SERVER_ERROR, status.HTTP_500_INTERNAL_SERVER_ERROR)
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        message = MSG_NOT_AUTHENTICATED
    elif isinstance(exc, CsrfFailed):
        message = MSG_CSRF_FAILED
    elif isinstance(exc, exceptions.PermissionDenied):
        message = MSG_FORBIDDEN
    elif isinstance(exc, exceptions.UnsupportedMediaType):
        message = MSG_UNSUPPORTED_MEDIA_TYPE
    elif isinstance(exc, exceptions.Throttled):
        message = MSG_RATE_LIMITED
    elif isinstance(exc, exceptions.ValidationError):
        message = _first_message(exc.detail)
        body = {"error": message, "message": message}
        if isinstance(exc.detail, dict):
            body["errors"] = exc.detail
        response.data = body
        return response
    else:
        message = _first_message(getattr(exc, "detail", MSG_INVALID))
    response.data = {"error": message, "message": message}
    return response


# --- Request limits -------------------------------------------------------------------------------------------


# --- CSRF on the public writes -----------------------------------------------------------------------------


class CsrfFailed(exceptions.PermissionDenied):
    default_detail = MSG_CSRF_FAILED


def _is_cookieless_json_call(request) -> bool:
    """An API client (bearer tokens, no cookies) posting JSON. A browser on another site cannot send this: a
    cross-site JSON request needs a CORS preflight the server refuses, and a form can only send form bodies."""
    content_type = request.META.get("CONTENT_TYPE", "").split(";")[0].strip().lower()
    return not request.COOKIES and content_type == "application/json"


class CsrfForBrowsers(AllowAny):
    """Open to anyone, with Django's CSRF check, for views without session authentication (login, logout, the
    public forms): every request that carries cookies or a form body needs the token, as every session write does
    (docs/decisions.md 6)."""

    def has_permission(self, request, view):
        if _is_cookieless_json_call(request._request):
            return True
        # As DRF's SessionAuthentication does: the DRF request, so that a form body is parsed once.
        check = CSRFCheck(lambda _request: None)
        check.process_request(request)  # reads the CSRF cookie
        reason = check.process_view(request, None, (), {})
        if reason:
            raise CsrfFailed()
        return True
