"""Django's and django-cors-headers' middleware, doing less where the answer is already known (issue 18).

Every request, logged-in or not, page or API, passes through these; each class gives the same response headers
(Vary, Content-Language, CORS) and the same request state as the class it replaces, and falls back to it outside
the case it shortens:

- `LocaleMiddleware`: the site speaks one language (SPEC: French only; settings.LANGUAGES has one entry) and has no
  language prefix in its addresses, so every request gets that language whatever its cookie or Accept-Language say;
  Django still works it out from both at each request and each response (~10 µs).
- `CorsMiddleware`: a request without an Origin header gets only `Vary: origin`; the library builds the request's
  whole `request.headers` mapping to find that out.
- `MessageMiddleware`: the message storage (a cookie signer and the session's) is made when a view or template first
  uses it, not at every request (the API never does); one never made has nothing to save.
"""

from corsheaders.middleware import CorsMiddleware as LibraryCorsMiddleware
from django.conf import settings
from django.conf.urls.i18n import is_language_prefix_patterns_used
from django.contrib.messages.middleware import MessageMiddleware as DjangoMessageMiddleware
from django.contrib.messages.storage import default_storage
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.middleware.locale import LocaleMiddleware as DjangoLocaleMiddleware
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.functional import SimpleLazyObject, empty

_NOT_KNOWN = object()
_only_language: list = [_NOT_KNOWN]  # the language every request gets, or None when it depends on the request


@receiver(setting_changed)
def _settings_changed(setting, **kwargs) -> None:
    if setting in {"LANGUAGES", "LANGUAGE_CODE", "ROOT_URLCONF"}:
        _only_language[0] = _NOT_KNOWN


def only_language() -> str | None:
    """The language `get_language_from_request` returns for every request, if the settings leave it no choice:
    one language in LANGUAGES, no i18n_patterns, and LANGUAGE_CODE's own fallback being that language (a cookie or
    an Accept-Language entry can only name it, or nothing, which falls back to LANGUAGE_CODE)."""
    known = _only_language[0]
    if known is _NOT_KNOWN:
        known = None
        languages = [code for code, _name in settings.LANGUAGES]
        if len(languages) == 1 and not is_language_prefix_patterns_used(settings.ROOT_URLCONF)[0]:
            try:
                fallback = translation.get_supported_language_variant(settings.LANGUAGE_CODE)
            except LookupError:
                fallback = settings.LANGUAGE_CODE
            if fallback == languages[0]:
                known = fallback
        _only_language[0] = known
    return known


class LocaleMiddleware(DjangoLocaleMiddleware):
    def process_request(self, request):
        language = only_language()
        if language is None or getattr(request, "urlconf", None) is not None:
            request._studio_locale_full = True
            return super().process_request(request)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        return None

    def process_response(self, request, response):
        if getattr(request, "_studio_locale_full", False) or only_language() is None:
            return super().process_response(request, response)
        # Django's, without i18n_patterns: no redirect to a prefixed address, Vary and Content-Language.
        patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", translation.get_language())
        return response


class CorsMiddleware(LibraryCorsMiddleware):
    def add_response_headers(self, request, response):
        if request.META.get("HTTP_ORIGIN"):
            return super().add_response_headers(request, response)
        # The library's, for a request without an Origin: `Vary: origin` where CORS applies, nothing else.
        enabled = getattr(request, "_cors_enabled", None)
        if enabled is None:
            enabled = self.is_enabled(request)
        if enabled:
            patch_vary_headers(response, ("origin",))
        return response


class MessageMiddleware(DjangoMessageMiddleware):
    def process_request(self, request):
        request._messages = SimpleLazyObject(lambda: default_storage(request))

    def process_response(self, request, response):
        storage = getattr(request, "_messages", None)
        if isinstance(storage, SimpleLazyObject) and storage._wrapped is empty:
            return response  # never made: nothing read, nothing added
        return super().process_response(request, response)
