"""Inclusion tags other apps' pages use to show the media library's pictures.

`{% home_hero %}` renders the home page's background video and slideshow; `{% image_slider %}` the slider images.
Both read cached selectors, so a page including them adds at most one query per list (none when warm).
"""

from django import template

from ..selectors import home_background_video, slider_image_list, slideshow_image_list
from ..views import MSG_IMAGE_NOT_FOUND

register = template.Library()

# The home slider's timings: a slide every 3 s, a 0.5 s transition.
SLIDESHOW_INTERVAL_MS = 3000
SLIDESHOW_TRANSITION_MS = 500


def _timings(context) -> dict:
    return {
        "request": context.get("request"),
        "interval_ms": SLIDESHOW_INTERVAL_MS,
        "transition_ms": SLIDESHOW_TRANSITION_MS,
        "image_not_found": MSG_IMAGE_NOT_FOUND,
    }


@register.inclusion_tag("media_library/_home_hero.html", takes_context=True)
def home_hero(context):
    slides = [
        {"picture": slide["picture"], "alt": "", "caption": slide["text_overlay"]} for slide in slideshow_image_list()
    ]
    return {**_timings(context), "slides": slides, "video": home_background_video()}


@register.inclusion_tag("media_library/_image_slider.html", takes_context=True)
def image_slider(context):
    slides = [
        {"picture": item["picture"], "alt": item["alt_text"], "caption": item["description"]}
        for item in slider_image_list()
    ]
    return {**_timings(context), "slides": slides}
