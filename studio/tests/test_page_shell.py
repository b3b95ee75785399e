"""The page shell (templates/base.html and its includes): the header, the footer and the cookie banner on every page,
the current page marked in the menu, the member's menu with its logout form, and the footer's year in Paris."""

import re

import pytest
from django.conf import settings
from django.middleware.csrf import _unmask_cipher_token
from freezegun import freeze_time

from accounts.models import Role
from accounts.tests.factories import UserFactory
from messaging.tests.factories import ContactMessageFactory

pytestmark = pytest.mark.django_db

NAV_PATHS = ["/", "/courses/calendar", "/contact", "/evjf-evg", "/room-rental", "/tarifs", "/gallery", "/blog-facebook"]


def _header(html: str) -> str:
    return re.search(r'<header class="site-header".*?</header>', html, re.S)[0]


@pytest.mark.parametrize("path", ["/tarifs", "/mentions-legales", "/courses/calendar"])
def test_every_page_has_one_header_footer_and_cookie_banner(client, path):
    html = client.get(path).text
    for part in ('id="site-header"', 'id="site-footer"', 'id="cookie-banner"', '<link rel="icon"'):
        assert html.count(part) == 1, part
    assert settings.STUDIO["phone"] in _header(html)
    assert f"{settings.STUDIO['name']}. Tous droits réservés." in html


def test_the_menu_marks_the_current_page_only(client):
    for path in NAV_PATHS:
        response = client.get(path)
        if response.status_code != 200:
            continue
        header = _header(response.text)
        assert re.findall(r'href="([^"]+)" aria-current="page"', header) == [path]
    assert 'aria-current="page"' not in _header(client.get("/mentions-legales").text)


@pytest.mark.parametrize(
    ("moment", "year"),
    [("2026-12-31 23:30:00+01:00", 2026), ("2027-01-01 00:30:00+01:00", 2027)],  # Paris's new year, not UTC's
)
def test_the_footer_shows_this_year_in_paris(client, moment, year):
    with freeze_time(moment):
        client.force_login(UserFactory())
        html = client.get("/my-courses").text
    assert f"© {year} {settings.STUDIO['name']}" in html


def test_a_members_menu_greets_them_with_their_unread_count_and_the_pages_csrf_token(client):
    member = UserFactory(first_name="Emma", role=Role.INSTRUCTOR)
    ContactMessageFactory.for_member(member, member_unread=True)
    client.force_login(member)
    tokens = []
    for _ in range(2):
        response = client.get("/my-courses")
        header = _header(response.text)
        assert "Bonjour, Emma" in header and "data-unread-badge>1<" in header and "/instructor/classes" in header
        (token,) = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', header)
        assert _unmask_cipher_token(token) == client.cookies[settings.CSRF_COOKIE_NAME].value
        tokens.append(token)
    assert tokens[0] != tokens[1]  # masked afresh at each page


def test_a_visitors_page_sets_no_csrf_cookie(client):
    """The header's logout form is the only CSRF token of a public page; a visitor's header has none."""
    response = client.get("/tarifs")
    assert "Se connecter" in _header(response.text)
    assert settings.CSRF_COOKIE_NAME not in response.cookies
