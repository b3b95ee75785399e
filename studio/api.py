"""Shared API plumbing: French error bodies, never a stack trace."""

import logging

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

logger = logging.getLogger(__name__)

MSG_NOT_AUTHENTICATED = "Vous devez être connecté."
MSG_FORBIDDEN = "Vous n'avez pas accès à cette ressource."
MSG_NOT_FOUND = "Ressource introuvable."
MSG_INVALID = "Données invalides."
MSG_SERVER_ERROR = "Erreur serveur. Réessayez plus tard."
MSG_CONFLICT = "Ces données entrent en conflit avec des données existantes ou ne respectent pas les règles du studio."


def error_response(message: str, status_code: int = status.HTTP_400_BAD_REQUEST, **extra) -> Response:
    """The error shape islands read: `error` (and `message`, as SPEC.md's client reads either)."""
    return Response({"error": message, "message": message, **extra}, status=status_code)


def _first_message(detail):
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    if isinstance(detail, dict) and detail:
        return _first_message(next(iter(detail.values())))
    return str(detail)


def exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(exc.message_dict if hasattr(exc, "message_dict") else exc.messages)
    if isinstance(exc, Http404):
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
    elif isinstance(exc, exceptions.PermissionDenied):
        message = MSG_FORBIDDEN
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
