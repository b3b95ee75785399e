"""`{% island "name" props %}` mounts a React island in one line; `{% bundle "name" "js" %}` loads a
bundle without an island."""

from django import template
from django.utils.html import format_html, json_script
from django.utils.safestring import mark_safe
from webpack_loader.templatetags.webpack_loader import render_bundle

register = template.Library()


@register.simple_tag(takes_context=True)
def bundle(context, name, extension, attrs=""):
    """webpack_loader's own tag, with each chunk written once a page: the shared vendor chunk that the shell and an
    island both need is not repeated. The loader adds a CSP nonce when its CSP_NONCE option is on."""
    return render_bundle(context, name, extension, attrs=attrs, skip_common_chunks=True)


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
        bundle(context, name, "css"),
        bundle(context, name, "js", attrs="defer"),
    ]
    return mark_safe("".join(str(p) for p in parts))
