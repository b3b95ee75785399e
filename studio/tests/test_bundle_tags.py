"""`{% bundle %}` writes a webpack bundle's tags as render_bundle(..., skip_common_chunks=True) does, worked out once
per process when the loader caches its stats, as in production (working it out cost ~10-20 µs a call, three calls a
page)."""

import pytest
from django.template import engines
from django.test import RequestFactory
from webpack_loader import utils
from webpack_loader.templatetags.webpack_loader import render_bundle

from studio.templatetags import islands

TEMPLATE = "{% load islands %}{% bundle 'shell' 'js' attrs='defer' %}|{% bundle 'shell' 'js' attrs='defer' %}"


@pytest.fixture(autouse=True)
def fresh():
    islands.forget_bundles()
    yield
    islands.forget_bundles()


def test_the_tags_are_render_bundles_and_a_chunk_is_written_once_a_page():
    request = RequestFactory().get("/")
    html = engines["django"].from_string(TEMPLATE).render({}, request)
    context = {"request": RequestFactory().get("/")}
    expected = render_bundle(context, "shell", "js", attrs="defer", skip_common_chunks=True)
    first, second = html.split("|")
    assert first == expected and "<script" in first
    assert second == ""  # already on the page


@pytest.mark.parametrize("cache", [True, False])
def test_worked_out_once_when_the_stats_are_cached(monkeypatch, cache):
    loader = utils.get_loader("DEFAULT")
    monkeypatch.setitem(loader.config, "CACHE", cache)
    calls = []
    real = utils.get_as_url_to_tag_dict
    monkeypatch.setattr(islands, "get_as_url_to_tag_dict", lambda *a, **k: calls.append(a) or real(*a, **k))
    template = engines["django"].from_string(TEMPLATE)
    for _ in range(3):
        template.render({}, RequestFactory().get("/"))
    assert len(calls) == (1 if cache else 6)
