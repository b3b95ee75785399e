"""The middleware every request passes through does only what changes its answer (studio/middleware_lean.py and
studio/decorators.py): the same headers and request state as Django's and django-cors-headers' own classes."""

import sys

import pytest
from corsheaders.middleware import CorsMiddleware as LibraryCorsMiddleware
from django.contrib import messages
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.middleware import MessageMiddleware as DjangoMessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpResponse
from django.middleware.locale import LocaleMiddleware as DjangoLocaleMiddleware
from django.test import Client, RequestFactory, override_settings
from django.utils import translation

from accounts.models import User
from accounts.tests.factories import StaffFactory, UserFactory
from studio import decorators, middleware_lean

ACCEPT_LANGUAGES = ["", "fr-FR,fr;q=0.9,en;q=0.8", "en-US,en;q=0.9", "de", "*", "xx-yy", "fr-CA", "zz;q=0.1, en"]
LANGUAGE_COOKIES = [None, "fr", "en", "fr-ca", "de"]


def _answer(middleware_class, request, response=None):
    response = response or HttpResponse("x")
    seen = {}

    def view(request):
        seen["language"] = translation.get_language()
        seen["LANGUAGE_CODE"] = request.LANGUAGE_CODE
        return response

    response = middleware_class(view)(request)
    return seen, response.get("Vary"), response.get("Content-Language")


def _requests():
    for accept in ACCEPT_LANGUAGES:
        for cookie in LANGUAGE_COOKIES:
            for path in ["/", "/fr/tarifs", "/en/", "/api/passes"]:
                request = RequestFactory().get(path, HTTP_ACCEPT_LANGUAGE=accept)
                if cookie is not None:
                    request.COOKIES["django_language"] = cookie
                yield request


def test_locale_answers_as_djangos():
    with translation.override("en"):  # whatever the thread had active before
        for request in _requests():
            assert _answer(middleware_lean.LocaleMiddleware, request) == _answer(DjangoLocaleMiddleware, request)
            assert _answer(middleware_lean.LocaleMiddleware, request)[0]["language"] == "fr"


def test_locale_keeps_a_vary_already_set_and_the_views_language():
    request = RequestFactory().get("/", HTTP_ACCEPT_LANGUAGE="en")
    for middleware_class in (middleware_lean.LocaleMiddleware, DjangoLocaleMiddleware):
        response = HttpResponse("x", headers={"Vary": "Cookie", "Content-Language": "br"})
        assert _answer(middleware_class, request, response)[1:] == ("Cookie, Accept-Language", "br")


