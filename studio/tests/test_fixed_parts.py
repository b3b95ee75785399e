"""The footer and the cookie banner depend on the studio's settings and the year only: each process renders them
once per year and settings, and every page writes the same HTML as the plain include did (rendering them cost
~80 µs a page)."""

import pytest
from django.conf import settings
from django.template import engines
from django.template.loader import render_to_string
from django.test import RequestFactory
from freezegun import freeze_time

from studio.templatetags import shell


@pytest.fixture(autouse=True)
def fresh():
    shell.forget_fixed_parts()
    yield
    shell.forget_fixed_parts()


def _page(source: str) -> str:
    return engines["django"].from_string(source).render({"STUDIO": settings.STUDIO}, RequestFactory().get("/"))


@pytest.mark.parametrize("name", ["includes/footer.html", "includes/cookie_banner.html"])
def test_the_part_is_the_plain_include(name):
    plain = render_to_string(name, {"STUDIO": settings.STUDIO})
    assert _page(f'{{% load shell %}}{{% fixed_part "{name}" %}}') == plain
    assert _page(f'{{% include "{name}" %}}') == plain


def test_rendered_once_per_year(monkeypatch):
    calls = []
    real = shell.render_to_string
    monkeypatch.setattr(shell, "render_to_string", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    source = '{% load shell %}{% fixed_part "includes/footer.html" %}'
    with freeze_time("2026-12-31 12:00:00+01:00"):
        assert "© 2026" in _page(source) and "© 2026" in _page(source)
    with freeze_time("2027-01-01 00:30:00+01:00"):  # Paris has a new year while UTC does not
        assert "© 2027" in _page(source)
    assert calls == ["includes/footer.html", "includes/footer.html"]


@pytest.mark.django_db
def test_the_site_uses_it(client):
    html = client.get("/tarifs").text
    assert html.count('id="site-footer"') == 1 and html.count('id="cookie-banner"') == 1
    assert render_to_string("includes/footer.html", {"STUDIO": settings.STUDIO}) in html
