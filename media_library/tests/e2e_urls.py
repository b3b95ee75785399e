"""The site's routes plus a page showing the home hero and the image slider, for browser tests that must not
depend on how other apps' pages include them."""

from django.http import HttpResponse
from django.template import engines
from django.urls import path

from project.urls import urlpatterns as site_urlpatterns

PAGE = """{% extends "base.html" %}{% load media_tags %}
{% block content %}{% home_hero %}<section class="page"><h2>Slider</h2>{% image_slider %}</section>{% endblock %}"""


def hero_page(request):
    return HttpResponse(engines["django"].from_string(PAGE).render({}, request))


urlpatterns = [path("__media-hero", hero_page), *site_urlpatterns]
