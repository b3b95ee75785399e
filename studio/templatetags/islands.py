"""`{% island "name" props %}` mounts a React island in one line; `{% bundle "name" "js" %}` loads a
bundle without an island; `{% async_chunks "name" %}` fetches an island's lazily loaded code with the page."""

import json
from functools import lru_cache

from django import template
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.html import format_html, json_script
from django.utils.safestring import mark_safe
from webpack_loader.templatetags.webpack_loader import render_bundle
from webpack_loader.utils import get_loader

register = template.Library()


@register.simple_tag(takes_context=True)
def bundle(context, name, extension, attrs=""):
    """webpack_loader's own tag, with each chunk written once a page: the shared vendor chunk that the shell and an
    island both need is not repeated. The loader adds a CSP nonce when its CSP_NONCE option is on."""
    return render_bundle(context, name, extension, attrs=attrs, skip_common_chunks=True)


@register.simple_tag(takes_context=True)
def island(context, name, props=None, element_id=None, first_frame=None):
    """`first_frame`: a template of what the island's first render shows, served inside its element so that it is
    seen before the scripts run; the first render replaces it (React empties the element as it commits)."""
    mount_id = element_id or f"island-{name}"
    props_id = f"{mount_id}-props"
    inside = render_to_string(first_frame, context.flatten()) if first_frame else ""
    parts = [
        format_html(
            '<div id="{}" class="island island-{}" data-island="{}" data-props="{}">{}</div>',
            mount_id,
            name,
            name,
            props_id,
            mark_safe(inside),  # a template of ours, autoescaped as it rendered
        ),
        json_script(props or {}, props_id),
        bundle(context, name, "css"),
        bundle(context, name, "js", attrs="defer"),
    ]
    return mark_safe("".join(str(p) for p in parts))


@lru_cache(maxsize=1)
def _cached_async_chunks(path) -> dict:
    return _read_async_chunks(path)


def _read_async_chunks(path) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}  # not built yet: the island still loads the code itself, one round trip later


@register.simple_tag
def async_chunks(name):
    """The files of a named dynamic import (`webpackChunkName`), its styles and deferred scripts: when a page knows
    which lazily loaded part its island opens on, the browser fetches it beside the island's own files instead of
    after they have run. webpack's runtime finds the chunk and its stylesheet already there (same addresses) and does
    not ask again. The names and files are written by the build (frontend/scripts/async-chunks-plugin.cjs)."""
    path = settings.WEBPACK_ASYNC_CHUNKS_FILE
    groups = _cached_async_chunks(path) if settings.WEBPACK_LOADER["DEFAULT"]["CACHE"] else _read_async_chunks(path)
    loader = get_loader("DEFAULT")
    assets = loader.get_assets().get("assets", {})
    tags = []
    for file in groups.get(name, []):
        url = loader.get_chunk_url(assets.get(file, {"name": file}))
        if file.endswith(".css"):
            tags.append(format_html('<link rel="stylesheet" href="{}">', url))
        else:
            tags.append(format_html('<script defer src="{}"></script>', url))
    return mark_safe("".join(tags))
