"""`{% island "name" props %}` mounts a React island in one line; `{% bundle "name" "js" %}` loads a
bundle without an island."""

from django import template
from django.utils.html import format_html, json_script
from django.utils.safestring import mark_safe
from webpack_loader.utils import get_as_url_to_tag_dict, get_loader

register = template.Library()

# (bundle, extension, attrs) -> {url: tag}, when the loader caches its stats (production): the stats file does not
# change while the process runs, and with no CSP nonce the tags do not depend on the request, so
# each is built once per process instead of at every page.
_tags: dict[tuple, dict[str, str]] = {}


def forget_bundles() -> None:
    _tags.clear()


def _bundle_tags(name: str, extension: str, attrs: str) -> dict[str, str]:
    config = get_loader("DEFAULT").config
    if not config.get("CACHE") or config.get("CSP_NONCE"):
        return get_as_url_to_tag_dict(name, extension=extension, attrs=attrs)
    key = (name, extension, attrs)
    tags = _tags.get(key)
    if tags is None:
        tags = _tags[key] = dict(get_as_url_to_tag_dict(name, extension=extension, attrs=attrs))
    return tags


@register.simple_tag(takes_context=True)
def bundle(context, name, extension, attrs=""):
    """webpack_loader's `render_bundle(..., skip_common_chunks=True)`: a chunk already on the page is not repeated."""
    tags = _bundle_tags(name, extension, attrs)
    request = context.get("request")
    if request is not None:
        used = getattr(request, "_webpack_loader_used_urls", None)
        if used is None:
            used = request._webpack_loader_used_urls = set()
        tags = {url: tag for url, tag in tags.items() if url not in used}
        used.update(tags)
    return mark_safe("\n".join(tags.values()))


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
