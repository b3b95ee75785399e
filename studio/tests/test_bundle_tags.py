"""`{% bundle %}` writes a webpack bundle's tags as webpack_loader's render_bundle does, each chunk once a page."""

from django.template import engines
from django.test import RequestFactory
from webpack_loader.templatetags.webpack_loader import render_bundle

TEMPLATE = "{% load islands %}{% bundle 'shell' 'js' attrs='defer' %}|{% bundle 'shell' 'js' attrs='defer' %}"


def test_the_tags_are_render_bundles_and_a_chunk_is_written_once_a_page():
    request = RequestFactory().get("/")
    html = engines["django"].from_string(TEMPLATE).render({}, request)
    context = {"request": RequestFactory().get("/")}
    expected = render_bundle(context, "shell", "js", attrs="defer", skip_common_chunks=True)
    first, second = html.split("|")
    assert first == expected and "<script" in first
    assert second == ""  # already on the page
