"""The site's header (templates/includes/header.html) is rendered once per process for each distinct thing it shows
and reused: rendering it at every page cost ~0.1 ms of the ~0.68 ms a logged-in page without queries
took. Every page writes the HTML the plain `{% include %}` writes, with the page's own CSRF token in the logout form."""

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.middleware.csrf import _unmask_cipher_token
from django.template import engines
from django.test import Client, RequestFactory

from accounts.models import Role
from accounts.tests.factories import StaffFactory, UserFactory
from messaging.tests.factories import ContactMessageFactory
from studio.templatetags import shell

pytestmark = pytest.mark.django_db

HEADER = "includes/header.html"
NAV_PATHS = ["/", "/courses/calendar", "/contact", "/evjf-evg", "/room-rental", "/tarifs", "/gallery", "/blog-facebook"]
CACHED = engines["django"].from_string(f'{{% load shell %}}{{% header_part "{HEADER}" %}}')
TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=)"([^"]+)"')
PLAIN = engines["django"].from_string(f'{{% include "{HEADER}" %}}')


@pytest.fixture(autouse=True)
def fresh():
    shell.forget_fixed_parts()
    yield
    shell.forget_fixed_parts()


def _request(path: str, user):
    request = RequestFactory().get(path)
    request.user = user
    request.session = {}
    return request


def _unmasked(html: str) -> str:
    """The HTML with each CSRF token replaced by the secret it masks: Django masks it afresh at each render."""
    return TOKEN.sub(lambda found: f'{found[1]}"{_unmask_cipher_token(found[2])}"', html)


def _both(path: str, user, context: dict | None = None) -> tuple[str, str]:
    """The header through `header_part` and through the plain include, for the same request (one CSRF secret)."""
    request = _request(path, user)
    return _unmasked(CACHED.render(context or {}, request)), _unmasked(PLAIN.render(context or {}, request))


def _users():
    return {
        "anonymous": AnonymousUser(),
        "member": UserFactory(first_name="Emma"),
        "member without a first name": UserFactory(first_name=""),
        "member whose name is markup": UserFactory(first_name='<b>Zoé & "Léa"</b>'),
        "instructor": UserFactory(first_name="Inès", role=Role.INSTRUCTOR),
        "staff": StaffFactory(first_name="Camille"),
    }


def test_each_header_is_the_plain_include():
    users = _users()
    ContactMessageFactory.for_member(users["member"], member_unread=True)  # a badge for the member, one for staff
    for name, user in users.items():
        for path in [*NAV_PATHS, "/my-courses", "/user/messages/3", "/tarifs/"]:
            for _ in range(2):  # rendered, then reused
                cached, plain = _both(path, user)
                assert cached == plain, (name, path)
            if path in NAV_PATHS:
                assert f'href="{path}" aria-current="page"' in cached
            else:
                assert 'aria-current="page"' not in cached


def test_rendered_once_per_thing_shown(monkeypatch):
    renders = []
    real = shell._plain
    monkeypatch.setattr(shell, "_plain", lambda header, context: renders.append(1) or real(header, context))
    member = UserFactory(first_name="Emma")
    for _ in range(3):
        _both("/my-courses", member)
        _both("/user/profile", member)  # neither is in the menu: the same header
    assert len(renders) == 1
    _both("/tarifs", member)  # "Tarifs" is the current page
    assert len(renders) == 2


def test_the_logout_form_has_the_pages_own_token():
    member = UserFactory(first_name="Emma")
    tokens = []
    for _ in range(2):
        request = _request("/my-courses", member)
        html = CACHED.render({}, request)
        (token,) = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        assert _unmask_cipher_token(token) == request.META["CSRF_COOKIE"]  # a masked copy of the request's secret
        assert request.META["CSRF_COOKIE_NEEDS_UPDATE"] is True
        tokens.append(token)
    assert tokens[0] != tokens[1]  # a new mask at each page, not the first page's token again


def test_a_visitors_header_reads_no_token():
    """Without the logout form the token is not asked for, as `{% csrf_token %}` would not be: no CSRF cookie."""
    for _ in range(2):
        request = _request("/", AnonymousUser())
        CACHED.render({}, request)
        assert "CSRF_COOKIE" not in request.META and "CSRF_COOKIE_NEEDS_UPDATE" not in request.META


def test_what_changes_shows_at_the_next_page():
    member = UserFactory(first_name="Emma")
    assert "Bonjour, Emma" in _both("/", member)[0]
    member.first_name = "Emmanuelle"
    assert "Bonjour, Emmanuelle" in _both("/", member)[0]
    assert "data-unread-badge" not in _both("/", member)[0]
    ContactMessageFactory.for_member(member, member_unread=True)
    cached, plain = _both("/", member)
    assert cached == plain and "data-unread-badge>1<" in cached
    member.role = Role.INSTRUCTOR
    cached, plain = _both("/", member)
    assert cached == plain and "/instructor/classes" in cached


def test_the_studios_settings_changed_in_place_show(monkeypatch):
    member = UserFactory(first_name="Emma")
    assert settings.STUDIO["phone"] in _both("/", member)[0]
    monkeypatch.setitem(settings.STUDIO, "phone", "04 00 00 00 01")
    cached, plain = _both("/", member)
    assert cached == plain and "04 00 00 00 01" in cached


def test_a_views_own_values_render_the_plain_include(monkeypatch):
    renders = []
    real = shell._plain
    monkeypatch.setattr(shell, "_plain", lambda header, context: renders.append(1) or real(header, context))
    member, other = UserFactory(first_name="Emma"), UserFactory(first_name="Lucie")
    cached, plain = _both("/", member, {"user": other})
    assert cached == plain and "Bonjour, Lucie" in cached
    cached, plain = _both("/", member, {"STUDIO": {**settings.STUDIO, "name": "Autre studio"}})
    assert cached == plain and "Autre studio" in cached
    assert len(renders) == 2  # never kept


def test_the_site_uses_it(client, monkeypatch):
    member = UserFactory(first_name="Emma")
    client.force_login(member)
    client.get("/my-courses")
    renders = []
    real = shell._plain
    monkeypatch.setattr(shell, "_plain", lambda header, context: renders.append(1) or real(header, context))
    html = client.get("/my-courses").text
    assert renders == [] and html.count('id="site-header"') == 1 and "Bonjour, Emma" in html
    assert Client().get("/tarifs").text.count('id="site-header"') == 1


def test_the_key_covers_every_value_the_header_shows():
    """`header_part` keys the kept HTML on what header.html reads: a new variable in the header must join the key
    (studio/templatetags/shell.py) before it joins this list."""
    source = engines["django"].engine.get_template(HEADER).source
    variables = set(re.findall(r"{{\s*([^}|\s]+)", source)) | set(re.findall(r"{%\s*if\s+([^%]+?)\s*%}", source))
    assert variables == {
        "STUDIO.name",
        "STUDIO.phone",
        "user.first_name",
        "is_studio_staff",
        "user.is_authenticated",
        "user.is_instructor",
        *(f'request.path == "{path}"' for path in NAV_PATHS),
    }
    # The current page is only ever compared this way (the key keeps the path only when it is one of these).
    assert source.count("request.") == len(NAV_PATHS) == len(shell._NAV_PATH.findall(source))
    tags = set(re.findall(r"{%\s*(\w+)", source))
    assert tags == {"load", "static", "if", "else", "endif", "block", "endblock", "unread_badge", "csrf_token"}
