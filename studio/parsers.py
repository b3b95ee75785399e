"""The API's JSON parser with limits, and the messages of the request limits.

Kept apart from studio.api: DRF imports the parser classes named in its settings while `rest_framework.views`
loads, so this module imports nothing of DRF's views."""

import json
import math
from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework import exceptions, parsers

MSG_BODY_TOO_LARGE = "La requête est trop volumineuse. Réduisez la taille des données envoyées."
MSG_JSON_INVALID = "Les données envoyées ne sont pas un JSON valide."
MSG_JSON_TOO_DEEP = "Les données envoyées sont trop imbriquées."
MSG_TOO_MANY_FIELDS = "Le formulaire envoyé contient trop de champs."
MSG_TEXT_TOO_LONG = "Ce texte est trop long : {max_length} caractères au plus."
MSG_RATE_LIMITED = "Trop de demandes depuis votre connexion. Merci de réessayer dans quelques minutes."
MSG_CSRF_FAILED = "Requête refusée : le jeton de sécurité manque ou a expiré. Rechargez la page et réessayez."

# Deeper than any payload of this API; a JSON document nested 100,000 deep must not reach the recursion limit.
JSON_MAX_DEPTH = 32
# No amount of this studio comes near: a bound keeps quantize() and the DECIMAL columns away from overflow.
MAX_AMOUNT = Decimal("1000000")


def amount_is_sane(value: Decimal) -> bool:
    """A finite, positive amount below MAX_AMOUNT: not Infinity, NaN, sNaN, 1e400 or 1e-400."""
    try:
        return value.is_finite() and Decimal("0.01") <= value < MAX_AMOUNT
    except InvalidOperation:  # comparing a signalling NaN
        return False


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400 parses to inf
        raise ValueError(text)
    return value


def _refuse_constant(name: str):
    raise ValueError(name)  # NaN, Infinity, -Infinity are not JSON


def _depth_exceeds(document, limit: int) -> bool:
    """Iterative, so that checking a deep document cannot itself hit the recursion limit."""
    stack = [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


class BoundedJSONParser(parsers.JSONParser):
    """DRF's JSON parser with limits: standard JSON only (no NaN/Infinity, no number that overflows to
    infinity), a bounded nesting depth, and French messages. The body size is bounded before this
    (studio.middleware.RequestSizeLimitMiddleware)."""

    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        if stream is None:
            raise exceptions.ParseError(MSG_JSON_INVALID)
        raw = stream.read(settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
        if len(raw) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:  # a chunked body without Content-Length
            raise RequestDataTooBig(MSG_BODY_TOO_LARGE)
        try:
            document = json.loads(raw.decode(encoding), parse_float=_finite_float, parse_constant=_refuse_constant)
        except RecursionError:
            raise exceptions.ParseError(MSG_JSON_TOO_DEEP) from None
        except (ValueError, UnicodeDecodeError):
            raise exceptions.ParseError(MSG_JSON_INVALID) from None
        if _depth_exceeds(document, JSON_MAX_DEPTH):
            raise exceptions.ParseError(MSG_JSON_TOO_DEEP)
        return document


# What an API view may read: JSON everywhere; multipart only where a file is uploaded. No form-encoded
# bodies: the islands never send them, they cannot say null, and a cross-site HTML form can only send them.
JSON_ONLY = [BoundedJSONParser]
JSON_OR_MULTIPART = [BoundedJSONParser, parsers.MultiPartParser]
