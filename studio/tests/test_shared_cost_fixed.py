"""`{% fixed %}...{% endfixed %}` (studio/templatetags/shell.py): the shell's icon and stylesheet links are rendered
once per process and studio settings instead of resolving three static files' addresses at every page (~10 µs
a page); every page writes the same links."""

import pytest
from django.conf import settings
from django.template import engines
from django.templatetags import static as static_tags
from django.test import RequestFactory

from studio.templatetags import shell

LINKS = (
    '<link rel="icon" href="{% static \'img/favicon.svg\' %}" type="image/svg+xml">\n'
    '  <link rel="stylesheet" href="{% static \'css/site.css\' %}">'
)


@pytest.fixture(autouse=True)
def fresh():
    shell.forget_fixed_parts()
    yield
    shell.forget_fixed_parts()


def _render(source: str, context: dict | None = None) -> str:
    return engines["django"].from_string(source).render(context or {}, RequestFactory().get("/"))


def test_the_part_is_rendered_once_and_as_written(monkeypatch):
    plain = _render("{% load static %}" + LINKS)
    template = engines["django"].from_string("{% load static shell %}{% fixed %}" + LINKS + "{% endfixed %}")
    calls = []
    real = static_tags.StaticNode.handle_simple
    monkeypatch.setattr(
        static_tags.StaticNode, "handle_simple", classmethod(lambda cls, path: calls.append(path) or real(path))
    )
    assert [template.render({}, RequestFactory().get("/")) for _ in range(3)] == [plain] * 3
    assert calls == ["img/favicon.svg", "css/site.css"]


def test_it_sees_only_the_studios_settings(monkeypatch):
    source = "{% load shell %}{% fixed %}{{ STUDIO.name }}|{{ page_title }}|{{ request.path }}{% endfixed %}"
    assert _render(source, {"page_title": "Tarifs"}) == f"{settings.STUDIO['name']}||"
    monkeypatch.setitem(settings.STUDIO, "name", "Autre studio")
    assert _render(source) == "Autre studio||"


@pytest.mark.django_db
def test_the_site_uses_it(client):
    html = client.get("/mentions-legales").text
    assert _render("{% load static %}" + LINKS) in html
    assert html.count('<link rel="icon"') == 1
