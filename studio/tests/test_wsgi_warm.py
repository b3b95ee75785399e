"""A web worker loads its URLs and views, then freezes what it loaded out of the garbage collector's reach:
the collector's full passes otherwise walked every module, class and function of Django and the apps (~150,000
objects) every few hundred requests, ~0.2 ms a request on average, measured in-process on /my-courses."""

import gc
import importlib
import sys

from django.urls import get_resolver
from django.urls.resolvers import _get_cached_resolver


def test_loading_the_wsgi_application_warms_it_and_freezes_what_it_loaded(monkeypatch):
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "studio.settings.test")
    frozen = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(True))
    sys.modules.pop("studio.wsgi", None)
    _get_cached_resolver.cache_clear()
    module = importlib.import_module("studio.wsgi")
    assert callable(module.application)
    assert frozen == [True]
    assert _get_cached_resolver.cache_info().currsize == 1  # the URLconf was loaded before freezing...
    assert get_resolver()._populated  # ...and its views imported
