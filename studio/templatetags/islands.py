"""`{% island "name" props %}` mounts a React island in one line (STYLE.md 9)."""

from django import template
from django.utils.html import format_html, json_script
from django.utils.safestring import mark_safe
from webpack_loader.templatetags.webpack_loader import render_bundle

register = template.Library()


@register.simple_tag(takes_context=True)
def island(context, name, props=None, element_id=None):
    mount_id = element_id or f"island-{name}"
    props_id = f"{mount_id}-props"
    parts = [
        format_html(
            '<div id="{}" class="island island-{}" data-island="{}" data-props="{}"></div>',
            mount_id,
            name,
            name,
            props_id,
        ),
        json_script(props or {}, props_id),
        render_bundle(context, name, "css", skip_common_chunks=True),
        render_bundle(context, name, "js", attrs="defer", skip_common_chunks=True),
    ]
    return mark_safe("".join(str(p) for p in parts))