def test_locale_does_not_work_the_language_out_per_request(monkeypatch):
    calls = []
    real = translation.get_language_from_request
    monkeypatch.setattr(translation, "get_language_from_request", lambda *a, **k: calls.append(1) or real(*a, **k))
    response = Client().get("/mentions-legales", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and response["Content-Language"] == "fr"
    assert "Accept-Language" in response["Vary"]
    assert calls == []


@override_settings(LANGUAGES=[("fr", "Français"), ("en", "English")])
def test_locale_with_two_languages_is_djangos():
    assert middleware_lean.only_language() is None
    for request in _requests():
        assert _answer(middleware_lean.LocaleMiddleware, request) == _answer(DjangoLocaleMiddleware, request)
    english = _answer(middleware_lean.LocaleMiddleware, RequestFactory().get("/", HTTP_ACCEPT_LANGUAGE="en"))
    assert english[0]["language"] == "en"


def test_locale_settings_read_again_when_they_change():
    assert middleware_lean.only_language() == "fr"
    with override_settings(LANGUAGES=[("en", "English")], LANGUAGE_CODE="en"):
        assert middleware_lean.only_language() == "en"
    with override_settings(LANGUAGE_CODE="en"):  # French only, but the fallback is English: Django decides
        assert middleware_lean.only_language() is None
    assert middleware_lean.only_language() == "fr"


def _cors(middleware_class, **headers):
    request = RequestFactory().get("/api/passes", **headers)
    response = middleware_class(lambda request: HttpResponse("x"))(request)
    return request, {name.lower(): value for name, value in response.items()}


@pytest.mark.parametrize("origins", [[], ["https://app.example.fr"]])
@pytest.mark.parametrize("origin", [None, "", "https://app.example.fr", "https://other.example.fr", "null"])
def test_cors_answers_as_the_librarys(settings, origins, origin):
    settings.CORS_ALLOWED_ORIGINS = origins
    headers = {} if origin is None else {"HTTP_ORIGIN": origin}
    assert _cors(middleware_lean.CorsMiddleware, **headers)[1] == _cors(LibraryCorsMiddleware, **headers)[1]


def test_cors_reads_no_header_mapping_without_an_origin(settings):
    settings.CORS_ALLOWED_ORIGINS = ["https://app.example.fr"]
    request, headers = _cors(middleware_lean.CorsMiddleware)
    assert headers["vary"] == "origin" and "headers" not in request.__dict__
    request, headers = _cors(middleware_lean.CorsMiddleware, HTTP_ORIGIN="https://app.example.fr")
    assert headers["access-control-allow-origin"] == "https://app.example.fr"


def _with_messages(middleware_class, view):
    request = RequestFactory().get("/")
    SessionMiddleware(lambda request: None).process_request(request)
    response = middleware_class(view)(request)
    return request, response


def test_messages_storage_made_only_when_used(monkeypatch):
    made = []
    real = middleware_lean.default_storage
    monkeypatch.setattr(middleware_lean, "default_storage", lambda request: made.append(1) or real(request))
    request, response = _with_messages(middleware_lean.MessageMiddleware, lambda request: HttpResponse("x"))
    assert made == [] and not response.cookies and not request.session.modified

    def adds(request):
        messages.success(request, "Enregistré.")
        return HttpResponse("x")

    for middleware_class in (middleware_lean.MessageMiddleware, DjangoMessageMiddleware):
        request, response = _with_messages(middleware_class, adds)
        assert "messages" in response.cookies  # stored for the next page, as Django does
    assert made == [1]


@pytest.mark.django_db
def test_a_message_reaches_the_next_page():
    client = Client()
    client.force_login(UserFactory())
    response = client.post("/logout", follow=True)
    assert 'class="django-messages"' in response.text
    assert 'class="django-messages"' not in client.get("/tarifs").text  # shown once


@pytest.mark.django_db
def test_a_logged_in_page_has_the_user_itself(monkeypatch):
    seen = []
    real = decorators._logged_in
    monkeypatch.setattr(decorators, "_logged_in", lambda request: (real(request), seen.append(request.user))[0])
    for factory, path in [(UserFactory, "/my-courses"), (StaffFactory, "/admin/dashboard")]:
        client = Client()
        client.force_login(factory())
        assert client.get(path).status_code == 200
    assert [type(user) for user in seen] == [User, User]
    assert Client().get("/my-courses").status_code == 302


def test_a_visitor_stays_anonymous():
    request = RequestFactory().get("/my-courses")
    request.user = AnonymousUser()
    assert decorators._logged_in(request) is False and isinstance(request.user, AnonymousUser)


@pytest.mark.django_db
def test_the_site_uses_them(monkeypatch):
    made = []
    real = middleware_lean.default_storage
    for module in (middleware_lean, sys.modules[DjangoMessageMiddleware.__module__]):
        monkeypatch.setattr(module, "default_storage", lambda request: made.append(1) or real(request))
    client = Client()
    client.force_login(StaffFactory())
    response = client.get("/api/passes?page=1")
    assert response.status_code == 200 and made == []  # the API never reads messages
    response = client.get("/admin/dashboard")
    assert made == [1]  # the page's shell does
    assert "headers" not in response.wsgi_request.__dict__  # no Origin: the CORS middleware did not build them
    assert response["Vary"] == "Cookie, Accept-Language, origin"
