"""Inclusion tags other apps' pages use to show the media library's pictures.

`{% home_hero %}` renders the home page's background video and slideshow; `{% image_slider %}` the slider images.
"""

from django import template

register = template.Library()


@register.inclusion_tag("media_library/_home_hero.html")
def home_hero():
    return {}


@register.inclusion_tag("media_library/_image_slider.html")
def image_slider():
    return {}
