"""Public pages with a form (login, registration, forgotten password, contact, room rental) are served from the page
cache to visitors like every other public page, and each visitor still gets a CSRF token of their own that the form's
POST accepts: the stored copy holds no token, only the place of one."""

import re

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client

from studio.cache import TOKEN_HOLE

pytestmark = pytest.mark.django_db

FORM_PAGES = ["/login", "/register", "/forgot-password", "/contact", "/room-rental"]
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _visit(path, cookie=None):
    client = Client(enforce_csrf_checks=True)
    if cookie:
        client.cookies[settings.CSRF_COOKIE_NAME] = cookie
    answer = client.get(path)
    assert answer.status_code == 200
    return client, answer


@pytest.mark.parametrize("path", FORM_PAGES)
def test_a_form_page_is_served_from_the_cache_with_the_visitors_own_token(path):
    _, first = _visit(path)
    assert first.templates  # the first visitor's page is rendered, and stored
    client, answer = _visit(path)
    assert answer.templates == []  # the next one is the stored copy
    html = answer.content.decode()
    tokens = TOKEN.findall(html)
    assert tokens and TOKEN_HOLE.decode() not in html
    cookie = answer.cookies[settings.CSRF_COOKIE_NAME].value
    assert cookie
    assert "Cookie" in answer.headers["Vary"]
    # Another visitor gets another secret.
    _, other = _visit(path)
    assert other.cookies[settings.CSRF_COOKIE_NAME].value != cookie


def test_the_stored_copy_holds_no_token():
    _, first = _visit("/login")
    token = TOKEN.findall(first.content.decode())[0]
    _version, (status, content, _headers, forms), _fresh_until = cache.get("public:entry:page:/login")
    assert (status, forms) == (200, True)
    assert token.encode() not in content and settings.CSRF_COOKIE_NAME.encode() not in content.replace(
        b"csrfmiddlewaretoken", b""
    )
    assert content.count(TOKEN_HOLE) == len(TOKEN.findall(first.content.decode()))


def test_the_token_of_a_cached_login_page_is_accepted_by_its_post(member):
    _visit("/login")
    client, answer = _visit("/login")
    token = TOKEN.findall(answer.content.decode())[0]
    posted = client.post("/login", {"csrfmiddlewaretoken": token, "email": member.email, "password": "mauvais"})
    assert posted.status_code != 403  # the CSRF check passed: the login itself answers (wrong password)
    refused = Client(enforce_csrf_checks=True).post("/login", {"csrfmiddlewaretoken": token, "email": member.email})
    assert refused.status_code == 403  # without the visitor's cookie, the same token is refused


def test_a_returning_visitor_keeps_their_cookie_and_gets_a_token_for_it():
    first, answer = _visit("/contact")
    cookie = answer.cookies[settings.CSRF_COOKIE_NAME].value
    client, again = _visit("/contact", cookie=cookie)
    assert again.templates == []
    assert again.cookies[settings.CSRF_COOKIE_NAME].value == cookie  # the same secret, its expiry renewed
    token = TOKEN.findall(again.content.decode())[0]
    posted = client.post("/contact", {"csrfmiddlewaretoken": token})
    assert posted.status_code == 400  # past the CSRF check: the empty form is refused in French


def test_the_rental_form_is_stored_once_per_page_its_cancel_link_leads_back_to():
    def visit(referer):
        answer = Client().get("/rental-form", HTTP_REFERER=referer)
        assert answer.status_code == 200
        return answer

    assert visit("http://testserver/tarifs").templates
    from_prices = visit("http://testserver/tarifs")
    assert from_prices.templates == []  # the stored copy
    assert 'href="http://testserver/tarifs" data-history-back' in from_prices.content.decode()
    from_elsewhere = visit("https://evil.example/")
    assert 'href="/room-rental" data-history-back' in from_elsewhere.content.decode()
    assert 'href="/room-rental" data-history-back' in visit("https://evil.example/").content.decode()
    assert 'href="http://testserver/tarifs" data-history-back' in visit("http://testserver/tarifs").content.decode()
