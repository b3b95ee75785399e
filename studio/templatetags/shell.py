"""The page shell's parts that are the same on every page (issue 18)."""

import json

from django import template
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe

register = template.Library()

# (template, year, the studio's settings) -> HTML, for this process.
_fixed: dict[tuple, str] = {}


def forget_fixed_parts() -> None:
    _fixed.clear()


@register.simple_tag
def fixed_part(template_name: str):
    """`{% include template_name %}` for a part that shows only the studio's settings (STUDIO) and the year (the
    footer, the cookie banner): rendered once per process, year and settings instead of at every page."""
    key = (template_name, timezone.localdate().year, json.dumps(settings.STUDIO, sort_keys=True, default=str))
    html = _fixed.get(key)
    if html is None:
        html = _fixed[key] = mark_safe(render_to_string(template_name, {"STUDIO": settings.STUDIO}))
    return html
